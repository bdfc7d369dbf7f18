"""Where the boxes and arrows of a graph's picture go, so that no arrow passes through a box.

    from exercises.layout import layout
    placed = layout(graph, box_w=150, box_h=72, gap_x=60, gap_y=22)
    placed.boxes["p"]    # (x, y) of the top-left corner of p's box; y grows downwards
    placed.edges[0]      # (source, target, times read, [(x, y), ...]): the arrow's points, tip last

Both pictures of a graph use it: ``draw`` in the lessons (exercises/draw.py) and the
picture of a failed check in the feedback. It decides places, not pixels: the caller
gives the size of a box and of the gaps, in its own units.

The leaves stand in column 0 and every node one column to the right of its furthest
input. An input that a node reads from further left than the column next to it
travels through every column in between in a slot of its own (a lane, as high as a
box, shared by every arrow from that input). So every arrow runs straight across the
columns it passes, in its lane, and slants only in the gaps between columns: it never
crosses a box, its own source and target included. Its last stretch is level, so its
head points straight into its box.

The order in each column depends on the graph's list alone, never on a set or a hash:
column 0 holds the leaves in the order the graph first reads them (and nodes that read
nothing, where they are listed), and every later column sorts its boxes and lanes by
the mean height of what feeds them, ties broken by the order of the list.
"""

from collections import namedtuple

Layout = namedtuple("Layout", "boxes edges width height")


def _definitions(graph):
    """{node: its distinct inputs, in reading order} and every name in order of first appearance."""
    inputs, appearance = {}, {}
    for name, _op, reads in graph:
        if name in inputs:
            raise ValueError(f"{name!r} is defined twice: a graph defines each node once")
        for read in reads:
            appearance.setdefault(read, len(appearance))
        appearance.setdefault(name, len(appearance))
        inputs[name] = list(dict.fromkeys(reads))
    return inputs, appearance


def columns(graph):
    """{name: column}: 0 for a leaf (and a node that reads nothing), else one more than its furthest input's."""
    inputs, appearance = _definitions(graph)
    column = {}
    for start in appearance:  # depth first without recursion: a long chain needs no deep stack
        stack, on_path = [start], {start}
        while stack:
            name = stack[-1]
            if name in column:
                on_path.discard(stack.pop())
                continue
            waiting = [i for i in inputs.get(name, ()) if i not in column]
            for read in waiting:
                if read in on_path:
                    raise ValueError(f"the graph has a cycle through {read!r}: a computation graph has none")
            if waiting:
                stack.append(waiting[0])
                on_path.add(waiting[0])
            else:
                column[name] = 1 + max((column[i] for i in inputs.get(name, ())), default=-1)
                on_path.discard(stack.pop())
    return column


def layout(graph, box_w, box_h, gap_x, gap_y, margin=0.0):
    """The boxes and arrows of ``graph`` (a list of (name, op, inputs)), and the picture's width and height."""
    graph = [(name, op, list(reads)) for name, op, reads in graph]
    inputs, appearance = _definitions(graph)
    column = columns(graph)
    count = 1 + max(column.values(), default=0)

    # The slots of each column: a name, or ("lane", source, column) for the arrows from source passing it.
    reach = {}  # source: the furthest column that reads it
    for name, reads in inputs.items():
        for read in reads:
            reach[read] = max(reach.get(read, 0), column[name])
    feeds = {}  # slot: the slots of the column before it that run into it
    slots = [[] for _ in range(count)]
    for name in appearance:
        slots[column[name]].append(name)
        feeds[name] = [
            read if column[name] - column[read] == 1 else ("lane", read, column[name] - 1)
            for read in inputs.get(name, ())
        ]
        for k in range(column[name] + 1, reach.get(name, 0)):
            lane = ("lane", name, k)
            slots[k].append(lane)
            feeds[lane] = [name if k == column[name] + 1 else ("lane", name, k - 1)]

    def order(slot):
        return appearance[slot[1]] if isinstance(slot, tuple) else appearance[slot]

    tallest = max(len(column_slots) for column_slots in slots)
    pitch_x, pitch_y = box_w + gap_x, box_h + gap_y
    centre = {}  # slot: the y of its middle
    for k, column_slots in enumerate(slots):
        if k:

            def mean_height(slot):
                heights = [centre[fed] for fed in feeds[slot]]
                return sum(heights) / len(heights) if heights else 0.0

            column_slots.sort(key=lambda slot: (mean_height(slot), isinstance(slot, tuple), order(slot)))
        top = margin + (tallest - len(column_slots)) * pitch_y / 2
        for row, slot in enumerate(column_slots):
            centre[slot] = top + row * pitch_y + box_h / 2
    left = {k: margin + k * pitch_x for k in range(count)}
    boxes = {name: (left[column[name]], centre[name] - box_h / 2) for name in appearance}

    edges = []
    for name, _op, reads in graph:
        routes = []
        for read in inputs[name]:
            points = [(left[column[read]] + box_w, centre[read])]
            for k in range(column[read] + 1, column[name]):
                y = centre["lane", read, k]
                points += [(left[k], y), (left[k] + box_w, y)]
            routes.append((read, points))
        # Arrows reach the box's left side at distinct heights, in the order they come from: none cross there.
        routes.sort(key=lambda route: (route[1][-1][1], appearance[route[0]]))
        for j, (read, points) in enumerate(routes):
            tip = (left[column[name]], boxes[name][1] + box_h * (j + 1) / (len(routes) + 1))
            # The last stretch is level, so that an arrow's head points into its box however steep the slant before it.
            edges.append((read, name, reads.count(read), [*points, (tip[0] - gap_x / 3, tip[1]), tip]))
    width = 2 * margin + count * box_w + (count - 1) * gap_x
    height = 2 * margin + tallest * box_h + (tallest - 1) * gap_y
    return Layout(boxes, edges, width, height)
