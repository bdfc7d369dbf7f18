"""Runs nothing and hands back the leaves, naming the first as the output: a trace that ignores fn earns nothing."""

FUNCTION = "trace"
FAILS = ["trace_agrees", "trace_output", "trace_fresh", "trace_no_mutation", "trace_deep"]
SCORES_ZERO = True


def trace(fn, leaves):
    return [], dict(leaves), next(iter(leaves))
