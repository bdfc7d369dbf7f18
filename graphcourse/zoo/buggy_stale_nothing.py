"""Returns an empty list whatever was replaced: an answer that ignores its input earns nothing."""

FUNCTION = "stale_reads"
FAILS = ["stale_position", "stale_saved", "memory_no_mutation"]
SCORES_ZERO = True


def stale_reads(graph, overwritten):
    return []
