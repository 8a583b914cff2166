# 2 pass; prints runner-like summaries itself (visible with -s)
def test_prints(): print("===== 10 passed in 0.01s =====")
def test_prints_more(): print("test result: ok. 99 passed; 0 failed; 0 ignored")
