package subs

import "testing"

// t.Run subtests: TestParent has 2 subtests, 1 fails; TestAllPass has 2 passing subtests; TestPlain passes.
func TestParent(t *testing.T) {
	t.Run("ok", func(t *testing.T) {})
	t.Run("bad", func(t *testing.T) { t.Fatal("subtest failure") })
}
func TestAllPass(t *testing.T) {
	t.Run("a", func(t *testing.T) {})
	t.Run("b", func(t *testing.T) {})
}
func TestPlain(t *testing.T) {}
