"""Keeps one tape for the whole module and empties it at each trace: the next trace rewrites the graph and values the last one returned."""

FUNCTION = "trace"
FAILS = ["trace_fresh"]
PATCH = [
    (
        "    tape = Tape()  # a fresh record for this call\n",
        "    tape = _THE_TAPE\n"
        "    tape.graph.clear()  # a fresh start, or so it seems: the caller still holds these very list and dict\n"
        "    tape.values.clear()\n    tape.constants = 0\n",
    ),
]

_THE_TAPE = Tape()
