"""The kit's architecture, held by its imports: layers that import one way, and who may import what.

The layers are autograder.LAYERS; the import graph is built by grimp (import-linter's engine).
"""

import ast
import re
import sys
from pathlib import Path

import grimp
import pytest

from autograder import GRADING_LAYER, LAYERS, layers_from
from autograder.course import active, paths
from autograder.grading import provenance
from tests.conftest import ROOT


def layers():
    return [grimp.Layer(*(name.strip() for name in entry.split("|")), independent=True) for entry in LAYERS]


COURSE = active.name()  # the course package the kit grades (graphcourse)


def build():
    return grimp.build_graph(
        "autograder", "exercises", "solutions", COURSE, include_external_packages=True, cache_dir=None
    )


@pytest.fixture(scope="module")
def graph():
    return build()


def violations(graph):
    """'importer -> imported' for every import that runs up the layers or across independent siblings."""
    found = graph.find_illegal_dependencies_for_layers(layers=layers())
    return sorted(
        f"{head} -> {tail}"
        for dependency in found
        for route in dependency.routes
        for head in route.heads
        for tail in route.tails
    )


def test_layers_import_one_way(graph):
    """No module imports from a layer above its own, nor from an independent sibling package."""
    assert violations(graph) == []


def test_a_reversed_import_would_fail():
    """The check is real: an import from the course up into grading, or across pipeline and authoring, is caught."""
    reversed_graph = build()
    reversed_graph.add_import(importer="autograder.course.lessons", imported="autograder.grading.runner")
    reversed_graph.add_import(importer="autograder.authoring.release", imported="autograder.pipeline.batch")
    found = violations(reversed_graph)
    assert "autograder.course.lessons -> autograder.grading.runner" in found
    assert "autograder.authoring.release -> autograder.pipeline.batch" in found


def test_every_module_sits_in_a_layer(graph):
    """A new module must be put in a layer: only the package itself and its entry point stand outside."""
    packages = [name.strip() for entry in LAYERS for name in entry.split("|")]
    outside = sorted(
        module
        for module in graph.find_descendants("autograder")
        if not any(module == p or module.startswith(p + ".") for p in packages)
    )
    assert outside == ["autograder.__main__"]


def machinery_imports_of_the_course(graph):
    """'importer -> imported' for every import from the machinery (autograder) into the course package."""
    course = graph.find_descendants(COURSE) | {COURSE}
    return sorted(
        f"{module} -> {imported}"
        for module in graph.find_descendants("autograder") | {"autograder"}
        for imported in graph.find_modules_directly_imported_by(module) & course
    )


def test_the_machinery_imports_no_course(graph):
    """autograder/ finds its course by name (autograder/course/active.py) and never imports it: any course can be
    graded."""
    assert machinery_imports_of_the_course(graph) == []


def test_a_machinery_import_of_the_course_would_fail():
    """The check is real: the runner importing the course's checks directly is caught."""
    changed = build()
    changed.add_import(importer="autograder.grading.runner", imported=f"{COURSE}.checks")
    assert machinery_imports_of_the_course(changed) == [f"autograder.grading.runner -> {COURSE}.checks"]


# The learner's package and the references, as the course's folders name them, and the course package itself.
LEARNER_SIDE = (paths.EXERCISES_FOLDER, paths.REFERENCES_FOLDER)


def machinery_imports_of_any_course(graph):
    """'importer -> imported' for every import from autograder into exercises/, solutions/ or the course package."""
    course = set()
    for package in (*LEARNER_SIDE, COURSE):
        course |= graph.find_descendants(package) | {package}
    return sorted(
        f"{module} -> {imported}"
        for module in graph.find_descendants("autograder") | {"autograder"}
        for imported in graph.find_modules_directly_imported_by(module) & course
    )


def test_the_machinery_imports_no_learner_package_no_reference_and_no_course(graph):
    """Not exercises/ (a course's reader comes through its parts), not the references, not the course package."""
    assert machinery_imports_of_any_course(graph) == []


def test_an_import_of_exercises_or_solutions_would_fail():
    """The check is real: the grader importing the learner's notebook reader, or a reference, is caught."""
    changed = build()
    changed.add_import(importer="autograder.grading.submission", imported=f"{paths.EXERCISES_FOLDER}.loader")
    changed.add_import(importer="autograder.tools.prepare", imported=paths.REFERENCES_FOLDER)
    assert machinery_imports_of_any_course(changed) == [
        f"autograder.grading.submission -> {paths.EXERCISES_FOLDER}.loader",
        f"autograder.tools.prepare -> {paths.REFERENCES_FOLDER}",
    ]


# Where a course's folder names may be spelled: the one module that defines them.
NAMES_SPELLED = Path("autograder/course/paths.py")


def _docstrings(tree):
    """The docstring nodes of a module's tree: prose, not a name the code uses."""
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    bodies = [tree] + [node for node in ast.walk(tree) if isinstance(node, kinds)]
    return {
        id(body.body[0].value)
        for body in bodies
        if body.body and isinstance(body.body[0], ast.Expr) and isinstance(body.body[0].value, ast.Constant)
    }


def names_of_a_course(source, filename):
    """'file:line: text' for each string of the code (not a docstring) that names exercises, solutions or the course
    package, as a package ("exercises", "solutions.graph") or a folder ("solutions/graph.py")."""
    tree = ast.parse(source, filename)
    docstrings, found = _docstrings(tree), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            text = node.value
            if any(text == name or text.startswith((f"{name}.", f"{name}/")) for name in (*LEARNER_SIDE, COURSE)):
                found.append((node.lineno, f"{filename}:{node.lineno}: {text!r}"))
    return [said for _line, said in sorted(found)]


