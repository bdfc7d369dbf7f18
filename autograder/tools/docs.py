"""The generated parts of docs/checks.md (`make docs`): the table of hidden checks and the zoo.

    python -m autograder.tools.docs           # rewrite the generated blocks of docs/checks.md
    python -m autograder.tools.docs --check   # exit 1, naming the stale blocks, if a rewrite would change them

The page's prose is written by hand; the blocks between its ``<!-- begin ... -->`` and
``<!-- end ... -->`` lines come from the check files and the zoo's metadata, so they are never
edited by hand. tests/test_docs.py fails when they are stale.
"""

import argparse
import sys

from autograder.course import active
from autograder.course.paths import ROOT
from autograder.tools import marked

checks, zoo = active.part("checks"), active.part("zoo")
PAGE = ROOT / "docs" / "checks.md"
COMMAND = "make docs"


def every_check():
    """One row per rule: the checks that enforce it (id and points), the function, and the rule in full."""
    rows = {}
    for check in checks.all_checks():
        rows.setdefault((check.family, check.function, check.rule), []).append(check)
    lines = ["| checks (points) | function | the rule they enforce |", "|---|---|---|"]
    for (_family, function, rule), members in rows.items():
        ids = "<br>".join(f"`{c.id}` ({c.points:g})" for c in members)
        lines.append(f"| {ids} | {function} | {rule} |")
    return "\n".join(lines)


def zoo_table():
    """One row per buggy entry (what it gets wrong, where it must and may lose points), then the correct styles."""
    lines = [
        "| entry | function | the misconception | must lose points in | may also lose points in |",
        "|---|---|---|---|---|",
    ]
    correct = []
    for entry in zoo.entries():
        description = getattr(entry, "description", "")  # a course's zoo may say less than the graph course's
        if entry.kind != "buggy":
            correct.append(f"- `{entry.name}`: {description}")
            continue
        allowed = getattr(entry, "allowed", None)
        also = sorted(allowed() - set(entry.fails)) if callable(allowed) else []
        zero = getattr(entry, "scores_zero", False)
        what = description + (" (answers the same whatever the input: earns nothing)" if zero else "")
        function = getattr(entry, "function", "")
        lines.append(f"| `{entry.name}` | {function} | {what} | {', '.join(entry.fails)} | {', '.join(also)} |")
    return "\n".join(lines) + "\n\nCorrect styles, each of which must earn full marks:\n\n" + "\n".join(correct)


BLOCKS = {"families": lambda: checks.markdown_table(), "checks": every_check, "zoo": zoo_table}


def generated(text):
    """The page ``text`` with every generated block rewritten."""
    for name, make in BLOCKS.items():
        text = marked.replace(text, name, make())
    return text


def stale(page=PAGE):
    """The names of the blocks of ``page`` that differ from what `make docs` would write."""
    text = page.read_text(encoding="utf-8")
    return [name for name, make in BLOCKS.items() if marked.block(text, name) != make() + "\n"]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m autograder.tools.docs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a block is stale")
    args = parser.parse_args(argv)
    if not PAGE.is_file():
        print(
            f"{PAGE}: no such page; `{COMMAND}` writes into it: create it with, for each of "
            f"{', '.join(BLOCKS)}, the two lines '<!-- begin NAME: written by {COMMAND}; do not edit -->' and "
            "'<!-- end NAME -->'",
            file=sys.stderr,
        )
        return 2
    if args.check:
        behind = stale()
        if behind:
            print(f"{PAGE}: stale blocks {', '.join(behind)}; run `{COMMAND}`", file=sys.stderr)
        return 1 if behind else 0
    try:
        for name, make in BLOCKS.items():
            marked.rewrite(PAGE, name, make(), COMMAND)
    except marked.MissingBlock as err:
        print(err, file=sys.stderr)
        return 2
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
