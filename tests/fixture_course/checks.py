"""The fixture course's hidden checks: one family per behaviour, each holding a case a constant answer fails."""

from autograder.course.lessons import functions
from autograder.grading.engine import Case, Check

FUNCTIONS = functions()
FAMILIES = ("longest_word", "longest_no_word", "tally_counts", "tally_memory")
REPEATS = 200_000  # a Tally that keeps every word added holds at least 8 bytes for each: 1.6 MB here


def all_checks():
    return [
        Check("longest_word/first_of_equal", "longest", 3, "longest returns the first of the longest words.",
              "reference", cases=(Case("longest", ("a bb ccc",)), Case("longest", ("xy ab c",)))),
        Check("longest_no_word/value_error", "longest", 2, "longest raises ValueError naming text when it holds no word.",
              "raises_naming_text", cases=(Case("longest", ("  ",)),)),
        Check("tally_counts/driven", "Tally", 5, "Tally counts each word added, and 0 for one never added.",
              "driven", cases=(Case("Tally", (["a", "b", "a"], ["a", "b", "c"]), driver="tally_counts"),
                               Case("Tally", (["x"] * 3, ["x"]), driver="tally_counts"))),
        Check("tally_memory/repeats", "Tally", 2, "A Tally holds one count per distinct word, not the words added.",
              "memory_bound", cases=(Case("Tally", ("echo", REPEATS), driver="tally_repeats", label="one word added "
                                          f"{REPEATS:,} times", memory_bytes=512 << 10),)),
    ]


def points_of(function):
    total = sum(check.points for check in all_checks() if check.function == function)
    return int(total) if float(total).is_integer() else total


def markdown_table(checks=None):
    return "\n".join(f"| `{c.id}` | {c.function} | {c.points:g} |" for c in checks or all_checks())
