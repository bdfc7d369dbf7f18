"""Command line: grade one submission, or report what the sandbox can do here.

    python -m autograder grade PATH [--output FILE] [--json] [--fail-under PERCENT] [--visibility KEY=LEVEL ...]
                                    [--isolation full|limits] [--lesson ID]
    python -m autograder reproduce RESULTS.json [HANDIN]
    python -m autograder doctor

A hand-in is out of what it can earn (its max_score): the lessons whose notebooks it holds, or
the hidden checks of the functions its modules are graded on. The output says so on its
second line, with what that leaves out (a module carries no answer cells). `grade` exits 0 when
it graded the hand-in, 1 when the score is below --fail-under percent of that, 2 when the
hand-in cannot be graded (the message names the file and the fix), and 3 when this machine
cannot grade (the sandbox cannot isolate learner code and no weaker mode was asked for, it
cannot start at all, or FILE cannot be written). With --output it writes FILE itself, in one
step, whatever the outcome: the results, or results worth 0 that say why. Files are named
from the hand-in's own name down, never by the folders it sits in, and no outcome prints a
traceback.
"""

import argparse
import json
import os
import sys
from contextlib import contextmanager

from autograder.course import active
from autograder.course.active import CourseError
from autograder.course.lessons import LESSONS, function_of
from autograder.files import write_atomic
from autograder.grading import by_lesson, graded_tests, provenance, report, visibility
from autograder.grading.submission import SubmissionError
from autograder.pipeline import reproduce
from autograder.sandbox import isolation, isolation_report, sandbox, spare
from autograder.sandbox.isolation import IsolationError

EXIT_GRADED, EXIT_BELOW, EXIT_CANNOT_GRADE, EXIT_CANNOT_RUN = 0, 1, 2, 3
SANDBOX_ENV = isolation.MODE_ENV  # =limits: the one way to ask the sandbox for resource limits only


def percent(score, most):
    """The score as a percentage of what the hand-in can earn; 0 when it can earn nothing."""
    return 100.0 * score / most if most else 0.0


def scale(graded):
    """One line: what the hand-in is out of, and why: the parts it can earn points in, and what they leave out."""
    earned = [
        f"{os.path.basename(p.origin)} {p.results['max_score']:g}" for p in graded.parts if p.label != "functions"
    ]
    lessons_in = {p.label for p in graded.parts}
    functions = []
    for part in (p for p in graded.parts if p.label == "functions"):
        names = graded_tests.functions_of(part.results["tests"])
        functions += [n for n in names if n not in functions]
        earned.append(f"{part.results['max_score']:g} for the hidden checks of {', '.join(names)}")
    left = {}
    for lesson in LESSONS:
        points = by_lesson.lesson_points(lesson)
        if lesson.assignment in lessons_in or not {function_of(g) for g in points} & set(functions):
            continue
        answers = sum(most for g, most in points.items() if not function_of(g))
        if answers:
            left[lesson.assignment] = answers
    line = (
        f"out of {graded.max_score:g} ({percent(graded.score, graded.max_score):.0f}%): what this hand-in can "
        f"earn: {'; '.join(earned)}"
    )
    if left:
        line += (
            f". The answer cells of {', '.join(left)} ({sum(left.values()):g} points) are graded in the lesson "
            "notebooks only: hand those in to earn them"
        )
    return line


def with_scale(text, graded):
    """``text`` (a summary or a results output) with the scale line after its first line."""
    first, sep, rest = text.partition("\n")
    return f"{first}\n{scale(graded)}{sep}{rest}" if graded.parts else text


def summary(graded, results, verbose=False):
    """A readable report: the total, what it is out of, each part's overview, then every failed test's message."""
    lines = [f"{graded.origin}: {graded.score:g}/{graded.max_score:g}", scale(graded)]
    for part in graded.parts:
        lines += ["  " + line for line in part.results["output"].splitlines()]
    lines += graded.notes
    parts = ["\n".join(lines)]
    tests = results["tests"]
    failed = [t for t in tests if t["status"] != "passed"]
    if failed:
        parts.append(f"{len(failed)} of {len(tests)} checks failed:")
        parts += [t["output"] for t in failed]
    else:
        parts.append(f"all {len(tests)} checks passed")
    if verbose:
        parts += [t["output"] for t in tests if t["status"] == "passed"]
    return "\n\n".join(parts)


