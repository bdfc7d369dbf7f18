"""Judge answer cells (a learner's variables, such as ORDER) against the lesson's key, in the trusted process.

The learner's variables are read through the sandbox as plain values, so nothing the
learner wrote runs in this process. A lesson names its judge in the grade cell's header
(judge="equals"). The kit's own judges need no code:

    choice   a multiple-choice letter; the key is the answer cell's solution, explain= says why a letter is wrong
    equals   every variable the solution sets, equal to it: exact (types too, so big integers are exact),
             or within tolerance=<relative tolerance> for numbers
    one_of   one variable, equal to one of accept={"NAME": [value, ...]} (the solution sets one of them)

A course adds judges of its own in its answers part (autograder/course/active.py). A judge
returns "" for a right answer, or a teaching message that says what is wrong without handing
over the answer.
"""

import functools
from dataclasses import dataclass

from autograder.course import active
from autograder.course.lessons import grade_cells
from autograder.grading.compare import clip, short
from autograder.grading.properties import same
from autograder.sandbox.sandbox import Sandbox


@dataclass(frozen=True)
class Judge:
    names: tuple  # the learner's variables it reads; () means the ones the answer cell's solution sets
    judge: object  # ({name: value}, the GradeCell) -> "" when right, else the message
    rule: str  # what the question asks, said the way the lesson says it


def show(value):
    """A learner's value, quoted short."""
    return short(value, 80)


def judge_choice(values, cell):
    """A multiple-choice answer: the key is the lesson's solution, the reasons its explain= setting."""
    ((name, key),) = cell.solution.items()
    got = values[name]
    if type(got) is str and got == key:
        return ""
    if type(got) is str and got in cell.explain:
        return f"{name} = {got!r}: {cell.explain[got]}"
    letters = ", ".join(f'"{letter}"' for letter in sorted(set(cell.explain) | {key}))
    return f"{name} should be one of the strings {letters}, but it is {show(got)}."


def _kind(value):
    return {
        int: "a whole number",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "a dict",
        bool: "True or False",
        type(None): "None",
    }.get(type(value), type(value).__name__)


def judge_equals(values, cell):
    """Each variable the solution sets, equal to the solution's value (within the cell's tolerance, if any)."""
    tolerance = cell.options.get("tolerance")
    problems = []
    for name, want in cell.solution.items():
        got = values[name]
        numbers = tolerance is not None and type(want) in (int, float) and type(got) in (int, float)
        if not numbers and type(got) is not type(want):
            problems.append(f"{name} should be {_kind(want)}, but it is {show(got)}.")
        elif not same(got, want, tolerance):
            problems.append(f"{name} = {show(got)} is not right; {cell.explain.get(str(got), 'check your working')}.")
    return " ".join(problems)


def judge_one_of(values, cell):
    """One variable, equal to one of the accepted values."""
    ((name, accepted),) = cell.options["accept"].items()
    got = values[name]
    if any(same(got, want) for want in accepted):
        return ""
    return f"{name} = {show(got)} is not right; {cell.explain.get(str(got), 'check your working')}."


KIT_JUDGES = {
    "choice": Judge((), judge_choice, "Pick the one right letter."),
    "equals": Judge((), judge_equals, "Give the value the question asks for."),
    "one_of": Judge((), judge_one_of, "Give one of the values the question accepts."),
}


@functools.cache
def judges():
    """{name: Judge}: the kit's own judges, then the course's (a course may not redefine the kit's)."""
    course = getattr(active.part("answers"), "JUDGES", {})
    clash = sorted(set(course) & set(KIT_JUDGES))
    if clash:
        raise active.CourseError(
            f"{active.name()}/answers.py redefines the kit's judge(s) {', '.join(clash)}; rename them"
        )
    return {**KIT_JUDGES, **course}


def names_of(cell):
    """The learner's variables an answer cell's judge reads."""
    return judges()[cell.judge].names or tuple(cell.solution)


def answer_cells():
    """{grade_id: GradeCell} of the course's answer grade cells."""
    return {grade_id: cell for grade_id, cell in grade_cells().items() if cell.judge}


def verdict(cell, values):
    """The judge's message for one answer cell's values ("" when right); never raises, whatever the values."""
    try:
        return clip(judges()[cell.judge].judge(values, cell))
    except Exception as err:  # noqa: BLE001 - a value shaped like nothing the judge foresaw
        names = ", ".join(names_of(cell))
        return (
            f"{names} could not be judged ({type(err).__name__}): set it to a value of the kind the question asks for."
        )


def _unread(name, reply, load_errors):
    """The message for a variable the sandbox could not hand back."""
    status = reply.get("status")
    if status == "missing":
        raised = [e for e in load_errors if e.get("type") == "NotImplementedError"]
        if raised:
            return f"{name} is not set: a cell still raises NotImplementedError. Replace that line with your answer."
        return f"{name} is not set. Assign it in the answer cell below its question and run the cell."
    if status == "unsendable":
        return f"{name} should hold plain values (numbers, strings, lists), but it holds something else."
    if status == "unloadable":
        return "Your notebook's code could not be run at all, so no answer could be read."
    return f"{name} could not be read from your notebook ({status})."


def judge(chunks, grade_ids, load_errors=()):
    """{grade_id: message} for the answer cells among grade_ids ("" for a right answer), in a sandbox of their own."""
    if not any(g in answer_cells() for g in grade_ids):
        return {}
    with Sandbox(chunks) as sandbox:
        return judge_in(sandbox, grade_ids, load_errors)


def judge_in(sandbox, grade_ids, load_errors=()):
    """judge(), reading the learner's variables from a sandbox that already holds their code."""
    cells = answer_cells()
    verdicts = {}
    for answer in (cells[g] for g in grade_ids if g in cells):
        values, problems = {}, []
        for name in names_of(answer):
            reply = sandbox.variable(name)
            if reply.get("status") == "ok":
                values[name] = reply.get("value")
            else:
                problems.append(_unread(name, reply, list(load_errors) or sandbox.load_errors))
        verdicts[answer.grade_id] = " ".join(problems) if problems else verdict(answer, values)
    return verdicts
