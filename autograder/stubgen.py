"""Make learner stubs from the reference: every solution region becomes a NotImplementedError.

    python -m autograder.stubgen          # rewrite exercises/graph.py
    python -m autograder.stubgen --check  # exit 1 if the committed stub has drifted
"""

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "solutions" / "graph.py"
STUB = ROOT / "exercises" / "graph.py"

_REGION = re.compile(
    r"^(?P<indent>[ \t]*)### BEGIN SOLUTION\n.*?^[ \t]*### END SOLUTION\n",
    re.MULTILINE | re.DOTALL,
)
_DEF = re.compile(r"^def (\w+)\(", re.MULTILINE)

HEADER = (
    "# Your exercise. Replace each `raise NotImplementedError(...)` with your code;\n"
    "# keep the names, signatures and OPS as they are. Run `make check` to test it.\n"
)


def stub_source(reference: str) -> str:
    """Return the reference with every solution region replaced by a stub naming its task."""

    def replace(match):
        task = _DEF.findall(reference, 0, match.start())[-1]
        indent = match.group("indent")
        return f'{indent}# YOUR CODE HERE\n{indent}raise NotImplementedError("task {task}: not written yet")\n'

    body, count = _REGION.subn(replace, reference)
    if count == 0:
        raise ValueError(f"{REFERENCE}: no '### BEGIN SOLUTION' regions found")
    return HEADER + body


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
