"""The batch's worker pools: workers that die with the batch, and jobs streamed through them a few at a time."""

import ctypes
import os
import signal
import sys
import traceback
from concurrent.futures import FIRST_COMPLETED, wait

WORKERS = os.cpu_count() or 2  # worker processes of the hidden checks and of the feedback: every core
AHEAD = 2  # jobs handed to the pool per worker before their results are taken: the pool never holds more


def die_with(parent):
    """Pool initializer: the worker is killed when the batch process dies, even by SIGKILL.

    Otherwise a worker left without its parent waits for work forever.
    """
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the batch died before the line above
        os._exit(1)


def streamed(pool, work, jobs, window):
    """work(job) for every job, in pool, at most ``window`` at a time; yield the results as they finish."""
    jobs = iter(jobs)
    running = {pool.submit(work, job) for job in _take(jobs, window)}
    while running:
        finished, running = wait(running, return_when=FIRST_COMPLETED)
        running |= {pool.submit(work, job) for job in _take(jobs, len(finished))}
        for future in finished:
            yield future.result()


def _take(jobs, count):
    return [job for _, job in zip(range(count), jobs)]


def outcome(future):
    try:
        return future.result()
    except Exception:  # noqa: BLE001 - a worker that died fails its own hand-in only
        return {"success": False, "error": traceback.format_exc()}
