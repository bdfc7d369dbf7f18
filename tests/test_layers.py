"""The kit's architecture, held by its imports: layers that import one way, and who may import what.

The layers are autograder.LAYERS; the import graph is built by grimp (import-linter's engine).
"""

import sys

import grimp
import pytest

from autograder import GRADING_LAYER, LAYERS, layers_from
from autograder.course import active
from autograder.grading import cellgrades
from tests.conftest import ROOT


def layers():
    return [grimp.Layer(*(name.strip() for name in entry.split("|")), independent=True) for entry in LAYERS]


COURSE = active.name()  # the course package the kit grades (graphcourse)


def build():
    return grimp.build_graph("autograder", "exercises", "solutions", COURSE, include_external_packages=True,
                             cache_dir=None)


@pytest.fixture(scope="module")
def graph():
    return build()


def violations(graph):
    """'importer -> imported' for every import that runs up the layers or across independent siblings."""
    found = graph.find_illegal_dependencies_for_layers(layers=layers())
    return sorted(f"{head} -> {tail}" for dependency in found for route in dependency.routes
                  for head in route.heads for tail in route.tails)


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
        module for module in graph.find_descendants("autograder")
        if not any(module == p or module.startswith(p + ".") for p in packages)
    )
    assert outside == ["autograder.__main__"]


def machinery_imports_of_the_course(graph):
    """'importer -> imported' for every import from the machinery (autograder) into the course package."""
    course = graph.find_descendants(COURSE) | {COURSE}
    return sorted(f"{module} -> {imported}" for module in graph.find_descendants("autograder") | {"autograder"}
                  for imported in graph.find_modules_directly_imported_by(module) & course)


def test_the_machinery_imports_no_course(graph):
    """autograder/ finds its course by name (autograder/course/active.py) and never imports it: any course can be graded."""
    assert machinery_imports_of_the_course(graph) == []


def test_a_machinery_import_of_the_course_would_fail():
    """The check is real: the runner importing the course's checks directly is caught."""
    changed = build()
    changed.add_import(importer="autograder.grading.runner", imported=f"{COURSE}.checks")
    assert machinery_imports_of_the_course(changed) == [f"autograder.grading.runner -> {COURSE}.checks"]


def test_the_machinery_names_no_reference_module(graph):
    """Nor does it import a reference: the course says which module defines which function."""
    references = graph.find_descendants("solutions") | {"solutions"}
    importers = sorted(m for m in graph.find_descendants("autograder")
                       if graph.find_modules_directly_imported_by(m) & references)
    assert importers == []


def test_only_the_nbgrader_package_imports_nbgrader(graph):
    importers = graph.find_modules_that_directly_import("nbgrader")
    assert importers and all(m.startswith("autograder.nbgrader.") for m in importers), sorted(importers)


# The two exceptions: the lessons' drawing helper draws with networkx and matplotlib, and their
# clickable graph is an anywidget (with traitlets, and IPython's namespace for the answers it sets).
# All are in the learner bundle's requirements; grading never imports either helper (the sandbox
# has none of these libraries), and no other module of exercises/ may lean on them.
DRAWING = {"exercises.draw": {"networkx", "matplotlib"}, "exercises.graph_widget": {"anywidget", "traitlets", "IPython"}}


def test_the_learner_side_stands_alone(graph):
    """exercises/ (shipped to learners) imports no kit code and nothing beyond the standard library, pytest and Hypothesis."""
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
    hashed = {path.resolve() for path in cellgrades.fingerprinted_files()}
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
