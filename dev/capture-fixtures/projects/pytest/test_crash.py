# 1 pass then the interpreter dies (os._exit) during the second test
import os
def test_before(): pass
def test_crash(): os._exit(3)
def test_after(): pass
