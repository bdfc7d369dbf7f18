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

A buggy entry whose bug is a few lines states only its edit, as ``PATCH``: a list of
``(old, new)`` pairs applied in order to the reference's definition of ``FUNCTION``
(its source without solution markers). Each ``old`` must occur exactly once in the text
the earlier pairs leave, or the zoo refuses the entry, naming the file and the text; a
pair ``(old, new, n)`` replaces all of exactly ``n`` occurrences (say, every operator
of a class that calls one helper). ``BASE = "buggy_<name>"`` applies the PATCH to that
entry's definition instead (a bug added to another: a shortcut over a slow sweep); the
base is a buggy entry of the same FUNCTION with no BASE of its own.
The patched definition is appended to the file's own text, so it is read, graded and
handed in as if the file had it written out. A structural bug keeps a whole definition.
For example, after its docstring::

    FUNCTION = "backward"
    FAILS = ["fan_out_accumulation"]
    PATCH = [("grads[i] += grads[name] * slope", "grads[i] = grads[name] * slope")]
"""

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

from autograder.course.lessons import module_of
from autograder.course.markers import drop_markers
from autograder.course.paths import EXERCISES, reference_source
from graphcourse.checks import FAMILIES, FUNCTIONS

HERE = Path(__file__).resolve().parent
METADATA = ("FUNCTION", "FAILS", "ALSO", "SCORES_ZERO", "MODULE", "PATCH", "BASE")


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
    patch: tuple = ()  # ((old, new[, n]), ...): the edit of the reference's FUNCTION, when the file states only that
    base: str = ""  # the buggy entry whose FUNCTION the patch edits instead of the reference's

    def allowed(self):
        """The families this entry may lose points in."""
        return set(self.fails) | set(self.also or {}) | {"finite_difference_agreement"}


def _entry(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    meta = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id in METADATA:
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
        patch=tuple(tuple(pair) for pair in meta.get("PATCH", ())),
        base=meta.get("BASE", ""),
    )
    problems = [f for f in list(entry.fails) + list(entry.also) if f not in FAMILIES]
    problems += [
        f"ALSO[{f!r}] gives no reason" for f, why in entry.also.items() if not (isinstance(why, str) and why.strip())
    ]
    if not entry.description:
        problems.append("no docstring")
    if kind == "buggy" and (entry.function not in FUNCTIONS or not entry.fails):
        problems.append("a buggy entry needs FUNCTION and at least one family in FAILS")
    if kind == "correct" and (entry.function is not None or entry.fails):
        problems.append("a correct entry has FUNCTION = None and FAILS = []")
    if "PATCH" in meta and (kind != "buggy" or not _pairs(meta["PATCH"])):
        problems.append(
            "PATCH is a non-empty list of (old, new) strings, or (old, new, n) with n >= 1, in a buggy entry"
        )
    if "BASE" in meta and ("PATCH" not in meta or not isinstance(entry.base, str) or entry.base == entry.name):
        problems.append("BASE names another buggy entry, and goes with the PATCH that edits its definition")
    if "PATCH" in meta and any(getattr(node, "name", None) == entry.function for node in tree.body):
        problems.append(f"a PATCH entry does not define {entry.function} itself: drop PATCH or the definition")
    if problems:
        raise ValueError(f"{path.name}: {problems}")
    return entry


def _pairs(patch):
    return isinstance(patch, list) and patch and all(isinstance(pair, tuple) and _pair(*pair) for pair in patch)


def _pair(old=None, new=None, n=1, *more):
    """(old, new) strings, old not empty, and an optional count n, a whole number >= 1."""
    return isinstance(old, str) and old and isinstance(new, str) and type(n) is int and n >= 1 and not more


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


def definition(text, name):
    """The source of the last top-level function or class ``name`` in ``text``, None if there is none."""
    found = [n for n in ast.parse(text).body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name == name]
    return ast.get_source_segment(text, found[-1]) if found else None


def base_definition(entry, reference=None):
    """(where, text): the definition an entry's PATCH edits, the reference's or its BASE entry's."""
    if not entry.base:
        where = f"the reference's {entry.function} ({entry.module}.py)"
        return where, definition(reference if reference is not None else reference_source(entry.module), entry.function)
    base = next((e for e in _all_entries() if e.name == entry.base), None)
    if base is None or base.kind != "buggy" or base.base or base.function != entry.function:
        raise ValueError(
            f"{entry.path.name}: BASE {entry.base!r} is not a buggy entry of {entry.function} without a BASE; "
            "name one, or drop BASE to patch the reference"
        )
    return f"{base.path.name}'s {entry.function}", definition(text(base, reference), entry.function)


def patched(entry, reference=None):
    """The base definition of the entry's function (base_definition) with the entry's PATCH applied, pair by pair."""
    where, original = base_definition(entry, reference)
    if original is None:
        raise ValueError(
            f"{entry.path.name}: {where} is not defined, so there is nothing to patch; write the whole definition"
        )
    text = drop_markers(original)
    for n, (old, new, *times) in enumerate(entry.patch):
        count, want = text.count(old), times[0] if times else 1
        if count != want:
            raise ValueError(
                f"{entry.path.name}: PATCH[{n}]'s old text {old!r} occurs {count} times in {where}, "
                f"not {'once' if want == 1 else f'{want} times'}; quote the current text "
                "(longer, if it is ambiguous)"
            )
        text = text.replace(old, new)
    return text


def text(entry, reference=None):
    """The entry's own module text: its file, and for a patch its patched definition after it."""
    own = entry.path.read_text(encoding="utf-8")
    return own + "\n\n" + patched(entry, reference) + "\n" if entry.patch else own


def defined_functions(entry):
    """The learner functions (evaluate, inputs_of, ...) the entry defines at its top level."""
    tree = ast.parse(text(entry))
    return {
        node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in FUNCTIONS
    }


def source(entry, reference=None, stub=None):
    """The complete module text for an entry: its base (its module's reference, or stub), then the file."""
    if entry.kind == "buggy":
        base = reference if reference is not None else reference_source(entry.module)
    else:
        base = stub if stub is not None else (EXERCISES / f"{entry.module}.py").read_text(encoding="utf-8")
    return base + "\n\n" + text(entry, base if entry.kind == "buggy" else None)


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
