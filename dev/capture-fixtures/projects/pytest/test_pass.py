# 4 pass
import pytest
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_positive(n): assert n > 0
