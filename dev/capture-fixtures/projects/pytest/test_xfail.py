# 1 pass, 1 skip, 1 xfail, 1 xpass (non-strict)
import pytest
def test_ok(): pass
@pytest.mark.skip(reason="later")
def test_skip(): pass
@pytest.mark.xfail(reason="known")
def test_xfail(): assert False
@pytest.mark.xfail(reason="fixed?")
def test_xpass(): pass
