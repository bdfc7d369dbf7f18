"""Counts only replacements strictly after the node's position, missing the one made right after the node ran."""

FUNCTION = "stale_reads"
FAILS = ["stale_position"]


def stale_reads(graph, overwritten):
    saved = saved_for_backward(graph)
    stale = []
    for position, (name, _op, _inputs) in enumerate(graph):
        if any(read in saved[name] and at > position for at, read in overwritten):
            stale.append(name)
    return stale
