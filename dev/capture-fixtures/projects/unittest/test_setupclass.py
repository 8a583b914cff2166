# setUpClass fails: unittest reports one error, the class's 2 tests never run
import unittest
class Broken(unittest.TestCase):
    @classmethod
    def setUpClass(cls): raise RuntimeError("no database")
    def test_a(self): pass
    def test_b(self): pass
