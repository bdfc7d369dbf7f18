"""The grader's limits, kept by the public tests too: its recursion limit, and time linear in the input.

The hidden checks run your code with Python's default recursion limit, whatever sys.setrecursionlimit
asks for, and judge a call's time against a linear pass measured on the same machine in the same run.
The public tests of the deep and large inputs do the same here, so code that the grader will stop fails
one of them first, with the grader's own words.

    value = bounded(lambda: impl.tree_size(graph, "t9999"), graph, "tree_size", "tree_size on a chain of 10,000")
"""

import contextlib
import gc
import sys
import time

RECURSION_LIMIT = 1000  # Python's default, and the most the grader's sandbox lets learner code have
KEPT_LIMIT = (
    "The grader keeps Python's default recursion limit of 1,000, whatever sys.setrecursionlimit asks for, "
    "so raising it does not help."
)
# What each function's message says when it runs out of stack on a deep input (the grader says the same).
RECURSION_ADVICE = {
    "backward": "The sweep is recursive: each node calls into the next, so a long chain runs out of stack. "
    + KEPT_LIMIT
    + " Walk the graph with a loop over reversed(graph) instead.",
    "tree_size": "tree_size calls itself on each input, so a chain of 10,000 nodes runs out of stack. "
    + KEPT_LIMIT
    + " One pass over the graph in its order is enough: each node's size is 1 plus the sizes of its inputs, which "
    "are known by then.",
    "gradient_graph": "gradient_graph calls itself once per name (building a name's gradient from its readers' "
    "gradients, say), so a chain of 10,000 nodes runs out of stack. " + KEPT_LIMIT + " One loop over "
    "reversed(graph) reaches every reader of a name before the name itself.",
    "topological_order": "The ordering pass is recursive: placing a node first calls itself on each input, so a long "
    "chain runs out of stack. " + KEPT_LIMIT + " Keep your own stack in a list, or count each node's unfinished "
    "inputs as Kahn's algorithm does.",
    "trace": "Something in the trace recurses once per entry (walking back from the output through the inputs, "
    "say), so a run of 10,000 operations runs out of stack. " + KEPT_LIMIT + " The tape is already in the order the "
    "operations ran: hand back its graph as it is.",
}
# A call may take at most MARGIN times what one plain pass over its input takes here, plus SLACK seconds of CPU.
# A pass over the input does less than any answer needs, so the margin is wider than the grader's 25 times its
# reference: linear code passes with room to spare, and code whose time grows with the square of the input does not.
MARGIN, SLACK = 200, 0.25
PASSES = 9  # plain passes timed for one bound, the best kept


@contextlib.contextmanager
def grader_recursion_limit():
    """Python's default recursion limit for the block, which sys.setrecursionlimit may lower but never raise."""
    setter, before = sys.setrecursionlimit, sys.getrecursionlimit()
    setter(RECURSION_LIMIT)
    sys.setrecursionlimit = lambda limit: setter(min(limit, RECURSION_LIMIT))
    try:
        yield
    finally:
        sys.setrecursionlimit = setter
        setter(before)


def one_pass(graph):
    """CPU seconds of one plain pass over ``graph`` (a list of (name, op, inputs), or records {name: (op, inputs)}):
    every input of every node looked at once. The best of PASSES: a pass takes milliseconds, so a busy machine can
    slow several in a row, and a slowed one would let a slow call through."""
    entries = [(name, *record) for name, record in graph.items()] if isinstance(graph, dict) else graph
    best = None
    for _ in range(PASSES):
        start = time.process_time()
        readers = {}
        for node, _kind, reads in entries:
            for source in reads:
                readers.setdefault(source, []).append(node)
        spent = time.process_time() - start
        best = spent if best is None else min(best, spent)
    return best


def bounded(call, graph, function, what):
    """call(), under the grader's recursion limit and within MARGIN times one pass over ``graph`` plus SLACK."""
    import pytest  # here: the grader imports this module's sentences, and needs no pytest for them

    limit = MARGIN * one_pass(graph) + SLACK
    # The objects alive before the call are set aside from the garbage collector's passes, so the time is the
    # call's own: not that of collections walking whatever else this process holds (a long test run holds much).
    gc.collect()
    gc.freeze()
    with grader_recursion_limit():
        start = time.process_time()
        try:
            value = call()
        except RecursionError:
            pytest.fail(f"{what} raised RecursionError. {RECURSION_ADVICE.get(function, KEPT_LIMIT)}", pytrace=False)
        finally:
            gc.unfreeze()
        spent = time.process_time() - start
    if spent > limit:
        pytest.fail(
            f"{what} took {spent:.2f} s of CPU; code linear in its input takes well under {limit:.2f} s here "
            f"({MARGIN} times one pass over the input, plus {SLACK} s): does it search a list, or go over "
            "the whole graph again, at every node?",
            pytrace=False,
        )
    return value
