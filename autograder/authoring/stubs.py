"""Make learner stubs from the reference: every solution region becomes a NotImplementedError.

    python -m autograder.authoring.stubs          # rewrite exercises/graph.py
    python -m autograder.authoring.stubs --check  # exit 1 if the committed stub has drifted
"""

import argparse
import re
import sys

from autograder.course.markers import BEGIN, replace_regions
from autograder.course.paths import REFERENCE, ROOT, STUB

_DEF = re.compile(r"^def (\w+)\(", re.MULTILINE)

HEADER = (
    "# Your exercise. Replace each `raise NotImplementedError(...)` with your code;\n"
    "# keep the names, signatures and OPS as they are. Run `make check` to test it.\n"
)


def stub_source(reference: str) -> str:
    """Return the reference with every solution region replaced by a stub naming its task."""

    lines = reference.splitlines()

    def replace(indent, begin):
        task = _DEF.findall("\n".join(lines[:begin]))[-1]
        return f'{indent}# YOUR CODE HERE\n{indent}raise NotImplementedError("task {task}: not written yet")\n'

    if BEGIN not in reference:
        raise ValueError(f"{REFERENCE}: no '{BEGIN}' regions found")
    return HEADER + replace_regions(reference, replace)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the stub is out of date")
    args = parser.parse_args(argv)
    expected = stub_source(REFERENCE.read_text())
    if args.check:
        if STUB.read_text() != expected:
            print(f"{STUB} has drifted from {REFERENCE}: run `make stubs`", file=sys.stderr)
            return 1
        return 0
    STUB.write_text(expected)
    print(f"wrote {STUB.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