@contextmanager
def asked_isolation(level):
    """The run's environment: `limits` asks the sandbox for resource limits only, by name; `full` takes back
    a GRAPHKIT_SANDBOX=limits the environment carries; None leaves the environment to decide."""
    saved = os.environ.get(SANDBOX_ENV)
    if level == "limits":
        os.environ[SANDBOX_ENV] = "limits"
    elif level == "full":
        os.environ.pop(SANDBOX_ENV, None)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(SANDBOX_ENV, None)
        else:
            os.environ[SANDBOX_ENV] = saved


def isolation_mode():
    """ "full" or "limits": how learner code runs here; "none" when the sandbox refuses to start."""
    try:
        return isolation.mode()
    except IsolationError:
        return "none"


def outcome(path, verbose=False, shown=None, lesson=None):
    """(results, summary text or None, exit code, message for stderr or None) of grading ``path``.

    shown: {key: Gradescope visibility} of the tests (autograder/grading/visibility.py), none by default;
    lesson: the assignment id of the one lesson to grade the hand-in on, or None for every lesson it holds.
    """
    try:
        graded = by_lesson.grade_path(path, lesson)
        results = by_lesson.results_json(graded)
        results = dict(results, output=with_scale(results["output"], graded))
        results = visibility.apply(results, shown or {}, property_families())
        return results, summary(graded, results, verbose), EXIT_GRADED, None
    except SubmissionError as err:
        message = str(err)
        return report.not_graded(message), None, EXIT_CANNOT_GRADE, message
    except IsolationError as err:
        message = (
            f"the grading sandbox cannot isolate learner code here, so nothing was graded: {err} "
            "(for this command, --isolation limits asks for that weaker mode)"
        )
        return dict(report.not_graded(message), isolation="none"), None, EXIT_CANNOT_RUN, message
    except OSError as err:  # reading the hand-in raises SubmissionError: this is the grader's own machine
        message = (
            f"the grader cannot run on this machine ({err.strerror or type(err).__name__}), so nothing was "
            "graded; tell your instructor"
        )
        return report.not_graded(message), None, EXIT_CANNOT_RUN, f"{message}: {err}"
    except Exception as err:  # noqa: BLE001 - whatever a hand-in provokes, it gets results and a message, not a traceback
        message = (
            f"{path}: the grader failed on this hand-in ({type(err).__name__}), so nothing in it was graded; "
            "hand it in again, and tell your instructor if this happens again"
        )
        return report.not_graded(message), None, EXIT_CANNOT_GRADE, message


def say(text, stream=None):
    """Print ``text``; a reader that went away (`| head`) is no error: FILE, if asked for, is already written."""
    stream = stream or sys.stdout
    try:
        print(text, file=stream, flush=True)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())  # so that the flush at exit does not fail again


def families():
    """The course's check families."""
    return {check.family for check in active.part("checks").all_checks()}


def property_families():
    """The check families whose checks try generated examples (the "property" group of --visibility)."""
    return {check.family for check in active.part("checks").all_checks() if check.strategy is not None}


