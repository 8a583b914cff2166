# subTests: one test whose 3 subtests are all skipped, one with 2 passing and 1 failing subtest, 1 plain pass
import unittest


class Subs(unittest.TestCase):
    def test_all_skipped(self):
        for i in range(3):
            with self.subTest(i=i):
                self.skipTest("not today")

    def test_one_fails(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertNotEqual(i, 2)

    def test_plain(self):
        pass
