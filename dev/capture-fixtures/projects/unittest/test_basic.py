# 3 pass, 1 fail, 1 error, 1 skip, 1 expected failure, 1 unexpected success
import unittest

class Basic(unittest.TestCase):
    def test_adds(self): self.assertEqual(1 + 1, 2)
    def test_subtracts(self): self.assertEqual(2 - 1, 1)
    def test_multiplies(self): self.assertEqual(2 * 2, 4)
    def test_fails_equal(self): self.assertEqual(1 + 1, 3)
    def test_raises(self): raise RuntimeError("boom")
    @unittest.skip("not today")
    def test_skipped(self): pass
    @unittest.expectedFailure
    def test_xfail(self): self.assertEqual(1, 2)
    @unittest.expectedFailure
    def test_xpass(self): self.assertEqual(1, 1)