def percentage(text):
    """--fail-under's value: a percentage from 0 to 100."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number; give a percentage from 0 to 100") from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"{text} is not a percentage from 0 to 100 (of what the hand-in can earn)")
    return value


def lesson_id(text):
    """--lesson's value: the assignment id of one of the course's lessons."""
    known = [lesson.assignment for lesson in LESSONS]
    if text not in known:
        raise argparse.ArgumentTypeError(f"{text!r} is no lesson of the course; give one of {', '.join(known)}")
    return text


def graded_handin(args):
    """(results, summary text or None, exit code, message for stderr or None) of grading args.path as the options
    ask; None when --visibility is refused."""
    try:
        shown = visibility.parse(args.visibility, families())
    except visibility.VisibilityError as err:
        say(f"--visibility: {err}", sys.stderr)
        return None
    results, text, code, problem = outcome(args.path, args.verbose, shown, args.lesson)
    results.setdefault("isolation", isolation_mode())
    results.setdefault("provenance", provenance.of_handin(args.path))  # what made this grade, under extra_data
    return results, text, code, problem


def cmd_grade(args):
    with asked_isolation(args.isolation):
        spare.probe_early(then=sandbox.start_spare)  # the first child starts while the hand-in is read
        try:
            graded = graded_handin(args)
        finally:
            sandbox.close_all()  # no learner process is left when results are written (each sandbox has closed)
    if graded is None:
        return EXIT_CANNOT_RUN
    results, text, code, problem = graded
    shown = report.HandinNames(args.path)
    results = shown.results(results)
    written = report.for_gradescope(results)
    if args.output:
        try:
            write_atomic(args.output, json.dumps(written, indent=2) + "\n")
        except OSError as err:
            say(
                f"cannot write {args.output}: {err.strerror or err}; give --output a file in a folder you can write to",
                sys.stderr,
            )
            return EXIT_CANNOT_RUN
    if args.json:
        say(json.dumps(written, indent=2))
    elif text is not None:
        say(shown.text(text))
    if problem is not None:
        say(f"cannot grade: {shown.text(problem)}", sys.stderr)
        return code
    got = percent(results["score"], results.get("max_score", 0))
    if args.fail_under is not None and got < args.fail_under:
        say(
            f"score {results['score']:g}/{results.get('max_score', 0):g} is {got:.1f}% of what this hand-in can earn, "
            f"below --fail-under {args.fail_under:g}%",
            sys.stderr,
        )
        return EXIT_BELOW
    return EXIT_GRADED


def cmd_reproduce(args):
    code, text = reproduce.run(args.results, args.handin)
    say(text, sys.stdout if code != reproduce.EXIT_CANNOT else sys.stderr)
    return code


def cmd_doctor(args):
    print("\n".join(isolation_report.report()))
    return EXIT_GRADED


def main(argv=None):
    for stream in (sys.stdout, sys.stderr):  # a learner's text never stops the report on a narrow terminal
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    parser = argparse.ArgumentParser(prog="python -m autograder", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    grade = commands.add_parser("grade", help="grade one module, notebook or submission folder")
    grade.add_argument(
        "path",
        help="a .py module, an .ipynb notebook, or a folder holding them; "
        "a lesson notebook is graded on that lesson's grade cells, as `make grade` grades it",
    )
    grade.add_argument(
        "--output",
        metavar="FILE",
        help="write Gradescope's results.json to FILE (in one step), "
        "whatever the outcome: worth 0, saying why, when the hand-in cannot be graded",
    )
    grade.add_argument("--json", action="store_true", help="print Gradescope's results.json to stdout")
    grade.add_argument(
        "--fail-under",
        type=percentage,
        metavar="PERCENT",
        help="exit 1 if the score is below PERCENT percent (0 to 100) of what the hand-in can earn "
        "(its max_score, which the output states)",
    )
    grade.add_argument(
        "--visibility",
        action="append",
        default=[],
        metavar="KEY=LEVEL",
        help="when Gradescope shows a test: KEY is a check family, property (every check that tries "
        "generated examples) or answers (the answer cells); LEVEL is visible, after_due_date, "
        "after_published or hidden; others stay visible. make gradescope passes the course config's "
        "c.GradescopeResults.visibility",
    )
    grade.add_argument("--verbose", action="store_true", help="also list the checks that passed")
    grade.add_argument(
        "--isolation",
        choices=("full", "limits"),
        help="full (the default, unless GRAPHKIT_SANDBOX=limits is set): refuse to grade where the "
        "sandbox cannot isolate learner code; limits: grade with resource limits only, and say so "
        "in the results",
    )
    grade.add_argument(
        "--lesson",
        type=lesson_id,
        metavar="ID",
        help="grade the hand-in on this lesson alone (its assignment id): its notebook, or without "
        "it the functions the lesson grades; each lesson's Gradescope zip passes its own",
    )
    grade.set_defaults(run=cmd_grade)
    again = commands.add_parser(
        "reproduce",
        help="grade the hand-in of a results.json again with this kit and say "
        "whether the grade matches, and which part of its provenance differs",
    )
    again.add_argument(
        "results", help="a results.json: OUT/results/<student>/<assignment>.json, or one grade --output wrote"
    )
    again.add_argument(
        "handin", nargs="?", help="the hand-in it graded (default: the file its provenance names in OUT)"
    )
    again.set_defaults(run=cmd_reproduce)
    doctor = commands.add_parser("doctor", help="report which sandbox protections this machine supports")
    doctor.set_defaults(run=cmd_doctor)
    try:
        args = parser.parse_args(argv)
        return args.run(args)
    except CourseError as err:  # the kit cannot find its course: a setting to fix, never a traceback
        say(f"cannot grade: {err}", sys.stderr)
        return EXIT_CANNOT_RUN
