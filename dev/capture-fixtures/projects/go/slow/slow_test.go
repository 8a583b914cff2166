package slow

import (
	"testing"
	"time"
)

// 1 pass, then 1 test that exceeds -timeout: go test panics and kills the binary
func TestQuick(t *testing.T) {}
func TestSlow(t *testing.T)  { time.Sleep(5 * time.Second) }
