import os
import sys


def start_spare():
    from autograder.sandbox import sandbox  # loaded by the probes' thread while the other loads the rest

    sandbox.start_spare()


def end_now(code):
    """End a grading process once its results are written, without tearing the interpreter down: freeing every
    object the checks built and collecting them costs a fresh process a sixth of its time, and nothing is left to
    run then. What the process started is done (the probes' thread has removed its group; close_all ended every
    child) and what it printed is flushed; a stream that cannot be flushed leaves the usual ending to report it."""
    from autograder.sandbox import spare

    spare.settle()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return code
    os._exit(0 if code is None else code if type(code) is int else 1)  # as sys.exit(code) would end


def run():
    grading = sys.argv[1:2] == ["grade"]
    if grading:  # the sandbox's probes, then a spare child, start while the grader's modules load
        from autograder.sandbox import spare

        spare.probe_early(then=start_spare)
    from autograder.cli import main  # the course is found when first used: main() exits 3 naming one it cannot find

    code = main()
    return end_now(code) if grading else code


sys.exit(run())
