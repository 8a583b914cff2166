package panics

import "testing"

// 1 pass, 1 panic (the binary stops: the third test never runs)
func TestFirst(t *testing.T)  {}
func TestPanics(t *testing.T) { var m map[string]int; m["x"] = 1 }
func TestThird(t *testing.T)  {}
