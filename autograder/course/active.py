"""The course the kit grades, found by name: the machinery imports no course, it asks this module.

A course is a Python package (the graph course is ``graphcourse``). pyproject.toml names it:

    [tool.graphkit]
    course = "graphcourse"

and the environment variable GRAPHKIT_COURSE, when set, names another (a course of one's own, or the
fixture course of the kit's tests): a package importable by name, or the path of a package's folder
anywhere on disk (GRAPHKIT_COURSE=~/courses/intervals), whose parent folder is then put on sys.path.
The package holds its parts as submodules, each found by name
when the machinery first needs it:

    checks     all_checks(), points_of(function): the hidden checks, one file per family
    judges     JUDGES {name: judge(check, case, reply) -> Failure or None}, work_out(judge, case)
    answers    JUDGES {name: answers.Judge}: the judges of the course's answer questions
    diagnose   misconception(check, failure): the zoo entry a failure looks like; optionally
               tells_apart(check, failure): whether its input names one misconception at most (shrinking prefers it)
    picture    of_failure(failure, check_id) -> SVG text or "": a drawing for a failed check's feedback, and
               ALT, the words that stand for it where it cannot be seen
    zoo        the misconceptions and correct styles that prove the checks
    demo       the demo cohort, built from the zoo
    bench      the course's own figures for make bench: SMALL_CALL (function, args), figures(progress) -> line
    mutants    optional: TABLES, EQUIVALENT and GAPS of make mutants
    dates      optional: due(assignments) -> {assignment: due date}, for lessons whose own settings give none
    widgets    optional: saved_answers(nb, label) -> ({NAME: value}, [notes]) and chunks(nb, label) ->
               ([(label, code)], [notes]): what the notebooks' widgets saved besides their cells

and, in the package itself:

    ROOT         the folder that holds the course's solutions/ (the references), exercises/ (the stubs
                 and public tests) and notebooks/ (the nbgrader course: lessons/, source/, nbgrader_config.py)
    CHILD_PARTS  the standard-library-only files the sandbox child runs before its own code
                 (autograder/sandbox/child.py: the course's codecs, drivers and builders)
"""

import functools
import importlib
import os
import sys
import tomllib
from pathlib import Path

KIT_ROOT = Path(__file__).resolve().parents[2]  # the kit's checkout: pyproject.toml, autograder/
ENV = "GRAPHKIT_COURSE"
PARTS = ("checks", "judges", "answers", "diagnose", "picture", "zoo", "demo", "bench", "widgets", "mutants", "dates")


class CourseError(ImportError):
    """The course cannot be found, or lacks a part; the message names the package and the fix."""


def _is_path(value):
    """Does GRAPHKIT_COURSE give a folder (a path) rather than a package's dotted name?"""
    return os.sep in value or "/" in value or value.startswith((".", "~"))


def _from_folder(value):
    """The package name of the course folder ``value``, its parent put first on sys.path."""
    folder = Path(value).expanduser().resolve()
    if not (folder / "__init__.py").is_file():
        raise CourseError(
            f"{ENV}={value}: {folder} is not a course package (no __init__.py there); "
            "point it at the folder holding the course's __init__.py"
        )
    if not folder.name.isidentifier():
        raise CourseError(
            f"{ENV}={value}: a course folder's name must be a Python name ({folder.name!r} is not); rename the folder"
        )
    if str(folder.parent) not in sys.path:
        sys.path.insert(0, str(folder.parent))
    return folder.name


@functools.cache
def name():
    """The course package's name: GRAPHKIT_COURSE (a name, or a folder found by its path), else pyproject.toml's
    [tool.graphkit] course."""
    value = os.environ.get(ENV)
    if value:
        return _from_folder(value) if _is_path(value) else value
    try:
        with open(KIT_ROOT / "pyproject.toml", "rb") as handle:
            return tomllib.load(handle)["tool"]["graphkit"]["course"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        raise CourseError(
            f'{KIT_ROOT / "pyproject.toml"}: no [tool.graphkit] course = "<package>"; add it, or set {ENV}'
        ) from None


@functools.cache
def course():
    """The course package."""
    try:
        return importlib.import_module(name())
    except ModuleNotFoundError as err:
        raise CourseError(
            f"the course package {name()!r} cannot be imported ({err}); check [tool.graphkit] "
            f"course in pyproject.toml or {ENV}"
        ) from None


@functools.cache
def part(which):
    """One part of the course (a submodule named in PARTS)."""
    if which not in PARTS:
        raise ValueError(f"{which!r} is not a part of a course; the parts are {', '.join(PARTS)}")
    course()  # a course that cannot be imported is a CourseError, whichever part is asked for first
    try:
        return importlib.import_module(f"{name()}.{which}")
    except ModuleNotFoundError as err:
        if err.name != f"{name()}.{which}":
            raise
        raise CourseError(f"the course {name()!r} has no {which} part: add {name()}/{which}.py") from None


@functools.cache
def optional_part(which):
    """One part of the course, or None when the course has none (a part it may leave out)."""
    try:
        return part(which)
    except CourseError:
        return None


def root():
    """The course's folder (its ROOT): solutions/, exercises/ and notebooks/ are in it."""
    found = getattr(course(), "ROOT", None)
    if found is None:
        raise CourseError(
            f"the course {name()!r} gives no ROOT; set ROOT = the folder holding its solutions/, "
            "exercises/ and notebooks/ in its __init__.py"
        )
    return Path(found)


def child_parts():
    """The course's files the sandbox child runs before its own code."""
    return tuple(getattr(course(), "CHILD_PARTS", ()))
