# 1 pass, then os.abort() in the second test (SIGABRT, CPython's "Fatal Python error: Aborted"); the third never runs
import os
def test_before(): pass
def test_aborts(): os.abort()
def test_after(): pass
