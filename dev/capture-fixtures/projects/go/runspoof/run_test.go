package runspoof

import (
	"fmt"
	"testing"
)

// 1 pass, 1 fail; under plain `go test` the failing test prints a fake -v "=== RUN" / "--- PASS:" pair first.
func TestPasses(t *testing.T) {}
func TestFails(t *testing.T) {
	fmt.Println("=== RUN   TestFake")
	fmt.Println("--- PASS: TestFake (0.00s)")
	t.Fatal("real failure")
}
