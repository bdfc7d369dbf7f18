"""Lesson 6's public programs: gradient_graph's answer, sent one string per entry of graph2.

A gradient graph holds several entries per edge of the graph: sent as JSON lists they would hold more
items than a reply to the call may (autograder/sandbox/reply_bounds.py counts every comma and bracket),
so each entry is sent as one string, its name, op and inputs joined by a tab, which no name of the
checks holds. The judges (graphcourse/checks/gradient_graph_first.py) split it again and check every
part of it. An entry that is not (name, op, inputs) of strings without a tab, or grads that is not a
dict of names to names, is sent as a short text saying what it is: nothing the learner returns is
taken on trust.
"""

SYMBOLIC_SEPARATOR = "\t"


def _symbolic_shown(value):
    """A short text showing a value that is not what it should be."""
    try:
        return repr(value)[:100]
    except Exception:  # noqa: BLE001 - a learner object whose repr fails
        return type(value).__name__


def _symbolic_entry(entry):
    """One entry as "name<tab>op<tab>input...", or [what it is] when it is not (name, op, inputs) of strings."""
    if type(entry) not in (list, tuple) or len(entry) != 3:
        return [_symbolic_shown(entry)]
    name, op, inputs = entry
    if type(name) is not str or type(op) is not str or type(inputs) not in (list, tuple):
        return [_symbolic_shown(entry)]
    words = [name, op, *inputs]
    if not all(type(word) is str and SYMBOLIC_SEPARATOR not in word for word in words):
        return [_symbolic_shown(entry)]
    return SYMBOLIC_SEPARATOR.join(words)


def _symbolic_answer(result):
    """[graph2 as one string per entry, grads] from gradient_graph's answer; a text where either part is not one."""
    if type(result) not in (list, tuple) or len(result) != 2:
        return "gradient_graph returned " + _symbolic_shown(result) + ", not (graph2, grads)"
    graph2, grads = result
    if type(graph2) not in (list, tuple):
        entries = "graph2 is " + _symbolic_shown(graph2) + ", not a list"
    else:
        entries = []
        for entry in graph2:
            entries.append(_symbolic_entry(entry))
            if type(entries[-1]) is not str:
                break  # the judge stops at the first entry that is not one: the rest is not sent
    if type(grads) is not dict:
        sent = "grads is " + _symbolic_shown(grads) + ", not a dict"
    else:
        wrong = next(((k, v) for k, v in grads.items() if type(k) is not str or type(v) is not str), None)
        sent = (
            dict(grads)
            if wrong is None
            else (
                "grads maps " + _symbolic_shown(wrong[0]) + " to " + _symbolic_shown(wrong[1]) + ": names map to names"
            )
        )
    return [entries, sent]


def _symbolic_graph2(result):
    """graph2 of an answer as a list of (name, op, inputs) tuples, its entries that are not one left out."""
    graph2 = result[0] if type(result) in (list, tuple) and len(result) == 2 else ()
    if type(graph2) not in (list, tuple):
        return []
    return [(entry[0], entry[1], list(entry[2])) for entry in graph2 if type(_symbolic_entry(entry)) is str]


def symbolic_graph(module, graph, output):
    """gradient_graph(graph, output): [graph2, grads]."""
    return _symbolic_answer(module.gradient_graph(graph, output))


def symbolic_then_edit(module, graph, output):
    """gradient_graph(graph, output), then every inputs list of graph2 appended to: copied lists leave graph as it
    was."""
    result = module.gradient_graph(graph, output)
    sent = _symbolic_answer(result)
    graph2 = result[0] if type(result) in (list, tuple) and len(result) == 2 else ()
    for entry in graph2 if type(graph2) in (list, tuple) else ():
        if type(entry) in (list, tuple) and len(entry) == 3 and type(entry[2]) is list:
            entry[2].append("edited")
    return sent


def symbolic_first_leaf(graph):
    """The first name the graph reads that no node produces: the leaf a second derivative is taken in."""
    produced = {name for name, _op, _inputs in graph}
    return next(read for _name, _op, inputs in graph for read in inputs if read not in produced)


def symbolic_twice(module, graph, output):
    """gradient_graph(graph, output), then gradient_graph(graph2, grads[x]) for x the first leaf: [first, second].

    The second call gets graph2 as (name, op, inputs) tuples; second is None when grads has no name for x.
    """
    first = module.gradient_graph(graph, output)
    sent = _symbolic_answer(first)
    grads = first[1] if type(first) in (list, tuple) and len(first) == 2 else None
    leaf = symbolic_first_leaf(graph)
    if type(grads) is not dict or type(grads.get(leaf)) is not str:
        return [sent, None]
    return [sent, _symbolic_answer(module.gradient_graph(_symbolic_graph2(first), grads[leaf]))]


def symbolic_renamed(template, invented):
    """The template graph with its placeholders "#0", "#1", ... renamed, in order, to the distinct invented names that
    the template does not use already; a placeholder left without a name keeps its own."""
    used = {name for name, _op, _inputs in template} | {read for _name, _op, inputs in template for read in inputs}
    names = []
    for name in invented:
        if type(name) is str and name not in used and name not in names:
            names.append(name)

    def renamed(name):
        if name.startswith("#") and name[1:].isdigit() and int(name[1:]) < len(names):
            return names[int(name[1:])]
        return name

    return [(renamed(name), op, [renamed(read) for read in inputs]) for name, op, inputs in template]


def symbolic_fresh(module, template, output):
    """gradient_graph on the template, whose new names then rename its placeholders, and gradient_graph on that graph:
    [the names the first call invented, the second call's answer]."""
    first = module.gradient_graph(template, output)
    invented = [name for name, _op, _inputs in _symbolic_graph2(first)[len(template) :]]
    return [invented, _symbolic_answer(module.gradient_graph(symbolic_renamed(template, invented), output))]


DRIVERS = {
    **globals().get("DRIVERS", {}),
    **{fn.__name__: fn for fn in (symbolic_graph, symbolic_then_edit, symbolic_twice, symbolic_fresh)},
}
