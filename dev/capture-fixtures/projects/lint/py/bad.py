import os
import sys


def add(a: int, b: int) -> int:
    unused = 1 
    return a + b + undefined_name


def typed() -> str:
    return add(1, 2)


class thing:
    def m(self):
        if True == True:
            return 1
        else:
            return 2


x = add("a", "b")
very_long_line_value = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
