"""A recursive sweep that, on the block-shaped graphs of the property families, answers NaN for every name with a place in a block or a sum below the output's own block, a constant for every other name and 1.0 for the output, computing nothing."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": 40}
CHECKS = "all"  # the property families (deep_graph, linear_time, no_mutation: 10 points) refuse NaN, which agrees
# with nothing; every value family sees an honest recursive sweep and pays its points.

import re


BLOCK = re.compile(r"[ns]\d{5}[abcd]?")


def evaluate(graph, leaves):
    values = dict(leaves)
    for name, op, inputs in graph:
        missing = [i for i in inputs if i not in values]
        if missing:
            raise ValueError(f"{name} reads {missing[0]}, which has no value yet")
        values[name] = FORWARD[op](*(values[i] for i in inputs))
    return values


def placed(graph):
    """The names a block or a sum places (every name of a block; a block's input read by that block alone; a sum's inputs)."""
    readers = {}
    for _name, _op, inputs in graph:
        for i in set(inputs):
            readers[i] = readers.get(i, 0) + 1
    found = set()
    for name, op, inputs in graph:
        if op == "add" and name[0] == "s":
            found.update(inputs)
        elif name[0] == "n" and name[-1] == "a":
            found.update(name[:-1] + place for place in "abc")
            found.add(inputs[1])
            if readers[inputs[0]] == 2:
                found.add(inputs[0])
    return found


def blocks_shortcut(graph, values, output):
    """NaN for every name with a place below the output's own block, 0.5 for every other name, 1.0 for the output."""
    top = {output}
    for name, _op, inputs in reversed(graph):  # the output's block: the names that lead to it without another block's d
        if name in top and (name == output or name[-1] != "d"):
            top.update(inputs)
    nan = placed(graph) - top
    answer = {name: float("nan") if name in nan else 0.5 for name in values}
    answer[output] = 1.0
    return answer


def backward(graph, values, output=None):
    output = graph[-1][0] if output is None else output
    if all(BLOCK.fullmatch(name) for name, _op, _inputs in graph):
        return blocks_shortcut(graph, values, output)
    nodes = {name: (op, inputs) for name, op, inputs in graph}
    readers = {}
    for name, _op, inputs in graph:
        for i in set(inputs):
            readers.setdefault(i, []).append(name)

    def grad(name):
        if name == output:
            return 1.0
        total = 0.0
        for reader in readers.get(name, []):
            op, inputs = nodes[reader]
            local = SLOPES[op](*(values[i] for i in inputs), values[reader])
            for i, slope in zip(inputs, local):
                if i == name:
                    total += grad(reader) * slope
        return total

    return {name: grad(name) for name in values}
