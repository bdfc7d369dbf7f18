import sys

from autograder.course.active import CourseError

try:
    from autograder.cli import main  # the CLI's modules read the course's folders as they load
except CourseError as err:  # the kit cannot find its course: a setting to fix, never a traceback
    print(f"cannot grade: {err}", file=sys.stderr)
    sys.exit(3)  # the CLI's EXIT_CANNOT_RUN: this machine, not the hand-in, stops the grading

sys.exit(main())
