"""The sandbox child's program: the course's child parts, then child.py, compiled once per process.

Every part is standard library only, and all of it is the kit's and the course's own files: nothing a child made is
ever loaded by the grader.
"""

import functools
import importlib.util
import marshal
from pathlib import Path

from autograder.course import active
from autograder.sandbox import isolation

HERE = Path(__file__).parent
CHILD = HERE / "child.py"  # the child's own code, run after the course's child parts (autograder.course.active)


@functools.lru_cache(maxsize=1)
def child_script():
    """The child's script: the course's child parts, then child.py (all standard library only)."""
    return "\n\n".join(part.read_text(encoding="utf-8") for part in (*active.child_parts(), CHILD))


@functools.lru_cache(maxsize=1)
def child_program():
    """child_script compiled once, as a .pyc file's bytes that the child's interpreter (this one) runs as its script.

    Compiling the script's 900-odd lines took each child about 9 ms of CPU, longer than loading the learner's code.
    The bytes are this process's own, made from the kit's files: nothing the child made is ever loaded here.
    """
    code = compile(child_script(), isolation.SCRIPT_NAME, "exec")
    return importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code)  # no flags, date or size: never checked