def test_the_machinery_names_no_course_package_by_string():
    """No import by name (importlib.import_module("exercises"), find_spec("solutions")), no folder name spelled
    again: only course/paths.py spells the folders, and the course package's name comes from active.py."""
    found = []
    for path in sorted((ROOT / "autograder").rglob("*.py")):
        if path.relative_to(ROOT) != NAMES_SPELLED:
            found += names_of_a_course(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())
    assert found == []


def test_an_import_by_name_would_fail():
    """The scan is real: an import by name, or a folder spelled in a path, is caught; a docstring is not."""
    source = (
        f'"""Reads {paths.EXERCISES_FOLDER}/ and {COURSE}."""\n'
        f'import importlib\nimportlib.import_module("{paths.EXERCISES_FOLDER}")\n'
        f'READER = "{paths.REFERENCES_FOLDER}/graph.py"\nPART = "{COURSE}.checks"\n'
    )
    assert names_of_a_course(source, "x.py") == [
        f"x.py:3: {paths.EXERCISES_FOLDER!r}",
        f"x.py:4: '{paths.REFERENCES_FOLDER}/graph.py'",
        f"x.py:5: '{COURSE}.checks'",
    ]


def course_function_names():
    """The names the course's references define at the top level: its functions and classes, read from the course."""
    names = set()
    for path in paths.reference_modules().values():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names |= {
            node.name
            for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_")
        }
    return names


def words_naming(names, text, filename):
    """'file:line: name' for each whole word of ``text`` (code, comments and docstrings alike) in ``names``."""
    word = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(names))) + r")\b")
    return [
        f"{filename}:{number}: {found}"
        for number, line in enumerate(text.splitlines(), start=1)
        for found in word.findall(line)
    ]


def test_the_machinery_names_no_function_of_the_course():
    """Not in code, comments or docstrings: the course writes its own words (its parts), the machinery names none."""
    names = course_function_names()
    assert len(names) >= 2, "the course's references define no function to look for"
    found = []
    for path in sorted((ROOT / "autograder").rglob("*.py")):
        found += words_naming(names, path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())
    assert found == []


def test_a_function_of_the_course_named_would_fail():
    """The scan is real: a comment naming one of the course's functions is caught, a longer word holding it is not."""
    name = sorted(course_function_names())[0]
    text = f"x = 1\n# calls {name}(graph)\n{name}_count = 2\n"
    assert words_naming(course_function_names(), text, "x.py") == [f"x.py:2: {name}"]


def test_the_machinery_names_no_reference_module(graph):
    """Nor does it import a reference: the course says which module defines which function."""
    references = graph.find_descendants("solutions") | {"solutions"}
    importers = sorted(
        m for m in graph.find_descendants("autograder") if graph.find_modules_directly_imported_by(m) & references
    )
    assert importers == []


def test_only_the_nbgrader_package_imports_nbgrader(graph):
    importers = graph.find_modules_that_directly_import("nbgrader")
    assert importers and all(m.startswith("autograder.nbgrader.") for m in importers), sorted(importers)


# The two exceptions: the lessons' drawing helper draws with networkx and matplotlib, and their
# clickable graph is an anywidget (with traitlets, and IPython's namespace for the answers it sets).
# All are in the learner bundle's requirements; grading never imports either helper (the sandbox
# has none of these libraries), and no other module of exercises/ may lean on them.
DRAWING = {
    "exercises.draw": {"networkx", "matplotlib"},
    "exercises.graph_widget": {"anywidget", "traitlets", "IPython"},
}


def test_the_learner_side_stands_alone(graph):
    """exercises/ (shipped to learners) imports no kit code and nothing beyond the standard library, pytest and
    Hypothesis."""
    allowed = set(sys.stdlib_module_names) | {"pytest", "hypothesis", "exercises"}
    for module in graph.find_descendants("exercises") | {"exercises"}:
        for imported in graph.find_modules_directly_imported_by(module):
            assert imported.split(".")[0] in allowed | DRAWING.get(module, set()), f"{module} imports {imported}"


def test_grading_does_not_import_the_drawing_helper(graph):
    """The sandbox and the grader have no networkx, matplotlib or anywidget: nothing in the kit imports
    exercises.draw or exercises.graph_widget (the widget draws its static picture with draw)."""
    assert graph.find_modules_that_directly_import("exercises.draw") <= {"exercises.graph_widget"}
    importers = graph.find_modules_that_directly_import("exercises.graph_widget")
    assert importers == set(), sorted(importers)


def test_grading_does_not_import_learner_tests(graph):
    tests = graph.find_descendants("exercises.tests") | {"exercises.tests"}
    for module in graph.find_descendants("autograder"):
        assert not graph.find_modules_directly_imported_by(module) & tests, module


def test_the_grade_cache_key_covers_everything_grading_runs(graph):
    """Every module the grading layer imports, however indirectly, is hashed into the grade cache key."""
    hashed = {path.resolve() for path in provenance.fingerprinted_files()}
    upstream = set()
    for package in (*layers_from(GRADING_LAYER), COURSE):  # grading reaches the course by name, not by import
        upstream |= graph.find_upstream_modules(package, as_package=True) | {package} | graph.find_descendants(package)
    for module in upstream:
        root = module.split(".")[0]
        if root not in ("autograder", "exercises", "solutions", COURSE) or module == "autograder":
            continue
        path = ROOT / module.replace(".", "/")
        path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        assert path.resolve() in hashed, f"{module} decides grades but is not in the cache key"
    lessons = {p.resolve() for p in (ROOT / "notebooks" / "lessons").glob("*.py")}
    assert lessons and lessons <= hashed, "the table of grade cells decides points and judges"
