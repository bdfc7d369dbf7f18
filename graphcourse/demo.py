"""The demo cohort: a dozen learners made from the misconception zoo, as nbgrader's submitted/ folder.

    python -m graphcourse.demo DEST RELEASE   # write DEST/<student_id>/<assignment_id>/<notebook>.ipynb

Each learner starts from the release notebooks, fills every solution cell with the
lesson's answer and the reference code, then swaps in the functions of their zoo
entries and their own (wrong) answers, so a demo notebook grades exactly like the
zoo module it is made from. Some learners also hand in late, not at all, an
unfinished release notebook, a file cut off mid-save, or a notebook whose nbgrader
metadata they edited. Most learners hand in only the first two lessons (``through``): the
later ones are handed in by a few learners, the reference, the correct styles, the
unfinished notebooks and one misconception per lesson, so a new lesson adds little to
the batch. Every file is written deterministically, and only when its
content changes, so building twice changes nothing.
"""

import argparse
import ast
import copy
import datetime
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from autograder.course.lessons import LESSONS, read_lesson
from autograder.course.markers import drop_markers
from autograder.course.paths import NOTEBOOKS
from graphcourse import zoo
from graphcourse.checks import FUNCTIONS

ON_TIME = datetime.timedelta(hours=30)  # handed in this long before the due date, give or take
LATE = datetime.timedelta(hours=3)  # a late learner's delay after the due date


@dataclass(frozen=True)
class Learner:
    student_id: str
    story: str  # what this learner shows about the grader
    code: tuple = ()  # zoo entries whose functions replace the reference's, later ones last
    answers: dict = field(default_factory=dict)  # answer variables set to something else than the lesson's answer
    stub: bool = False  # hands in the release notebooks untouched
    broken: tuple = ()  # assignments whose notebook is cut off mid-save (invalid JSON)
    missing: tuple = ()  # assignments never handed in
    late: tuple = ()  # assignments handed in after the due date
    tampered: bool = False  # copies a test cell and edits nbgrader metadata
    through: int = 2  # how many of the course's lessons (LESSONS, in order) they hand in; the rest are missing

    def handed_in(self, lessons=LESSONS):
        """The assignments of ``lessons`` this learner hands in (a broken or late one included)."""
        return tuple(
            lesson.assignment for lesson in tuple(lessons)[: self.through] if lesson.assignment not in self.missing
        )


EVERY = len(LESSONS)  # through=EVERY: every lesson of the course, those that go live later too


COHORT = (
    Learner("ada", "everything right, in the reference's style, in every lesson", through=EVERY),
    Learner(
        "grace",
        "everything right in other styles, in every lesson: Kahn's algorithm, a tape with __slots__, "
        "nodes listed level by level, tables of what each op reads, gradients pulled from the readers",
        code=(
            "correct_kahn",
            "correct_tape_slots",
            "correct_order_levels",
            "correct_memory_tables",
            "correct_symbolic_pull",
        ),
        through=EVERY,
    ),
    Learner(
        "alan",
        "evaluate lets KeyError escape; ORDER lists q before p",
        code=("buggy_evaluate_keyerror",),
        answers={"ORDER": ["q", "p", "L"]},
    ),
    Learner(
        "barbara",
        "users_of lists a double reader twice; names p as the fan-out; lesson 2 exactly as edsger's",
        code=("buggy_users_of_duplicates", "buggy_assign_fan_out"),
        answers={"FAN_OUT_NODE": "p", "ASSIGN_X": 128},
    ),
    Learner(
        "edsger",
        "assigns instead of adding at a fan-out, and says the sweep would still give 128; "
        "hands in every lesson: a Var without the reflected operators (2 * x raises TypeError), the rest right",
        code=("buggy_assign_fan_out", "buggy_var_no_reflected"),
        answers={"ASSIGN_X": 128},
        through=EVERY,
    ),
    Learner(
        "donald",
        "sweeps in the listed order instead of in reverse; hands in every lesson: "
        "orders the nodes by their names, as if names said the order, the rest right",
        code=("buggy_forward_sweep", "buggy_order_sorted_by_name"),
        through=EVERY,
    ),
    Learner(
        "frances",
        "inputs_of hands out the graph's own list; tanh slope taken from the wrong value; counts 6 edges",
        code=("buggy_inputs_of_same_list", "buggy_tanh_of_output"),
        answers={"EDGE_COUNT": 6},
    ),
    Learner(
        "john",
        "recursive evaluate and backward: both overflow on a deep graph",
        code=("buggy_evaluate_recursive", "buggy_recursive_dfs"),
    ),
    Learner("margaret", "handed in the release notebooks of every lesson unfinished", stub=True, through=EVERY),
    Learner("dennis", "lesson 1 notebook cut off mid-save (not valid JSON)", broken=("lesson1_graphs",)),
    Learner(
        "ken",
        "pull-style code; lesson 1 late, lesson 2 never handed in",
        code=("correct_pull",),
        late=("lesson1_graphs",),
        missing=("lesson2_backward",),
    ),
    Learner("linus", "right code, but copied a test cell and edited points and flags in the metadata", tampered=True),
)


# ---------------------------------------------------------------- zoo code into cells


