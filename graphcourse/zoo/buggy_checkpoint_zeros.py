"""Returns a zero for every leaf and nothing recomputed, whatever the graph: an answer that ignores its input earns nothing."""

FUNCTION = "backward_checkpointed"
FAILS = ["checkpoint_gradients", "checkpoint_recomputed", "checkpoint_sequential", "checkpoint_linear_time",
         "checkpoint_memory", "memory_no_mutation"]
SCORES_ZERO = True


def backward_checkpointed(graph, leaves, every, output=None):
    return {leaf: 0.0 for leaf in leaves}, 0
