"""Grades as Gradescope's results.json schema."""

from autograder.grading import feedback
from autograder.grading.checks import FUNCTIONS
from autograder.sandbox import isolation


def by_function(grade):
    """{function: (score, max_score)} over the grade's results, in the lesson's order."""
    table = {}
    for result in grade.results:
        score, most = table.get(result.check.function, (0.0, 0.0))
        table[result.check.function] = (score + result.score, most + result.check.points)
    order = {name: i for i, name in enumerate(FUNCTIONS)}
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
    warning = isolation.warning()
    if warning:
        lines.append(warning)
    return "\n".join(lines)


def results_json(grade):
    """A dict in Gradescope's results.json schema; every test name starts with the check id."""
    said = feedback.messages(grade.results)
    return {
        "score": round(grade.score, 4),
        "max_score": round(grade.max_score, 4),
        "execution_time": round(grade.seconds, 3),
        "output": overview(grade),
        "tests": [
            {
                "name": f"{r.check.id} ({r.check.function})",
                "score": r.score,
                "max_score": r.check.points,
                "status": "passed" if r.passed else "failed",
                "output": said[r.check.id],
                "visibility": "visible",
            }
            for r in grade.results
        ],
    }
