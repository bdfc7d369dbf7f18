"""Hidden checks as data: one file per family, each a list of `Check`s.

A check names the function it grades, its points, the sentence of the lesson's
instructions it enforces, and its inputs: fixed `Case`s (smallest first, so the
first failure is the smallest input that shows the problem) or a Hypothesis
strategy of cases. Expected answers are never written here: the grader computes
them with the reference in its own process.
"""

import dataclasses
import importlib
from dataclasses import dataclass, field

from graphcourse.builders import build, chain  # noqa: F401 - one definition, shared with the sandbox child
from autograder.course.lessons import functions
from autograder.sandbox.parent import quiet_gc
from solutions import graph as reference

FUNCTIONS = functions()  # the learner's functions, in lesson order: the lesson sources' grade cells say which

FAMILIES = (
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


@dataclass(frozen=True)
class Case:
    """One call of a learner function, with JSON-able arguments (a graph is a list of lists)."""

    fn: str
    args: tuple
    kwargs: dict = field(default_factory=dict)
    label: str = ""  # how feedback names the input, e.g. "the worked example x=2"
    flags: dict = field(default_factory=dict)  # return_args, mutate_result
    seconds: float = 0.0  # wall clock for the call; 0 means the sandbox default
    expect: str = ""  # judge for this case alone; "" means the check's own
    judged: tuple = ()  # backward: the only names whose gradients this case judges; () means every name
    built: dict = None  # a large input: the description the sandbox child builds args from (see described)


@dataclass(frozen=True)
class Check:
    id: str  # "family/variant": stable, used in gradebooks, CSVs and results JSON
    function: str
    points: float
    rule: str  # the lesson's instruction this check enforces
    expect: str  # how the reply is judged: a key of graphcourse.judges.JUDGES
    cases: tuple = ()  # or a function returning them, for inputs too large to build on import
    strategy: object = None  # a Hypothesis strategy of Case, for property checks
    examples: int = 0  # how many examples the property check tries

    @property
    def family(self):
        return self.id.split("/")[0]

    def inputs(self):
        """The fixed cases, built now if they were given as a function."""
        return self.cases() if callable(self.cases) else self.cases


def as_json_graph(graph):
    return [[name, op, list(inputs)] for name, op, inputs in graph]


def call(fn, graph, *rest, label="", **kwargs):
    """A Case calling fn(graph, *rest) with the graph in JSON form."""
    flags = kwargs.pop("flags", {})
    seconds = kwargs.pop("seconds", 0.0)
    expect = kwargs.pop("expect", "")
    judged = tuple(kwargs.pop("judged", ()))
    return Case(fn, (as_json_graph(graph), *rest), kwargs, label, flags, seconds, expect, judged)


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


def all_checks():
    checks = []
    for family in FAMILIES:
        checks.extend(importlib.import_module(f"graphcourse.checks.{family}").CHECKS)
    return checks


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
        summary = importlib.import_module(f"graphcourse.checks.{family}").__doc__.strip().splitlines()[0]
        lines.append(f"| `{family}` | {functions} | {len(members)} | {sum(c.points for c in members):g} | {summary} |")
    lines.append(f"| **total** | | {len(checks)} | {sum(c.points for c in checks):g} | |")
    return "\n".join(lines)
