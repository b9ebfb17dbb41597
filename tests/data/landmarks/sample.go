package sample

import "fmt"

type Point struct {
	X, Y int
}

type Shape interface {
	Area() float64
}

func (p Point) String() string {
	return fmt.Sprintf("(%d, %d)", p.X, p.Y)
}

func New(x, y int) Point {
	go func() {
		fmt.Println("bg")
	}()
	return Point{x, y}
}
