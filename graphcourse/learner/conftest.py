"""Pytest setup for the public tests: the --impl option and fixed Hypothesis settings (exercises/pytest_impl.py).

pytest exercises/tests                                  # your exercises/graph.py (the default)
pytest exercises/tests --impl=notebooks                 # the code cells of your lesson notebooks
pytest exercises/tests --impl=path/to/file.py           # any module file, notebook or folder
"""

pytest_plugins = ["exercises.pytest_impl"]
