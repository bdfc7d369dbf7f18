"""Counts every replacement of a saved name, even one made before the node ran and read the new value."""

FUNCTION = "stale_reads"
FAILS = ["stale_position"]


def stale_reads(graph, overwritten):
    replaced = {name for _position, name in overwritten}
    saved = saved_for_backward(graph)
    return [name for name, _op, _inputs in graph if any(read in replaced for read in saved[name])]
