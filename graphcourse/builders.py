"""Large public inputs, built from a short description the same way on both sides of the sandbox.

A check with a large input (a chain of 200,000 nodes) describes it, e.g. {"shape": "chain",
"length": 200000}. The grader builds the input from the description to judge the answer with
the reference; the child builds the very same input from the same description instead of
receiving megabytes of JSON. The answer is judged against the grader's own copy, so nothing
the child builds is trusted.

Standard library only, and no imports at all: the child script is this file's text followed by
child.py's (program.child_script), run by an interpreter started with -I -S. It also gives the
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
        level = paired + level[len(paired) * 2 :]
    return graph, {"x": 1.5, "y": 0.5}


def _block(graph, values, j, v):
    """Block j of the block shapes: four nodes reading the value v and the block's own leaf k<j>; returns its output.

    a = v + k, b = a - v (v is read twice), c = a + b (a is read twice), d = -c. The gradient arriving at d
    comes back to v as -1 times it, and only add, sub and neg are used, whose slopes depend on no value: every
    block carries a gradient back the same way, whatever its values (which differ from block to block).
    """
    leaf, name = f"k{j:05d}", f"n{j:05d}"
    values[leaf] = ((j * 5) % 7 - 3) * 0.25  # -0.75 .. 0.75
    graph.append((name + "a", "add", [v, leaf]))
    graph.append((name + "b", "sub", [name + "a", v]))
    graph.append((name + "c", "add", [name + "a", name + "b"]))
    graph.append((name + "d", "neg", [name + "c"]))
    return name + "d"


def chain_of_blocks(count):
    """``count`` blocks one after another, each reading the one before it: a chain of 4 * count nodes.

    Names sort in listed order (zero-padded), so a sweep that goes by names goes as one by positions would.
    """
    graph, values, v = [], {"x": 0.5}, "x"
    for j in range(count):
        v = _block(graph, values, j, v)
    return graph, values


def tree_of_blocks(count, spine=False):
    """``count`` blocks side by side, each reading the leaf x, their outputs summed by adds s<i>.

    A balanced tree of sums (count a power of 2: every block as far from the output as every other), or
    with ``spine`` one sum after another (block i at depth i + 1, the last two at the same depth), so that
    blocks lie at different distances from the output.
    """
    graph, values = [], {"x": 0.5}
    level = [_block(graph, values, j, "x") for j in range(count)]
    sums = 0
    if spine:
        last = level[-1]
        for other in reversed(level[:-1]):
            graph.append((f"s{sums:05d}", "add", [other, last]))
            last, sums = f"s{sums:05d}", sums + 1
        return graph, values
    while len(level) > 1:
        paired = []
        for left, right in zip(level[0::2], level[1::2]):
            paired.append(f"s{sums:05d}")
            graph.append((paired[-1], "add", [left, right]))
            sums += 1
        level = paired + level[len(paired) * 2 :]
    return graph, values


def places(graph):
    """{name: (place, upstream)} in a block shape: where a name sits, and the one name its gradient comes from.

    A block's a, b, c and leaf k sit under the block's output d, and so does its input v when no other block
    reads it (x in a tree of blocks has no place); an input of a sum s<i> sits under that sum. The output has
    no place. Under any sweep that works out a name's gradient from the names that read it, two names in the
    same place under upstream names with the same gradient get the same gradient.
    """
    readers = {}
    for _name, _op, inputs in graph:
        for i in set(inputs):
            readers[i] = readers.get(i, 0) + 1
    found = {}
    for name, op, inputs in graph:
        if op == "add" and name[0] == "s":
            for i in inputs:
                found[i] = ("sum input", name)
        elif name[0] == "n" and name[-1] == "a":
            out = name[:-1] + "d"
            v, leaf = inputs
            for place in "abc":
                found[name[:-1] + place] = (place, out)
            found[leaf] = ("k", out)
            if readers[v] == 2:  # this block's a and b read it, and nothing else
                found[v] = ("v", out)
    return found


SHAPES = {"chain": chain, "wide": wide, "chain_of_blocks": chain_of_blocks, "tree_of_blocks": tree_of_blocks}


def checkpoint_chain(length, every):
    """backward_checkpointed's arguments (graph, leaves, every): `length` nodes, products with w and tanh in turn."""
    graph = [
        (f"n{i}", "tanh" if i % 2 else "mul", [f"n{i - 1}" if i else "x"] + ([] if i % 2 else ["w"]))
        for i in range(length)
    ]
    return graph, {"x": 0.3, "w": 1.1}, every


def wide_records(count):
    """topological_order's argument, wide: ``count`` records, half of them (a<k>) reading only the leaf x, and each of
    the other half (b<k>) reading one of those; the b's come first, so the order given is no answer."""
    half = count // 2
    readers = {f"b{k:06d}": ("sub", [f"a{k:06d}", "x"]) for k in range(half)}
    return ({**readers, **{f"a{k:06d}": ("neg", ["x"]) for k in range(half)}},)


# Shapes that describe a call's whole argument list rather than a graph to evaluate for backward.
ARGUMENTS = {"checkpoint_chain": checkpoint_chain, "wide_records": wide_records}

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
