"""Teaching messages for check results: what failed, on which input, and the likely misconception.

Messages show the input, the expected and the actual answer, and the lesson's rule;
they never show a check's source.
"""

from autograder.course import active
from autograder.course.paths import EXERCISES_FOLDER
from autograder.grading.compare import short


# A lesson may draw with a helper of its exercises/ package, which the sandbox does not have: a cell
# that stops there only draws, so its import error says nothing about the learner's code.
def drawing_helper_missing(message):
    """Is ``message`` the import error of the course's exercises package (or one of its modules)?"""
    return message == f"No module named '{EXERCISES_FOLDER}'" or message.startswith(
        f"No module named '{EXERCISES_FOLDER}."
    )


def describe_call(case):
    """How feedback shows a case's input: its label and the call. A course's judges part may give its own
    ``describe``."""
    lines = [f"input: {case.label}" if case.label else "input:"]
    shown = [short(a) for a in case.args] + [f"{k}={short(v)}" for k, v in case.kwargs.items()]
    lines.append(f"  call: {case.fn}({', '.join(shown)})" + (f", through {case.driver}" if case.driver else ""))
    return lines


def describe_case(case):
    return getattr(active.part("judges"), "describe", describe_call)(case)


def message(result, named_by=""):
    """The feedback text for one check result.

    ``named_by``: the id of an earlier check whose message already names this result's
    misconception; the sentence is then not repeated, only pointed to.
    """
    check = result.check
    head = f"{check.id} ({check.function}): {result.score:g}/{check.points:g}"
    if result.passed:
        return head + " passed"
    failure = result.failure
    lines = [head + " FAILED", f"  {failure.summary}"]
    if failure.case is not None:
        lines += ["  " + line for line in describe_case(failure.case)]
    lines += [f"  {detail}" for detail in failure.details]
    if result.misconception and named_by:
        lines.append(f"  likely misconception: the same as in {named_by}")
    elif result.misconception:
        lines.append(f"  likely misconception: {result.misconception}")
    lines.append(f"  the rule: {check.rule}")
    return "\n".join(lines)


def messages(results):
    """{check id: message} for every result, each misconception named in full only once per submission.

    The first failed check a misconception cost names it; every later one points back to it.
    """
    first, said = {}, {}
    for result in results:
        named_by = first.get(result.misconception, "") if not result.passed else ""
        said[result.check.id] = message(result, named_by)
        if result.misconception and not result.passed:
            first.setdefault(result.misconception, result.check.id)
    return said


def misconceptions(results):
    """[(misconception, [check ids it cost])]: each recognised misconception once, in the order met."""
    cost = {}
    for result in results:
        if result.misconception and not result.passed:
            cost.setdefault(result.misconception, []).append(result.check.id)
    return list(cost.items())


def load_problems(grade, unanswered=True):
    """Lines about code that could not run and about the submission's files.

    Cells that still raise NotImplementedError are questions not answered yet: they make one line
    (none with ``unanswered=False``, where the answer cells report them themselves).
    """
    lines, stubs = [], []
    for error in grade.load_errors:
        if error.get("type") == "NotImplementedError":
            stubs.append(error["label"])
            continue
        if error.get("type") == "ModuleNotFoundError" and drawing_helper_missing(str(error.get("message"))):
            continue
        where = f" at {error['where']}" if error.get("where") else ""
        said = f": {error['message']}" if str(error.get("message", "")).strip() else ""
        lines.append(f"{error['label']}: {error['type']}{where}{said}")
    if stubs and unanswered:
        lines.append(f"not answered yet (still raising NotImplementedError): {', '.join(stubs)}")
    return lines + list(grade.notes)
