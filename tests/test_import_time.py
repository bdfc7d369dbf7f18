"""The machinery finds the course when first used, never when imported, and its modules import one way (no cycle,
late imports included: grimp sees imports inside functions too)."""

import json
import os
import subprocess
import sys

import grimp

from autograder.course import active, paths

# What `python -m autograder grade` imports to read and grade a hand-in.
HANDIN_MODULES = (
    "autograder.grading.by_lesson",
    "autograder.grading.runner",
    "autograder.grading.submission",
    "autograder.grading.reading",
    "autograder.cli",
)

# Imports the modules named in argv with the course missing, then finds the course named by COURSE_NAME.
SCRIPT = """
import importlib, json, os, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
imported = sorted(sys.modules)
from autograder.course import active
active.name.cache_clear()
os.environ[active.ENV] = os.environ["COURSE_NAME"]
active.course()
print(json.dumps([imported, sorted(sys.modules)]))
"""


def course_packages():
    """The top-level packages of the course as its configuration names them: the course package, the learner's
    package and the references."""
    return {active.name(), paths.EXERCISES_FOLDER, paths.REFERENCES_FOLDER}


def tops(modules):
    return {name.split(".")[0] for name in modules}


def test_importing_the_machinery_loads_no_course(tmp_path):
    """With GRAPHKIT_COURSE naming a folder that does not exist, the imports succeed and load no course module; the
    same interpreter then loads the course when asked for it, so the check sees a course when there is one."""
    missing = tmp_path / "nowhere" / "missing_course"
    env = dict(os.environ, **{active.ENV: str(missing), "COURSE_NAME": active.name()})
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *HANDIN_MODULES], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    imported, afterwards = json.loads(done.stdout)
    assert set(HANDIN_MODULES) <= set(imported)
    assert tops(imported) & (course_packages() | {missing.name}) == set()
    assert active.name() in tops(afterwards)


def cycles(graph):
    """The import cycles among the kit's modules: each a sorted list of the modules that import each other."""
    modules = graph.find_descendants("autograder") | {"autograder"}
    edges = {module: graph.find_modules_directly_imported_by(module) & modules for module in modules}
    order, low, stack, found, counter = {}, {}, [], [], [0]

    def visit(start):  # Tarjan's strongly connected components, without recursion
        work = [(start, iter(sorted(edges[start])))]
        order[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        while work:
            module, following = work[-1]
            step = next(following, None)
            if step is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == order[module]:
                    component = []
                    while not component or component[-1] != module:
                        component.append(stack.pop())
                    if len(component) > 1:
                        found.append(sorted(component))
            elif step not in order:
                order[step] = low[step] = counter[0]
                counter[0] += 1
                stack.append(step)
                work.append((step, iter(sorted(edges[step]))))
            elif step in stack:
                low[module] = min(low[module], order[step])

    for module in sorted(modules):
        if module not in order:
            visit(module)
    return sorted(found)


def build():
    return grimp.build_graph("autograder", cache_dir=None)


def test_the_kit_s_modules_import_one_way():
    assert cycles(build()) == []


def test_an_import_back_would_fail():
    """The check is real: a file reader importing the hand-in reader, the lessons importing the paths, the
    provenance importing the record cache, or the record cache importing make grade's outputs, is caught."""
    graph = build()
    for importer, imported in (
        ("autograder.grading.submission", "autograder.grading.reading"),
        ("autograder.course.lessons", "autograder.course.paths"),
        ("autograder.grading.provenance", "autograder.grading.cellgrades"),
        ("autograder.grading.cellgrades", "autograder.pipeline.outputs"),
    ):
        graph.add_import(importer=importer, imported=imported)
        found = cycles(graph)
        graph.remove_import(importer=importer, imported=imported)
        assert any({importer, imported} <= set(cycle) for cycle in found), (importer, imported)
    assert cycles(graph) == []


def test_a_course_package_that_cannot_be_imported_is_named_without_a_traceback(tmp_path):
    """The course is found when first used, inside the CLI's handling: a missing package exits 3 and names it."""
    missing = f"{active.name()}_missing"
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", str(tmp_path / "handin.py")],
        env=dict(os.environ, **{active.ENV: missing}),
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 3 and "Traceback" not in done.stderr, done.stderr
    assert f"{missing!r} cannot be imported" in done.stderr and active.ENV in done.stderr
