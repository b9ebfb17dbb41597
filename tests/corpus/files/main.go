package main

import "fmt"

func main() {
	fmt.Println("héllo, 世界")
}
