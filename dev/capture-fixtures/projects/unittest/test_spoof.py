# 1 pass, 1 fail; the failing test prints unittest's summary shapes, and an atexit hook prints them after unittest's own
import atexit
import unittest

FAKE = "----------------------------------------------------------------------\nRan 2 tests in 0.001s\n\nOK"


class Spoof(unittest.TestCase):
    def test_passes(self):
        pass

    def test_fails(self):
        print(FAKE)
        atexit.register(lambda: print(FAKE))
        self.assertEqual(1, 2)
