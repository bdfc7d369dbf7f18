"""Goes by the names a node reads instead of those it saves: a sum's replaced input counts, tanh's own output does not."""

FUNCTION = "stale_reads"
FAILS = ["stale_saved"]
PATCH = [("(name, _op, _inputs) in enumerate", "(name, _op, inputs) in enumerate"), ("for read in saved[name]", "for read in inputs")]
