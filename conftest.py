"""Pytest setup: the public tests' --impl option and Hypothesis profile come from exercises/pytest_impl.py.

pytest exercises/tests                         # your stubs in exercises/graph.py (the default)
pytest exercises/tests --impl=solutions        # the reference
pytest exercises/tests --impl=path/to/file.py  # any module file, notebook or submission folder
"""

pytest_plugins = ["exercises.pytest_impl"]
