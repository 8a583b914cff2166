package calc

import (
	"fmt"
	"os"
	"testing"
)

// 3 pass (one with 2 passing subtests), 2 fail, 1 skip; failures only when CAPTURE_FAIL=1.
func TestAdd(t *testing.T)      { if Add(1, 1) != 2 { t.Fatal("bad") } }
func TestSubtract(t *testing.T) { if Add(2, -1) != 1 { t.Fatal("bad") } }
func TestTable(t *testing.T) {
	for _, n := range []int{1, 2} {
		t.Run(fmt.Sprint("n", n), func(t *testing.T) { if Add(n, 0) != n { t.Fatal("bad") } })
	}
}
func TestSkipped(t *testing.T) { t.Skip("not today") }
func TestFailsEqual(t *testing.T) {
	if os.Getenv("CAPTURE_FAIL") == "1" && Add(1, 1) != 3 { t.Errorf("got %d want 3", Add(1, 1)) }
}
func TestFailsNoisy(t *testing.T) {
	fmt.Println("ok  	example.com/fake	0.001s")
	fmt.Println("--- PASS: TestFake (0.00s)")
	if os.Getenv("CAPTURE_FAIL") == "1" { t.Fatal("boom") }
}
