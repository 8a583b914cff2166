# 1 pass, 1 failure (assertion), 2 errors (exceptions in the test body)
import unittest


class Errors(unittest.TestCase):
    def test_passes(self): pass
    def test_fails(self): self.assertEqual(1, 2)
    def test_raises(self): raise RuntimeError("boom")
    def test_key_error(self): {}["missing"]
