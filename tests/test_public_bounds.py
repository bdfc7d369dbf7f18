"""The public tests keep the grader's limits (exercises/bounds.py): code the grader will stop fails them first.

A recursive tree_size that raises its recursion limit is stopped by the grader's sandbox, which keeps Python's
default; the public test of the 10,000-node chain keeps the same limit and fails it first, in the grader's words.
"""

import re
import sys
import types
from pathlib import Path

import pytest

import autograder.sandbox
from autograder.course.paths import reference_source
from exercises import bounds
from exercises.tests import test_gradient_graph, test_tree_size
from graphcourse import diagnose, zoo

RAISED_LIMIT = """
def tree_size(graph, output):
    import sys
    sys.setrecursionlimit(100_000)  # deep enough for the chain, were the limit raised
    inputs = {name: names for name, _op, names in graph}

    def size(name):
        return 1 + sum(size(i) for i in inputs[name]) if name in inputs else 1

    return size(output)
"""


def module_of(source, name):
    module = types.ModuleType(name)
    exec(compile(source, name, "exec"), module.__dict__)
    return module


def test_the_public_tests_keep_the_sandboxs_recursion_limit():
    """child.py runs only as the sandbox's script (it reads its descriptors from argv): its limit is read as text."""
    text = (Path(autograder.sandbox.__file__).parent / "child.py").read_text(encoding="utf-8")
    assert bounds.RECURSION_LIMIT == int(re.search(r"^RECURSION_LIMIT = (\d+)", text, re.M).group(1))


def test_a_recursive_tree_size_that_raises_its_limit_fails_the_public_test_in_the_graders_words():
    impl = module_of(reference_source("tape") + RAISED_LIMIT, "raised_limit")
    before = sys.getrecursionlimit()
    with pytest.raises(pytest.fail.Exception) as failed:
        test_tree_size.test_a_chain_of_10000_needs_no_recursion(impl)
    assert sys.getrecursionlimit() == before and sys.setrecursionlimit.__name__ == "setrecursionlimit"
    said = str(failed.value)
    assert "RecursionError" in said and bounds.KEPT_LIMIT in said
    assert bounds.RECURSION_ADVICE["tree_size"] in said
    assert diagnose.SYMPTOMS[("tree_size_deep", "raised", "RecursionError")] == bounds.RECURSION_ADVICE["tree_size"]


@pytest.mark.parametrize(
    "family, function",
    [
        ("tree_size_deep", "tree_size"),
        ("gradient_graph_deep", "gradient_graph"),
        ("order_deep", "topological_order"),
        ("trace_deep", "trace"),
    ],
)
def test_the_hidden_checks_say_what_the_public_tests_say_of_recursion(family, function):
    assert diagnose.SYMPTOMS[(family, "raised", "RecursionError")] == bounds.RECURSION_ADVICE[function]


def test_the_reference_passes_the_bounded_tests():
    impl = module_of(reference_source("tape"), "reference_tape")
    test_tree_size.test_a_chain_of_10000_needs_no_recursion(impl)


@pytest.mark.slow
def test_a_quadratic_gradient_graph_fails_the_public_deep_chain_test():
    """gradient_graph keeping its names in a list (the zoo's) takes seconds on the public 10,000-node chain: more than
    the public bound, which the reference's linear sweep meets with room to spare."""
    entry = zoo.entry("buggy_gradient_graph_used_list")
    impl = module_of(zoo.source(entry), entry.name)
    reference = module_of(reference_source("symbolic"), "reference_symbolic")
    graph_module = module_of(reference_source("graph"), "reference_graph")

    def earlier(_module, name):
        return getattr(graph_module, name)

    test_gradient_graph.test_gradient_graph_deep_chain_without_recursion(reference, earlier)
    with pytest.raises(pytest.fail.Exception, match="took .* s of CPU; code linear in its input"):
        test_gradient_graph.test_gradient_graph_deep_chain_without_recursion(impl, earlier)
