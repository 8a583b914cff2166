package fakefail

import (
	"fmt"
	"testing"
)

// 2 pass, 1 fail; a passing test prints a fake "--- FAIL:" line for itself and for a test that does not exist.
func TestPrintsFakeFail(t *testing.T) {
	fmt.Println("--- FAIL: TestNotATest (0.00s)")
	fmt.Println("--- FAIL: TestPrintsFakeFail (0.00s)")
}
func TestPasses(t *testing.T) {}
func TestFails(t *testing.T) { t.Fatal("real failure") }
