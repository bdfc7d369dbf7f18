"""Lesson 4's public programs: topological_order(nodes), its answer sent one string per entry.

A graph of 50,000 entries sent as JSON lists is five items per entry, more than a reply to a call on
50,000 records may hold (autograder/sandbox/reply_bounds.py); sent as one string "name op input ..."
per entry it is one item. The judges (graphcourse/checks/order_valid.py) read the strings back; an
entry that is not (name, op, inputs) of strings without a space is sent as a one-item list that
shows it, so nothing the learner returns is taken on trust here either.
"""

ORDER_SEPARATOR = " "  # no name or op of the checks' records holds one


def _order_shown(entry):
    """A short text showing an entry that is not (name, op, inputs) of strings."""
    try:
        return repr(entry)[:100]
    except Exception:  # noqa: BLE001 - a learner object whose repr fails
        return type(entry).__name__


def _order_entry(entry):
    """One entry as "name op input ...", or [what it is] when it is not (name, op, inputs) of strings."""
    if type(entry) not in (list, tuple) or len(entry) != 3:
        return [_order_shown(entry)]
    name, op, inputs = entry
    if type(name) is not str or type(op) is not str or type(inputs) not in (list, tuple):
        return [_order_shown(entry)]
    words = [name, op, *inputs]
    if not all(type(word) is str and word and ORDER_SEPARATOR not in word for word in words):
        return [_order_shown(entry)]
    return ORDER_SEPARATOR.join(words)


def _order_entries(graph):
    if type(graph) not in (list, tuple):
        return {"returned": type(graph).__name__}
    return [_order_entry(entry) for entry in graph]


def order_graph(module, nodes):
    """topological_order(nodes), one string per entry of its answer."""
    return _order_entries(module.topological_order(nodes))


def order_then_edit(module, nodes):
    """topological_order(nodes), then every inputs list of its answer appended to: new lists leave nodes as it was."""
    graph = module.topological_order(nodes)
    sent = _order_entries(graph)
    if type(graph) in (list, tuple):
        for entry in graph:
            if type(entry) in (list, tuple) and len(entry) == 3 and type(entry[2]) is list:
                entry[2].append("edited")
    return sent


DRIVERS = {**globals().get("DRIVERS", {}), "order_graph": order_graph, "order_then_edit": order_then_edit}
