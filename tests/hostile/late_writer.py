"""Leaves a process at import in a session of its own, working in / with an empty environment, that writes a file into /tmp two seconds after grading; every function is honest."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": "full"}


import os
import sys

MARKER = "graphkit-hostile-late_writer"
LATER = f"import time; time.sleep(2); open('/tmp/{MARKER}-' + str(__import__('os').getpid()), 'w').write('rewritten')"


def leave():
    pid = os.fork()
    if pid:
        os.waitpid(pid, 0)
        return
    try:
        os.setsid()
        if os.fork():
            os._exit(0)
        os.chdir("/")
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(3, 1024)
        os.execve(sys.executable, [sys.executable, "-I", "-S", "-c", LATER, MARKER], {})
    finally:
        os._exit(0)


leave()
