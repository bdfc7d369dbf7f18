"""Sorts the caller's overwritten list in place to walk the replacements by position: right answers, changed argument."""

FUNCTION = "stale_reads"
FAILS = ["memory_no_mutation"]


def stale_reads(graph, overwritten):
    overwritten.sort()
    latest = {}
    for position, name in overwritten:  # in position order, so the last one seen is the latest
        latest[name] = position
    saved = saved_for_backward(graph)
    return [name for position, (name, _op, _inputs) in enumerate(graph)
            if any(read in latest and latest[read] >= position for read in saved[name])]
