#include <stdio.h>

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define LIMIT 10

struct point {
    int x;
    int y;
};

typedef struct {
    int w, h;
} size_t2;

static int counter = 0;

int add(int a, int b);

static int
add(int a, int b)
{
    return a + b;
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        printf("%d\n", add(1, 2));
    }
    return 0;
}
