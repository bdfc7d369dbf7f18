"""Write the course's store (`make prepare`): what no submission changes, worked out once (see prepared.py).

    python -m autograder.tools.prepare            # write it when it is missing or stale
    python -m autograder.tools.prepare --force    # write it again (times measured afresh, on this machine)
    python -m autograder.tools.prepare --check    # say whether it is current; exit 1 when it is not

Every property check's examples are drawn, the large inputs built and the reference timed, as
the first submission of a process would, with nothing taken from an older store. Hypothesis
mixes constants from the kit's loaded modules into its examples, so the examples are drawn
with every module of the kit and the course imported: the same examples whichever command
(the CLI, make grade, Gradescope) grades with the store.
"""

import argparse
import importlib
import pkgutil
import sys
import time
from pathlib import Path

from autograder.course import active
from autograder.files import write_atomic
from autograder.grading import prepared, runner, worked_out
from autograder.sandbox.sandbox import learner_code_ran


def kit_modules():
    """The dotted names of the kit's and the course's modules (none that runs a command on import)."""
    names = []
    from autograder.course.paths import EXERCISES, PUBLIC_TESTS_FOLDER, SOLUTIONS, package_name

    folders = [package_name(folder) for folder in (SOLUTIONS, EXERCISES)]
    for package in dict.fromkeys(("autograder", active.name(), *filter(None, folders))):
        try:
            module = importlib.import_module(package)
        except ImportError:
            continue
        names.append(package)
        for found in pkgutil.walk_packages(module.__path__, prefix=f"{package}."):
            last = found.name.rsplit(".", 1)[-1]
            tests = f".{PUBLIC_TESTS_FOLDER}" in found.name or last.startswith("test_") or last == "conftest"
            if last == "__main__" or tests:
                continue
            names.append(found.name)
    return names


def import_all():
    """Import every module of the kit and the course; the names that could not be imported (and why)."""
    failed = []
    for name in kit_modules():
        try:
            importlib.import_module(name)
        except Exception as err:  # noqa: BLE001 - an optional module (an extra's dependency missing) is left out
            failed.append(f"{name} ({type(err).__name__})")
    return failed


def contents(checks=None):
    """The store's bytes for ``checks`` (default: the course's), everything worked out afresh in this process;
    and the checks it could not hold."""
    import_all()
    checks = active.part("checks").all_checks() if checks is None else checks
    runner.use(prepared.Prepared(reason="worked out afresh"))
    examples, inputs, left_out, to_time = {}, {}, [], []
    for check in checks:
        try:
            if check.strategy is not None:
                cases = runner.drawn_examples(check)
                examples[check.id] = (check.examples, prepared.exact(cases))
                continue
            cases = worked_out.inputs(check)
            if callable(check.cases):
                inputs[check.id] = prepared.exact(cases)
        except prepared.Unencodable as err:
            left_out.append(f"{check.id}: {err}")
            continue
        timed = cases if check.expect == "linear_time" else []
        if timed and check.growth is not None:  # the smaller sizes that tell how a call too slow grows
            timed = [*timed, *(each for case in cases for _size, each in check.growth(case)[1])]
        if check.expect == "linear_growth":  # every size the growth is measured at
            timed = [each for case in cases for _size, each in check.growth(case)[1]]
        to_time += timed
    # The reference is timed once everything is drawn and built, with nothing else of this process running: timed
    # beside the drawing, it shared the machine with it, and the growth checks read a learner's time against it (a
    # time too long lets a quadratic call through).
    seconds = {(case.fn, case.label): worked_out.reference_seconds(case) for case in to_time}
    data = prepared.dumps(examples, inputs, seconds)
    held = prepared.loads(data, checks)  # what a grader will read back: the very same cases, or no store
    for check in checks:
        wrote = examples.get(check.id, (0, None))[1] if check.strategy is not None else inputs.get(check.id)
        read = held.examples_of(check) if check.strategy is not None else held.stored_inputs(check)
        if wrote is not None and read != list(wrote):
            raise prepared.StoreError(f"{check.id}: a case read back differs from the one written")
    return data, left_out


def current(where=None):
    """(True, "") when the course's store is current, else (False, why)."""
    held = prepared.load(active.part("checks").all_checks(), where)
    return (not held.reason, held.reason)


def write(where=None, force=False, stream=None):
    """Write the course's store to ``where`` (default: beside the course) unless it is current; return its path."""
    where = Path(where) if where is not None else prepared.path()
    if not force and current(where)[0]:
        return where
    started = time.perf_counter()
    data, left_out = contents()
    if learner_code_ran():  # what it measured or drew could have been steered: never written
        raise prepared.StoreError(
            "this process has run a learner's code; only a process that ran none writes the store"
        )
    write_atomic(where, data)
    if stream is not None:
        for line in left_out:
            print(f"not stored (worked out by each grader): {line}", file=stream)
        print(f"wrote {where} ({len(data) / 1024:.0f} KiB) in {time.perf_counter() - started:.1f} s", file=stream)
    return where


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m autograder.tools.prepare", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="the file to write (default: beside the course's package)")
    parser.add_argument("--force", action="store_true", help="write it even when it is current")
    parser.add_argument("--check", action="store_true", help="only say whether it is current (exit 1 if not)")
    args = parser.parse_args(argv)
    if args.check:
        fresh, why = current(args.out)
        print(f"{args.out or prepared.path()}: " + ("current" if fresh else why))
        return 0 if fresh else 1
    write(args.out, args.force, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
