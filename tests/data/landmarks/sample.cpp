#include <vector>

namespace geo {

class Shape {
public:
    virtual ~Shape() = default;
    virtual double area() const = 0;
    int sides() const { return n_; }

private:
    int n_ = 0;
};

template <typename T>
T clamp(T v, T lo, T hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

double Shape::area() const {
    return 0.0;
}

}  // namespace geo
