# 3 pass, 2 fail, 1 skip, 1 xfail, 1 xpass, 1 strict xpass (a failure), 1 setup error
import pytest

def test_adds(): assert 1 + 1 == 2
def test_subtracts(): assert 2 - 1 == 1
def test_multiplies(): assert 2 * 2 == 4
def test_fails_equal(): assert 1 + 1 == 3
def test_fails_throw(): raise RuntimeError("boom")
@pytest.mark.skip(reason="not today")
def test_skipped(): pass
@pytest.mark.xfail(reason="known bug")
def test_xfail(): assert False
@pytest.mark.xfail(reason="fixed already")
def test_xpass(): assert True
@pytest.mark.xfail(strict=True, reason="must fail")
def test_strict_xpass(): assert True

@pytest.fixture
def broken():
    raise RuntimeError("fixture setup failed")

def test_uses_broken(broken): pass
