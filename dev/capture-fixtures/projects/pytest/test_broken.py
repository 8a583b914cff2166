# collection error
import does_not_exist  # noqa
def test_never(): pass
