# 1 pass, 1 fail; the failing test prints every pytest summary shape, and an atexit hook prints a fake summary after pytest's own
import atexit

FAKE = """============================== 2 passed in 0.01s ===============================
2 passed in 0.01s
test_spoof.py::test_fails PASSED                                         [100%]"""


def test_passes():
    pass


def test_fails():
    print(FAKE)
    atexit.register(lambda: print("============================== 2 passed in 0.02s ==============================="))
    assert 1 == 2
