"""Large public inputs, built from a short description the same way on both sides of the sandbox.

A check with a large input (a chain of 200,000 nodes) describes it, e.g. {"shape": "chain",
"length": 200000}. The grader builds the input from the description to judge the answer with
the reference; the child builds the very same input from the same description instead of
receiving megabytes of JSON. The answer is judged against the grader's own copy, so nothing
the child builds is trusted.

Standard library only, and no imports at all: the child script is this file's text followed by
child.py's (parent.child_script), run by an interpreter started with -I -S. It also gives the
child the course's codec: how a graph sent as JSON becomes the learner's argument.
"""


def as_graph(graph):
    """A graph sent as JSON (lists), as the learner's functions take it: (name, op, inputs) tuples."""
    return [(name, op, list(inputs)) for name, op, inputs in graph]


def as_records(nodes):
    """Records sent as JSON ({name: [op, inputs]}), as topological_order takes them: name -> (op, inputs)."""
    return {name: (op, list(inputs)) for name, (op, inputs) in nodes.items()}


def as_pairs(pairs):
    """A list of pairs sent as JSON lists, as stale_reads takes its replacements: (position, name) tuples."""
    return [tuple(pair) for pair in pairs]


# The sandbox child decodes arguments with these (autograder/sandbox/child.py).
CODECS = {"graph": as_graph, "records": as_records, "pairs": as_pairs}


def chain(length, leaf="x"):
    """A chain of `length` nodes alternating neg and add-a-constant: values and slopes stay small."""
    graph, previous = [], leaf
    for i in range(length):
        name = f"n{i}"
        graph.append((name, "neg", [previous]) if i % 2 == 0 else (name, "add", [previous, "c"]))
        previous = name
    return graph, {leaf: 0.5, "c": 0.25}


def wide(width):
    """``width`` nodes that each read the leaves x and y, summed pairwise up a balanced tree.

    Many edges and a fan-out of ``width`` from each leaf, while the graph stays shallow: the output
    depends on every node, and depth (deep_graph's business) plays no part in the time.
    """
    graph, level = [], []
    for i in range(width):
        graph.append((f"h{i}", ("add", "mul", "sub")[i % 3], ["x", "y"]))
        level.append(f"h{i}")
    while len(level) > 1:
        paired = []
        for left, right in zip(level[0::2], level[1::2]):
            paired.append(f"s{len(graph) - width}")
            graph.append((paired[-1], "add", [left, right]))
        level = paired + level[len(paired) * 2:]
    return graph, {"x": 1.5, "y": 0.5}


SHAPES = {"chain": chain, "wide": wide}


def checkpoint_chain(length, every):
    """backward_checkpointed's arguments (graph, leaves, every): `length` nodes, products with w and tanh in turn."""
    graph = [(f"n{i}", "tanh" if i % 2 else "mul", [f"n{i - 1}" if i else "x"] + ([] if i % 2 else ["w"]))
             for i in range(length)]
    return graph, {"x": 0.3, "w": 1.1}, every


# Shapes that describe a call's whole argument list rather than a graph to evaluate for backward.
ARGUMENTS = {"checkpoint_chain": checkpoint_chain}

# The ops these shapes use, computed as the reference's evaluate computes them (a test holds the two equal).
STEPS = {
    "neg": lambda a: -a,
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
}


def values_of(graph, leaves):
    """The value of every leaf and node, in evaluate's order: the leaves, then the nodes as listed."""
    values = dict(leaves)
    for name, op, inputs in graph:  # one or two inputs, indexed directly: three times faster than unpacking a list
        if len(inputs) == 1:
            values[name] = STEPS[op](values[inputs[0]])
        else:
            values[name] = STEPS[op](values[inputs[0]], values[inputs[1]])
    return values


def build(description):
    """backward's arguments (graph, values) for a description such as {"shape": "chain", "length": 200000}.

    The graph is a list of (name, op, [inputs]) tuples, as the child hands graphs to learner code.
    """
    params = dict(description)
    shape = params.pop("shape")
    if shape in ARGUMENTS:
        return ARGUMENTS[shape](**params)
    graph, leaves = SHAPES[shape](**params)
    return graph, values_of(graph, leaves)
