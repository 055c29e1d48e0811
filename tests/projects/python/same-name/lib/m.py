def version():
    return "lib"


def double(n):
    return n * 2
