"""Goes by the names a node reads instead of those it saves: a sum's replaced input counts, tanh's own output does not."""

FUNCTION = "stale_reads"
FAILS = ["stale_saved"]


def stale_reads(graph, overwritten):
    stale = []
    for position, (name, _op, inputs) in enumerate(graph):
        if any(read in inputs and at >= position for at, read in overwritten):
            stale.append(name)
    return stale
