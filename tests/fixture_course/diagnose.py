"""The fixture course names no misconception."""


def misconception(check, failure):
    return ""
