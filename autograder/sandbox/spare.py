"""A sandbox child started before the code it will run is known, for the first sandbox of a fresh grading process.

A process started to grade one hand-in (the CLI: Gradescope's run_autograder, CI) reads the hand-in and finds its
checks before its first sandbox starts a child, and then waits while the child's interpreter starts and reads its
script. A child started at the outset does that on another core meanwhile. It has been sent nothing, so the sandbox
that takes it loads the learner's code, marking memory first when asked, as in a child it started itself. It is taken
only by a learner's sandbox with the same limits, in the isolation it started in: any other start ends it, and
sandbox.close_all() ends it when nothing took it.
"""

import threading

from autograder.sandbox import isolation, launch
from autograder.sandbox.removal import remove_tree

_SPARE = []  # the sandbox holding the spare child, until a start takes it
_PROBING = []  # probe_early's thread, once started


def probe_early(then=None):
    """Probe the cgroups and the isolation the machine gives, each in a thread of its own, once per process, while
    this one loads the grader's modules, then run ``then()`` (the spare's start); both probes wait on programs they
    start, so they cost this thread little. Not daemons: a process that ends sooner waits for the cgroup probe to
    remove its group."""
    if _PROBING:
        return
    from autograder.sandbox import cgroups  # loaded here, not by every process that reads this module

    def isolation_probe():
        try:
            isolation.probe()
        except Exception:  # noqa: BLE001 -- the first child's start probes again, and says what fails
            pass

    def run():
        beside = threading.Thread(target=isolation_probe, name="graphkit-probe-isolation")
        beside.start()
        cgroups.cgroup_base()
        beside.join()
        if then is not None:
            then()

    _PROBING.append(threading.Thread(target=run, name="graphkit-probe"))
    _PROBING[0].start()


def settle():
    """Wait until probe_early's thread, if any, has run: its probes are done, and so is the spare's start after them.
    A sandbox's start calls it before it probes the isolation itself, or looks for the spare."""
    for thread in _PROBING:
        if thread is not threading.current_thread():
            thread.join()


def start(make, limits):
    """Start the spare child, unless one waits: ``make([], limits)`` is the idle sandbox that holds it. From a second
    thread, only where nothing of Python's runs between fork and exec (launch.gated). Never raises: the start that
    would take it starts a child itself, and says what fails."""
    if _SPARE and _SPARE[0]._proc is not None:
        return
    settle()  # the probes are done: not worked out twice (in probe_early's thread, they are)
    _SPARE.clear()  # one close_all() ended
    holder = make([], limits)
    try:
        if threading.current_thread() is threading.main_thread() or launch.gated(isolation.write_barrier()):
            holder._spawn(isolation.mode())
            _SPARE.append(holder)
    except Exception:  # noqa: BLE001 -- see above
        holder.close()
        if holder._group is not None:
            holder._group.remove()
        if holder._folder is not None:
            remove_tree(holder._folder)


def take(sandbox, mode):
    """The holder of the spare child, its child running, for ``sandbox`` starting in isolation ``mode`` if it suits
    it; else None, and the spare, if any, is ended."""
    try:
        holder = _SPARE.pop()
    except IndexError:
        return None
    proc = holder._proc
    suits = not sandbox.reference and holder.limits == sandbox.limits and holder._mode == mode
    if suits and proc is not None and proc.poll() is None:
        return holder
    holder.close()
    return None
