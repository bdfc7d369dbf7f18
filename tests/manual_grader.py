"""One grader in the formgrader, as a process of its own: sets grades and comments by hand, one change per commit.

    python -m tests.manual_grader DB_URL MARKS_JSON STOP_FILE

MARKS_JSON lists [student, assignment, notebook, grade cell, score, comment cell, comment]. The grader
sets every mark in turn, each score and each comment committed on its own as the formgrader's
requests do, and goes round again until STOP_FILE exists (at least once); then prints how many
rounds it made. Nothing here is retried: a write the database refused fails the grader.
"""

import json
import sys
import time
from pathlib import Path

from autograder.nbgrader import env, speedups


def main(url, marks_file, stop_file):
    speedups.install()
    from nbgrader.api import Gradebook

    marks = json.loads(Path(marks_file).read_text(encoding="utf-8"))
    rounds = 0
    with env.alembic_on_path(), Gradebook(url, "graphkit") as gradebook:
        while not rounds or not Path(stop_file).exists():
            for student, assignment, notebook, cell, score, comment_cell, comment in marks:
                gradebook.find_grade(cell, notebook, assignment, student).manual_score = score
                gradebook.db.commit()
                gradebook.find_comment(comment_cell, notebook, assignment, student).manual_comment = comment
                gradebook.db.commit()
                time.sleep(0.05)
            rounds += 1
    print(json.dumps({"rounds": rounds}))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
