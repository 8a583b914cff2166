# 4 pass
import unittest
class Pass(unittest.TestCase):
    def test_a(self): pass
    def test_b(self): pass
    def test_c(self): pass
    def test_d(self): pass
