"""Run the batch and SIGKILL it halfway through writing a line of OUT/history.jsonl, as a kill mid-write leaves it.

    python tests/history_killer.py [batch arguments ...]

The first append (the first learner's decisions) is written whole; the second writes the first half
of its first line, then the process dies: the file ends in a cut line, as when a kill lands inside
the write. Production code carries no
such hook; this wrapper replaces history.append in this process only.
"""

import json
import os
import signal
import sys


def inject():
    from autograder.pipeline import batch, history

    whole, calls = history.append, []

    def append(out, lines):
        calls.append(out)
        if len(calls) == 1:
            whole(out, lines)
        elif lines:
            data = json.dumps(lines[0], sort_keys=True, separators=(",", ":")).encode()
            with open(history.path_of(out), "ab") as handle:
                handle.write(data[: len(data) // 2])
                handle.flush()
                os.fsync(handle.fileno())
            os.kill(os.getpid(), signal.SIGKILL)

    history.append = append
    return batch


if __name__ == "__main__":
    sys.exit(inject().main(sys.argv[1:]))
