"""Grades as Gradescope's results.json schema."""

import os

from autograder.course.lessons import functions
from autograder.grading import feedback, graded_tests
from autograder.sandbox import isolation_report


def by_function(grade):
    """{function: (score, max_score)} over the grade's results, in the lesson's order."""
    table = {}
    for result in grade.results:
        score, most = table.get(result.check.function, (0.0, 0.0))
        table[result.check.function] = (score + result.score, most + result.points)
    order = {name: i for i, name in enumerate(functions())}
    return dict(sorted(table.items(), key=lambda item: order.get(item[0], len(order))))


def overview(grade):
    lines = [f"{grade.origin}: {grade.score:g}/{grade.max_score:g}"]
    lines += [f"  {name}: {score:g}/{most:g}" for name, (score, most) in by_function(grade).items()]
    for misconception, ids in feedback.misconceptions(grade.results):
        lines.append(f"  likely misconception: {misconception}")
        lines.append(f"    it cost: {', '.join(ids)}")
    problems = feedback.load_problems(grade)
    if problems:
        lines.append("problems while loading your code:")
        lines += [f"  {line}" for line in problems]
    warning = isolation_report.warning()
    if warning:
        lines.append(warning)
    return "\n".join(lines)


def results_json(grade):
    """A dict in Gradescope's results.json schema: a test per check, its parts under its extra_data (graded_tests)."""
    said = feedback.messages(grade.results)
    return {
        "score": round(grade.score, 4),
        "max_score": round(grade.max_score, 4),
        "execution_time": round(grade.seconds, 3),
        "output": overview(grade),
        "tests": [
            graded_tests.check_test(r.check, r.score, r.points, r.passed, said[r.check.id]) for r in grade.results
        ],
    }


# The keys Gradescope's results.json documents, at the top level and in each test. Anything else the kit says
# about a run (its max_score, how learner code was isolated) goes under extra_data, which Gradescope keeps as given.
GRADESCOPE_KEYS = frozenset(
    {
        "score",
        "execution_time",
        "output",
        "output_format",
        "test_output_format",
        "test_name_format",
        "visibility",
        "stdout_visibility",
        "extra_data",
        "tests",
        "leaderboard",
    }
)
GRADESCOPE_TEST_KEYS = frozenset(
    {
        "score",
        "max_score",
        "status",
        "name",
        "name_format",
        "number",
        "output",
        "output_format",
        "tags",
        "visibility",
        "extra_data",
    }
)


def for_gradescope(results):
    """``results`` in Gradescope's schema: the kit's own top-level and per-test keys moved into extra_data."""

    def moved(entry, allowed):
        kept = {key: value for key, value in entry.items() if key in allowed}
        extra = {key: value for key, value in entry.items() if key not in allowed}
        if extra:
            kept["extra_data"] = {**entry.get("extra_data", {}), **extra}
        return kept

    shaped = moved(results, GRADESCOPE_KEYS)
    if "tests" in shaped:
        shaped["tests"] = [moved(test, GRADESCOPE_TEST_KEYS) for test in shaped["tests"]]
    return shaped


def not_graded(message):
    """The results of a hand-in that could not be graded: worth 0, the reason as the output, no tests.

    No max_score: nothing says which lessons were meant, and Gradescope then counts the assignment's own points.
    """
    return {
        "score": 0.0,
        "execution_time": 0.0,
        "output": f"Your hand-in could not be graded, so it is worth 0.\n{message}",
        "tests": [],
    }


def _plain(text):
    """Text any terminal or JSON reader takes: an unpaired surrogate (an undecodable file name) becomes U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


class HandinNames:
    """Files named from the hand-in's own name down: /autograder/submission/graph.py is shown as submission/graph.py,
    so no results, summary or message shows the folders of the machine that graded it."""

    def __init__(self, path):
        given = str(path).rstrip("/") or "/"
        self._name = os.path.basename(given)
        forms = {os.path.abspath(given), os.path.realpath(given), given if os.path.isabs(given) else self._name}
        self._forms = sorted((f for f in forms if self._name and f != self._name), key=len, reverse=True)

    def text(self, text):
        for form in self._forms:
            text = text.replace(form, self._name)
        return _plain(text)

    def results(self, value):
        """A copy of results (dicts, lists, strings, numbers) with every string shown this way."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.text(key): self.results(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.results(item) for item in value]
        return value
