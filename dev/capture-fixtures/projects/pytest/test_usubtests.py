# a unittest TestCase under pytest 9: test_sub_fails fails through 1 of 3 subTests (pytest prints it PASSED); test_ok passes
import unittest
class Subs(unittest.TestCase):
    def test_sub_fails(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertNotEqual(i, 1)
    def test_ok(self):
        pass
