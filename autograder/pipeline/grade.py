"""``make grade`` and ``make collect``: the answers that cost nothing first, then the batch.

    python -m autograder.pipeline.grade [--out OUT] [--submissions DIR | --zip FILE [--assignment ID]] [--workers N]

takes the arguments of autograder/pipeline/batch.py and, before importing nbgrader or starting
any pool:

1. refuses an input that is not there (autograder/pipeline/refusals.py), with the batch's message;
2. prints what the last complete run printed when nothing changed since (autograder/pipeline/unchanged.py).

Otherwise it runs the batch, which grades what changed and keeps, once it is complete, what the
next run compares.
"""

import sys
import time
from pathlib import Path

from autograder.pipeline import command, refusals, unchanged
from autograder.pipeline.command import DONE, NOTHING, inputs_digest


def parser(description=__doc__, prog="python -m autograder.pipeline.grade"):
    """The batch's command line (autograder/pipeline/command.py), with this front's help."""
    return command.parser(description, prog)


def nothing_changed(out, printed):
    """What the batch prints when it finds nothing to do: the last complete run's table and notes, and that."""
    for line in printed:
        print(line)
    print(f"\n{NOTHING}; {DONE} {Path(out)}/")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser().parse_args(argv)
    refusal = refusals.of_batch(args.out, args.submissions, args.zip, args.assignment)
    if refusal:
        print(f"error: {refusal}", file=sys.stderr)
        return 2
    digest = inputs_digest(args)
    printed = unchanged.answer(args.out, digest) if digest else None
    if printed is not None:
        nothing_changed(args.out, printed)
        return 0
    from autograder.pipeline import batch  # nbgrader, and the pools, only when there is something to do

    return batch.main(argv, started=time.monotonic())


if __name__ == "__main__":
    sys.exit(main())
