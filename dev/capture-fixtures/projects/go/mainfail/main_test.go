package mainfail

import (
	"fmt"
	"os"
	"testing"
)

// TestMain prints a fake "--- FAIL:" line and a fake package line before any test runs; 1 pass, 1 fail.
func TestMain(m *testing.M) {
	fmt.Println("--- FAIL: TestGhost (0.00s)")
	fmt.Println("ok  \texample.com/capture/mainfail\t0.001s")
	os.Exit(m.Run())
}
func TestPasses(t *testing.T) {}
func TestFails(t *testing.T) { t.Fatal("real failure") }
