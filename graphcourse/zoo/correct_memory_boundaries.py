"""Seen-sets for the saved lists, the positions of each replacement, and segments cut at an explicit list of checkpoint positions."""

FUNCTION = None
FAILS = []
MODULE = "memory"


def saved_for_backward(graph):
    result = {}
    for name, op, inputs in graph:
        if op == "tanh":
            result[name] = [name]
            continue
        names, seen = [], set()
        if op not in ("add", "sub", "neg"):
            for read in inputs:
                if read not in seen:
                    seen.add(read)
                    names.append(read)
        result[name] = names
    return result


def stale_reads(graph, overwritten):
    positions = {}
    for position, name in overwritten:
        positions.setdefault(name, []).append(position)
    saved = saved_for_backward(graph)
    stale = []
    for position, (name, _op, _inputs) in enumerate(graph):
        for read in saved[name]:
            if any(at >= position for at in positions.get(read, ())):
                stale.append(name)
                break
    return stale


class NotSequential(ValueError):
    pass


def backward_checkpointed(graph, leaves, every, output=None):
    names = [name for name, _op, _inputs in graph]
    for position, (name, _op, inputs) in enumerate(graph):
        for read in inputs:
            if read not in leaves and (position == 0 or read != names[position - 1]):
                raise NotSequential(f"{name} reads {read}, which is neither a leaf nor the node just before {name}")
    last = names.index(names[-1] if output is None else output)

    def run(position, previous):
        name, op, inputs = graph[position]
        values = [previous if position and read == names[position - 1] else float(leaves[read]) for read in inputs]
        return values, OPS[op](*values)

    marks = list(range(every - 1, last + 1, every))  # checkpoint positions
    stored, previous = [], None
    for position in range(last + 1):
        previous = run(position, previous)[1]
        if marks and len(stored) < len(marks) and position == marks[len(stored)]:
            stored.append(previous)
    starts = [0] + [mark + 1 for mark in marks if mark < last]
    grads = {leaf: 0.0 for leaf in leaves}
    gradient, count = 1.0, 0
    for index in range(len(starts) - 1, -1, -1):
        start = starts[index]
        stop = starts[index + 1] - 1 if index + 1 < len(starts) else last
        previous = stored[index - 1] if index else None
        held = []
        for position in range(start, stop + 1):
            values, value = run(position, previous)
            if index < len(stored) and position == marks[index]:
                value = stored[index]
            else:
                count += 1
            held.append((values, value))
            previous = value
        for position in range(stop, start - 1, -1):
            values, value = held[position - start]
            _name, op, inputs = graph[position]
            slopes = SLOPES[op](*values, value)
            passed = 0.0
            for read, slope in zip(inputs, slopes):
                if position and read == names[position - 1]:
                    passed += gradient * slope
                else:
                    grads[read] += gradient * slope
            gradient = passed
    return grads, count
