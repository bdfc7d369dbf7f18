"""Print the table of hidden-check families (Markdown), as the README shows it.

    python -m autograder.grading.checks
"""

import importlib

from autograder.grading.checks import FAMILIES, all_checks


def markdown_table(checks=None):
    checks = all_checks() if checks is None else checks
    lines = ["| family | function | checks | points | what it enforces |", "|---|---|---|---|---|"]
    for family in FAMILIES:
        members = [c for c in checks if c.family == family]
        functions = ", ".join(dict.fromkeys(c.function for c in members))
        summary = importlib.import_module(f"autograder.grading.checks.{family}").__doc__.strip().splitlines()[0]
        lines.append(f"| `{family}` | {functions} | {len(members)} | {sum(c.points for c in members):g} | {summary} |")
    lines.append(f"| **total** | | {len(checks)} | {sum(c.points for c in checks):g} | |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown_table())
