package segv

import (
	"syscall"
	"testing"
)

// 1 pass, then the test binary sends itself SIGSEGV: the binary dies with a signal.
func TestBefore(t *testing.T) {}
func TestSegfaults(t *testing.T) { syscall.Kill(syscall.Getpid(), syscall.SIGSEGV) }
func TestAfter(t *testing.T) {}
