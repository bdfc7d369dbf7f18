"""Lesson 2's public programs: backward on a short input made of blocks, then on the check's long one.

The property families (deep_graph, linear_time, no_mutation) judge a long answer against the learner's
own answer on a short input of the same blocks (graphcourse/judges.py, judge_carried_back), so both
answers come back from one call: [short, long]. The short input is built here from its description,
with the same builders the grader uses (graphcourse/builders.py runs before this file in the child).
"""

# The short input beside each driver's long one: a chain of three blocks, and four blocks summed one
# after another (blocks at three distances from the output).
BACKWARD_SHORT = {
    "backward_after_short_chain": {"shape": "chain_of_blocks", "count": 3},
    "backward_after_short_tree": {"shape": "tree_of_blocks", "count": 4, "spine": True},
}


def _backward_after_short(short):
    def driver(module, graph, values, output=None):
        short_graph, short_values = build(short)  # noqa: F821 - builders.build, defined before this file in the child
        first = module.backward(short_graph, short_values, output=short_graph[-1][0])
        if type(first) is dict:
            first = dict(first)  # the answer as it came back, before the second call can change it
        kwargs = {} if output is None else {"output": output}
        return [first, module.backward(graph, values, **kwargs)]

    return driver


DRIVERS = {
    **globals().get("DRIVERS", {}),
    **{name: _backward_after_short(short) for name, short in BACKWARD_SHORT.items()},
}
