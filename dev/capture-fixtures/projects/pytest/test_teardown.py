# 1 test passes, then its fixture teardown fails: pytest counts 1 passed and 1 error
import pytest
@pytest.fixture
def res():
    yield 1
    raise RuntimeError("teardown failed")
def test_uses(res): assert res == 1
