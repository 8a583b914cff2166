# Writes test_many.py with N parametrized passing tests (N from argv).
import sys
n = int(sys.argv[1])
open("test_many.py", "w").write(
    "import pytest\n@pytest.mark.parametrize('i', range(%d))\ndef test_case(i): assert i >= 0\n" % n)
