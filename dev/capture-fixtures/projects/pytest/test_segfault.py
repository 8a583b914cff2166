# 1 pass, then the interpreter segfaults during the second test (SIGSEGV, no Python exception)
import ctypes
def test_before(): pass
def test_segfaults(): ctypes.string_at(0)
def test_after(): pass