def _bound(node):
    """The names a top-level statement binds."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    return {t.id for t in targets if isinstance(t, ast.Name)}


def _used(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _lesson_statements(entry):
    """(the entry's text, its top-level statements but its metadata)."""
    text = zoo.text(entry)
    return text, [n for n in ast.parse(text).body if _bound(n) and not _bound(n) & {"FUNCTION", "FAILS", "MODULE"}]


def defined(entry):
    """The lesson functions and classes a zoo entry defines, in file order."""
    return tuple(
        n.name
        for n in _lesson_statements(entry)[1]
        if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in FUNCTIONS
    )


def definitions(entry, names):
    """The source of the lesson functions or classes ``names`` as a zoo entry defines them, with the
    module-level helpers (imports, tables, helper functions) they need, so the cell runs on its own."""
    text, statements = _lesson_statements(entry)
    needed = [n for n in statements if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in names]
    wanted, grew = set().union(*(_used(n) for n in needed)), True
    while grew:
        grew = False
        for other in statements:
            if other not in needed and _bound(other) & wanted and not _bound(other) & set(FUNCTIONS):
                needed.append(other)
                wanted |= _used(other)
                grew = True
    ordered = [n for n in statements if n in needed]  # file order: helpers before what uses them
    return "\n\n\n".join(ast.get_source_segment(text, n, padded=True) for n in ordered)


def function_cells(entry):
    """{function: cell source} for each lesson function a zoo entry defines, helpers included."""
    return {name: definitions(entry, {name}) for name in defined(entry)}


# ---------------------------------------------------------------- notebooks


def _source(cell):
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _grade_id(cell):
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def _answered(source, answers):
    """The lesson's answer cell with solution markers dropped and the learner's own answers in."""
    lines = []
    for line in drop_markers(source).splitlines():
        name = line.split("=", 1)[0].strip()
        if "=" in line and name in answers:
            line = f"{name} = {answers[name]!r}"
        lines.append(line)
    return "\n".join(lines)


def _cell_text(names, owner, reference):
    """A solution cell defining ``names``: the learner's zoo definitions of them, after the reference's
    cell when the zoo replaces only some of its functions (the later definition wins, as in the zoo)."""
    replaced = [name for name in names if name in owner]
    if not replaced:
        return reference
    by_entry = {}  # zoo entry name: the names it replaces here
    for name in replaced:
        by_entry.setdefault(owner[name].name, set()).add(name)
    parts = [definitions(zoo.entry(entry), wanted) for entry, wanted in by_entry.items()]
    if any(name in FUNCTIONS and name not in owner for name in names):
        parts.insert(0, reference)
    return "\n\n\n".join(parts)


def filled(release, source, learner):
    """The release notebook with every solution cell answered the way ``learner`` answers it."""
    nb = copy.deepcopy(release)
    answers_of = {_grade_id(c): _source(c) for c in source["cells"] if _grade_id(c)}
    owner = {}  # lesson function: the zoo entry whose definition the learner hands in (later entries win)
    for name in learner.code:
        entry = zoo.entry(name)
        owner.update(dict.fromkeys(defined(entry), entry))
    defines = {
        c.grade_id: c.settings["names"] for lesson in LESSONS for c in read_lesson(lesson)[0] if c.kind == "reference"
    }
    for cell in nb["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if not meta.get("solution"):
            continue
        grade_id = meta["grade_id"]
        reference = _answered(answers_of[grade_id], learner.answers)
        cell["source"] = _cell_text(defines.get(grade_id, ()), owner, reference).splitlines(keepends=True)
    return nb


def tamper(nb):
    """What a learner might do to the metadata: copy a test cell, raise points, flip flags."""
    tests = [c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade")]
    copied = copy.deepcopy(tests[-1])
    copied["id"] = copied["id"] + "-copy"
    nb["cells"].append(copied)
    tests[0]["metadata"]["nbgrader"]["points"] = 999
    tests[0]["metadata"]["nbgrader"]["schema_version"] = 99
    answer = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("solution"))
    answer["metadata"]["nbgrader"].update(grade=True, points=500, solution=False, locked=True)
    return nb


def dumps(nb):
    """The layout nbformat writes: one-space indent, sorted keys, a final newline."""
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _timestamp(due, learner, index, assignment):
    when = due + LATE if assignment in learner.late else due - ON_TIME + datetime.timedelta(minutes=17 * index)
    return when.strftime("%Y-%m-%d %H:%M:%S.%f UTC")


def build(dest, release, due_dates, notebooks=NOTEBOOKS, cohort=COHORT):
    """Write the cohort into ``dest`` (nbgrader's submitted/ layout); return the learners.

    release: the course's release/ folder (made by ``nbgrader generate_assignment``).
    due_dates: {assignment: datetime in UTC}; timestamps are placed around them.
    """
    dest = Path(dest)
    for index, learner in enumerate(cohort):
        handed_in = learner.handed_in()
        for lesson in LESSONS:
            folder = dest / learner.student_id / lesson.assignment
            if lesson.assignment not in handed_in:
                continue
            release_text = (Path(release) / lesson.assignment / lesson.notebook).read_text(encoding="utf-8")
            if learner.stub:
                text = release_text
            else:
                source = json.loads(lesson.notebook_path(Path(notebooks)).read_text(encoding="utf-8"))
                nb = filled(json.loads(release_text), source, learner)
                text = dumps(tamper(nb) if learner.tampered else nb)
            if lesson.assignment in learner.broken:
                text = text[: len(text) // 2]  # the save was cut off half-way
            _write(folder / lesson.notebook, text)
            due = due_dates.get(lesson.assignment)
            if due is not None:
                _write(folder / "timestamp.txt", _timestamp(due, learner, index, lesson.assignment) + "\n")
    return list(cohort)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", help="folder to write the cohort into (nbgrader's submitted/ layout)")
    parser.add_argument("release", help="the course's release/ folder, from nbgrader generate_assignment")
    args = parser.parse_args(argv)
    for learner in build(args.dest, args.release, {}):
        print(f"{learner.student_id:10} {learner.story}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
