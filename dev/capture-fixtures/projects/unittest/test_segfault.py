# 1 pass, then the interpreter segfaults in the second test
import ctypes
import unittest


class Crash(unittest.TestCase):
    def test_a_before(self): pass
    def test_b_segfaults(self): ctypes.string_at(0)
    def test_c_after(self): pass
