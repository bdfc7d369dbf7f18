"""Uses the caller's leaves dict as the tape's values, so the run writes every node and constant into it."""

FUNCTION = "trace"
FAILS = ["trace_no_mutation"]
PATCH = [
    (
        "    out = fn(**{name: tape.leaf(name, value) for name, value in leaves.items()})",
        "    tape.values = leaves  # every leaf is already in it: no need to copy, or so it seems\n"
        "    out = fn(**{name: Var(tape, name) for name in leaves})",
    ),
]
