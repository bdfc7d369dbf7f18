"""Hidden checks as data: one file per family, each a list of `Check`s.

A check names the function it grades, its points, the sentence of the lesson's
instructions it enforces, and its inputs: fixed `Case`s (smallest first, so the
first failure is the smallest input that shows the problem) or a Hypothesis
strategy of cases. Expected answers are never written here: the grader computes
them with the reference in its own process.
"""

import dataclasses
import importlib
from pathlib import Path

from autograder.course.lessons import functions
from autograder.grading.engine import Case, Check  # noqa: F401 - the engine's types, as every family file imports them
from autograder.sandbox.channel import quiet_gc
from graphcourse.builders import build, chain  # noqa: F401 - one definition, shared with the sandbox child
from solutions import graph as reference

FUNCTIONS = functions()  # the learner's functions, in lesson order: the lesson sources' grade cells say which

# Lessons 1 and 2's families, in the order their reports show them; every other family file of this
# folder is found by discovery and follows, in name order (families()).
ORDER = (
    "evaluate_values",
    "wrong_order_valueerror",
    "inputs_of_edges",
    "users_of_dedup",
    "users_of_order",
    "fan_out_accumulation",
    "finite_difference_agreement",
    "backward_every_name",
    "reverse_order",
    "local_slopes",
    "deep_graph",
    "linear_time",
    "no_mutation",
)


HERE = Path(__file__).parent
GRAPH_FIRST = ((0, "graph"),)  # the child decodes a call's first argument as a graph (builders.CODECS)


def as_json_graph(graph):
    return [[name, op, list(inputs)] for name, op, inputs in graph]


def call(fn, graph, *rest, label="", **kwargs):
    """A Case calling fn(graph, *rest) with the graph in JSON form."""
    flags = kwargs.pop("flags", {})
    seconds = kwargs.pop("seconds", 0.0)
    expect = kwargs.pop("expect", "")
    judged = tuple(kwargs.pop("judged", ()))
    return Case(fn, (as_json_graph(graph), *rest), kwargs, label, flags, seconds, expect, judged, decode=GRAPH_FIRST)


def backward_call(graph, leaves, output=None, label="", **extra):
    """A Case calling backward on the values the reference's evaluate gives for `leaves`."""
    values = reference.evaluate(graph, leaves)
    kwargs = {} if output is None else {"output": output}
    return call("backward", graph, values, label=label, **kwargs, **extra)


def sweep_call(graph, leaves, label="", **extra):
    """A backward Case that judges only what a value family is about: the gradients below the output.

    The output is passed explicitly (the last node), and the output's own entry is not judged:
    choosing the output, its entry of 1.0 and the names reported are backward_every_name's rule,
    so a misconception about them costs points there, not in every family.
    """
    output = graph[-1][0]
    judged = [name for name in reference.evaluate(graph, leaves) if name != output]
    return backward_call(graph, leaves, output=output, label=label, judged=judged, **extra)


def built_call(fn, description, label="", **extra):
    """A Case on a large public input that the sandbox child builds from ``description`` (builders.build).

    The grader builds the very same arguments here, with the same code, to judge against
    (tests/test_sandbox_bounds.py holds builders' values to the reference's evaluate); the pipe
    carries a few bytes instead of megabytes of JSON. The output is the graph's last node.
    """
    graph, values = quiet_gc(build, description)
    case = quiet_gc(call, fn, graph, values, label=label, output=graph[-1][0], **extra)
    return dataclasses.replace(case, built=dict(description))


def families():
    """Every family file of this folder: ORDER's, then the others in name order."""
    found = sorted(path.stem for path in HERE.glob("*.py") if not path.stem.startswith("_"))
    missing = [name for name in ORDER if name not in found]
    if missing:
        raise ValueError(f"graphcourse/checks/: ORDER names {missing}, but there is no such file; remove the name")
    return (*ORDER, *(name for name in found if name not in ORDER))


FAMILIES = families()


def family_modules():
    """The family modules, in FAMILIES order. A family may define JUDGES of its own (graphcourse/judges.py merges
    them)."""
    return [importlib.import_module(f"graphcourse.checks.{family}") for family in FAMILIES]


def all_checks():
    return [check for module in family_modules() for check in module.CHECKS]


def max_points(checks=None):
    return sum(c.points for c in checks or all_checks())


def points_of(function):
    """What the hidden checks on one function add up to: its grade cell is worth exactly this."""
    total = sum(check.points for check in all_checks() if check.function == function)
    return int(total) if float(total).is_integer() else total


def markdown_table(checks=None):
    """The table of check families (Markdown), as docs/checks.md shows it."""
    checks = all_checks() if checks is None else checks
    lines = ["| family | function | checks | points | what it enforces |", "|---|---|---|---|---|"]
    for family in FAMILIES:
        members = [c for c in checks if c.family == family]
        functions = ", ".join(dict.fromkeys(c.function for c in members))
        doc = importlib.import_module(f"graphcourse.checks.{family}").__doc__
        summary = " ".join(doc.strip().split("\n\n")[0].split())  # the first paragraph, on one line
        lines.append(f"| `{family}` | {functions} | {len(members)} | {sum(c.points for c in members):g} | {summary} |")
    lines.append(f"| **total** | | {len(checks)} | {sum(c.points for c in checks):g} | |")
    return "\n".join(lines)
