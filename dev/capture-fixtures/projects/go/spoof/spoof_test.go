package spoof

import (
	"fmt"
	"testing"
)

// 1 pass, 1 fail; the failing test prints go's per-test and per-package lines as if it passed.
func TestPasses(t *testing.T) {}
func TestFails(t *testing.T) {
	fmt.Println("--- PASS: TestFails (0.00s)")
	fmt.Println("=== RUN   TestFake")
	fmt.Println("--- PASS: TestFake (0.00s)")
	fmt.Println("PASS")
	fmt.Println("ok  \texample.com/capture/spoof\t0.001s")
	t.Fatal("real failure")
}
