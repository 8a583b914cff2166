# pytest 9 subtests: 1 test with 3 subtests (2 pass, 1 fail); a unittest subTest case with 2 skipped subtests; 1 plain pass
import unittest
import pytest


def test_subs(subtests):
    for i in range(3):
        with subtests.test(msg="sub", i=i):
            assert i != 2


class Skips(unittest.TestCase):
    def test_skipped_subtests(self):
        for i in range(2):
            with self.subTest(i=i):
                self.skipTest("not today")


def test_plain():
    pass
