"""The misconception zoo: one implementation variant per file.

``buggy_<name>.py`` holds one misconception. It redefines only the function it
changes and is appended after the reference source, so the later ``def`` wins.
``correct_<style>.py`` is a complete correct implementation in its own style,
appended after the stub source (where every body raises NotImplementedError).

Each file starts with a one-line docstring, then ``FUNCTION`` (the function the
misconception lives in, None for correct files; a correct file of a later lesson names its
lesson module in ``MODULE``, graph by default) and ``FAILS`` (the hidden-check
families that must fail for it). A misconception may cost points only in those
families and in finite_difference_agreement, which catches every wrong gradient;
where another family is truly entangled with it, ``ALSO`` maps that family to the
reason. ``SCORES_ZERO = True`` marks an answer that ignores its input ([], {}, zeros,
the input handed back): it must earn nothing at all on its function. Metadata is read
with ``ast``; the files are never imported on their own.
"""

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

from autograder.course.lessons import module_of
from autograder.course.paths import EXERCISES, reference_source
from graphcourse.checks import FAMILIES, FUNCTIONS

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Entry:
    name: str  # file stem, e.g. "buggy_assign_fan_out"
    kind: str  # "buggy" or "correct"
    description: str  # first line of the module docstring
    function: str | None
    fails: tuple
    path: Path
    also: dict = None  # {family: why this misconception cannot help failing it too}
    scores_zero: bool = False  # an answer that ignores the input: it must earn nothing on its function
    module: str = "graph"  # the lesson module it is a version of: its base is that module's reference or stub

    def allowed(self):
        """The families this entry may lose points in."""
        return set(self.fails) | set(self.also or {}) | {"finite_difference_agreement"}


def _entry(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    meta = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id in ("FUNCTION", "FAILS", "ALSO", "SCORES_ZERO", "MODULE"):
                meta[target.id] = ast.literal_eval(node.value)
    kind = path.stem.split("_", 1)[0]
    doc = (ast.get_docstring(tree) or "").strip()
    entry = Entry(
        name=path.stem,
        kind=kind,
        description=doc.splitlines()[0] if doc else "",
        function=meta.get("FUNCTION"),
        fails=tuple(meta.get("FAILS", ())),
        path=path,
        also=dict(meta.get("ALSO", {})),
        scores_zero=bool(meta.get("SCORES_ZERO", False)),
        module=(module_of(meta["FUNCTION"]) if meta.get("FUNCTION") else "") or meta.get("MODULE", "graph"),
    )
    problems = [f for f in list(entry.fails) + list(entry.also) if f not in FAMILIES]
    problems += [f"ALSO[{f!r}] gives no reason" for f, why in entry.also.items() if not (isinstance(why, str) and why.strip())]
    if not entry.description:
        problems.append("no docstring")
    if kind == "buggy" and (entry.function not in FUNCTIONS or not entry.fails):
        problems.append("a buggy entry needs FUNCTION and at least one family in FAILS")
    if kind == "correct" and (entry.function is not None or entry.fails):
        problems.append("a correct entry has FUNCTION = None and FAILS = []")
    if problems:
        raise ValueError(f"{path.name}: {problems}")
    return entry


@functools.lru_cache(maxsize=1)
def _all_entries():
    paths = sorted(HERE.glob("buggy_*.py")) + sorted(HERE.glob("correct_*.py"))
    return tuple(_entry(path) for path in paths)


def entries():
    """Every zoo entry, buggy ones first, each kind sorted by name."""
    return list(_all_entries())


def entry(name):
    """The zoo entry called ``name``."""
    return next(e for e in _all_entries() if e.name == name)


def defined_functions(entry):
    """The learner functions (evaluate, inputs_of, ...) the entry's file defines at its top level."""
    tree = ast.parse(entry.path.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in FUNCTIONS}


def source(entry, reference=None, stub=None):
    """The complete module text for an entry: its base (its module's reference, or stub), then the file."""
    if entry.kind == "buggy":
        base = reference if reference is not None else reference_source(entry.module)
    else:
        base = stub if stub is not None else (EXERCISES / f"{entry.module}.py").read_text(encoding="utf-8")
    return base + "\n\n" + entry.path.read_text(encoding="utf-8")


@functools.lru_cache(maxsize=None)
def namespace(name):
    """The module namespace of a buggy entry, run in this process: the zoo is our own code, not a learner's.

    Built once per process; callers must not change it.
    """
    found = entry(name)
    if found.kind != "buggy":
        raise ValueError(f"{name}: only buggy entries run in the grading process")
    module = {"__name__": f"zoo_{found.name}"}
    exec(compile(source(found), str(found.path), "exec"), module)
    return module
