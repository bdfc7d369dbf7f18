"""A cohort's grading folder (OUT) as an nbgrader course: its state, and nbgrader's steps run in it.

OUT holds a copy of the course (notebooks/nbgrader_config.py and notebooks/source/), so
nbgrader works there with the committed course configuration: the config's
``CourseDirectory.root`` is the folder the config file sits in, which is OUT. The copy
of the config gets one line more, pointing HiddenChecks at OUT/cache, so nbgrader
commands an instructor runs by hand in OUT read the same graded records.
cache/state.json remembers what was last copied, mirrored and graded, so each step can
skip the work it already did.

A batch may be killed at any moment (SIGKILL, the OOM killer, a power cut) and simply
run again. Every file the batch writes goes to a temporary ``.<name>.<random>.partial``
beside it and replaces it in one step; ``sweep_partial`` removes what a killed run left of
those. Whatever nbgrader writes itself (gradebook rows, autograded/, feedback/) counts
only once state.json says that hand-in's step finished (autograder/pipeline/batch.py).
"""

import hashlib
import json
import shutil
import sys
import warnings
from pathlib import Path

from autograder.course.lessons import LESSONS
from autograder.course.paths import NOTEBOOKS
from autograder.files import sweep_partial, write_if_changed
from autograder.nbgrader import env, gradebook_url, speedups  # speedups before any module here loads nbformat
from autograder.nbgrader.hidden_checks import PROBLEMS_FILE, course_cells, read_problems

COURSE_FILES = ("nbgrader_config.py", "source")  # what OUT takes from notebooks/
STATE_FILE = "state.json"
# Appended to OUT's copy of the course config, so nbgrader commands run by hand in OUT
# (`nbgrader autograde --force`, the formgrader) read this folder's graded records too.
CACHE_SETTING = """
# Added by autograder.pipeline.batch: the graded records and unreadable hand-ins of this folder.
c.HiddenChecks.cache_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cache")
"""


class BatchError(Exception):
    """The batch cannot run at all; the message says why and what to do."""


def remove(path):
    path = Path(path)
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()


# ---------------------------------------------------------------- the course folder


class Course:
    """OUT as an nbgrader course folder, and the commands run in it."""

    def __init__(self, out, stream=None, db_url=None):
        """``db_url``: the gradebook to use from now on (gradebook_url.py); by default the one OUT's config names, or
        OUT/gradebook.db. BatchError when it cannot be used."""
        self.root = Path(out).resolve()
        self.stream = stream or sys.stderr
        self.cache = self.root / "cache"
        self.logs = self.root / "logs"
        self.state_path = self.cache / STATE_FILE
        try:
            self.state = json.loads(self.state_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.state = {}
        self.state.setdefault("inputs", {})
        self.state.setdefault("graded", {})  # hand-in: signature, once nbgrader autograded it fully
        self.state.setdefault("feedback", {})  # hand-in: signature, once its feedback is fully written
        self._api = None
        self._db_url = None
        if db_url is not None:
            try:
                self._db_url = gradebook_url.check(db_url)
            except gradebook_url.GradebookUrlError as err:
                raise BatchError(f"the gradebook URL: {err}") from None

    @property
    def db_url(self):
        """The gradebook's URL: the one given, else the one OUT's config names (nbgrader's db_url), else
        OUT/gradebook.db."""
        if self._db_url is None:
            default = gradebook_url.folder_default(self.root)
            try:
                configured = self.config().CourseDirectory.get("db_url") or default
            except Exception:  # noqa: BLE001 -- no config yet (a fresh OUT) or one nbgrader cannot load: the default
                configured = default
            self._db_url = configured
        return self._db_url

    def own_gradebook(self):
        """Whether the gradebook is the folder's own SQLite file (the default), not a database of its own."""
        return self.db_url == gradebook_url.folder_default(self.root)

    def has_gradebook(self):
        """Whether OUT was graded: its config, and its gradebook file (or a configured database) with the course in
        it."""
        if not (self.root / "nbgrader_config.py").is_file():
            return False
        if self.own_gradebook():
            return (self.root / "gradebook.db").is_file()
        return self.holds_lessons()

    def holds_lessons(self):
        """Whether the gradebook holds every lesson as an assignment (False when it cannot be opened)."""
        try:
            with self.gradebook() as gradebook:
                return {lesson.assignment for lesson in LESSONS} <= {a.name for a in gradebook.assignments}
        except Exception:  # noqa: BLE001 -- an unreachable database holds nothing yet; the step that needs it says why
            return False

    def path(self, step, student="", assignment="", name=""):
        return self.root / step / student / assignment / name

    def save_state(self):
        write_if_changed(self.state_path, json.dumps(self.state, indent=1, sort_keys=True) + "\n")

    def config(self):
        """The course configuration: OUT/nbgrader_config.py, as nbgrader loads it."""
        from traitlets.config.loader import PyFileConfigLoader

        return PyFileConfigLoader("nbgrader_config.py", path=str(self.root)).load_config()

    def api(self):
        """nbgrader's Python API (the one its formgrader uses) on OUT, configured by the course config.

        Its generate_assignment, autograde and generate_feedback run the same converters as
        the nbgrader commands do, in this process, so no command pays nbgrader's start-up
        again. Only the course config is read: a personal ~/.jupyter cannot change the course.
        """
        if self._api is None:
            import logging

            from nbgrader.apps.api import NbGraderAPI
            from nbgrader.coursedir import CourseDirectory

            speedups.install()
            config = self.config()
            config.CourseDirectory.root = str(self.root)
            config.CourseDirectory.db_url = self.db_url
            config.GenerateFeedback.exporter_class = speedups.exporter_class()  # nbconvert's, templates compiled once
            log = logging.getLogger("graphkit.nbgrader")
            log.propagate = False  # nbgrader's messages go to logs/, not to the terminal
            log.setLevel(logging.INFO)
            if not log.handlers:
                log.addHandler(logging.NullHandler())
            with env.alembic_on_path():
                self._api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config, log=log)
        return self._api

    def gradebook(self):
        """nbgrader's Gradebook on OUT's gradebook (``db_url``), to use in a ``with`` block."""
        from nbgrader.api import Gradebook

        speedups.install()
        return Gradebook(self.db_url)

    def run(self, step, *args):
        """Run one step of nbgrader's API in this process (e.g. "autograde", assignment, student); its result dict."""
        with env.alembic_on_path(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # nbgrader's own SQLAlchemy warnings; its log keeps what matters
            return dict(getattr(self.api(), step)(*args))

    def call(self, step, *args, log, runner=None):
        """One step of nbgrader's API, by ``runner`` (default: ``run``, in this process); its log goes to
        logs/<log>.log.

        A runner is any function with ``run``'s arguments and result: the batch passes one
        that waits for a worker process already running the step.
        """
        result = (runner or self.run)(step, *args)
        self.logs.mkdir(parents=True, exist_ok=True)
        with open(self.logs / f"{log}.log", "a", encoding="utf-8") as handle:
            handle.write(f"== nbgrader {step} {' '.join(args)}\n{result.get('log', '')}{result.get('error', '')}\n")
        return result

    def start_log(self, log):
        self.logs.mkdir(parents=True, exist_ok=True)
        (self.logs / f"{log}.log").write_text("", encoding="utf-8")

    def log_tail(self, log, lines=15):
        text = (self.logs / f"{log}.log").read_text(encoding="utf-8", errors="replace").splitlines()
        return "\n".join(text[-lines:])

    # -- step 1 --------------------------------------------------------------
    def prepare(self, swept=None):
        """Copy the course into OUT and make its release notebooks and gradebook current. ``swept()``, if given, runs
        once what a killed run left half-written is swept away, before the course is made."""
        url = self.db_url  # before the config is written again: a folder keeps the gradebook it was given
        self.root.mkdir(parents=True, exist_ok=True)
        sweep_partial(self.root)
        if swept is not None:
            swept()
        digest = hashlib.sha256()
        own = self.own_gradebook()
        if not own:  # another gradebook: the course goes into it and every hand-in is graded into it again
            digest.update(b"db_url\0" + url.encode() + b"\0")
        for name in COURSE_FILES:
            source = NOTEBOOKS / name
            files = sorted(p for p in source.rglob("*") if p.is_file()) if source.is_dir() else [source]
            for path in files:
                if ".ipynb_checkpoints" in path.parts:
                    continue
                relative = path.relative_to(NOTEBOOKS)
                data = path.read_bytes()
                digest.update(str(relative).encode() + b"\0" + data + b"\0")
                if relative.name == "nbgrader_config.py":
                    data += CACHE_SETTING.encode() + (b"" if own else gradebook_url.setting(url).encode())
                write_if_changed(self.root / relative, data)
        dues = self.due_dates()  # part of the digest: dates the config works out (relative to today) may change alone
        digest.update(json.dumps({a: str(due) for a, due in dues.items()}, sort_keys=True).encode())
        held = (self.root / "gradebook.db").exists() if own else self.holds_lessons()
        fresh = not held or not all(self.release(lesson).exists() for lesson in LESSONS)
        if fresh or self.state.get("course") != digest.hexdigest():
            self.start_log("generate_assignment")
            for lesson in LESSONS:
                if not self.call("generate_assignment", lesson.assignment, log="generate_assignment")["success"]:
                    raise BatchError(f"nbgrader generate_assignment failed:\n{self.log_tail('generate_assignment')}")
            self.state["course"] = digest.hexdigest()
            self.state["graded"] = {}  # new grade cells or points: every hand-in is graded again
            self.state["feedback"] = {}
            self.save_state()
        self.set_due_dates(dues)

    def due_dates(self):
        """{assignment: due date} from the course config's ``c.Deadlines.due``."""
        from nbgrader.utils import parse_utc

        config = self.config()
        due = config.Deadlines.due if "due" in config.Deadlines else {}
        return {assignment: parse_utc(text) for assignment, text in dict(due).items()}

    def set_due_dates(self, dues=None):
        with self.gradebook() as gradebook:
            for assignment, due in (self.due_dates() if dues is None else dues).items():
                known = {a.name: a for a in gradebook.assignments}
                if assignment in known and known[assignment].duedate != due:
                    gradebook.update_or_create_assignment(assignment, duedate=due)

    def release(self, lesson):
        return self.path("release", "", lesson.assignment, lesson.notebook)

    def problems(self):
        """{"student/assignment/notebook.ipynb": message} for notebooks graded as unreadable."""
        return read_problems(self.cache)

    def save_problems(self, problems):
        path = self.cache / PROBLEMS_FILE
        write_if_changed(path, json.dumps(problems, indent=1, sort_keys=True) + "\n")

    def submissions(self):
        """{(student, assignment): [notebook relative paths]} of what OUT/submitted holds."""
        found = {}
        for lesson in LESSONS:
            for path in sorted(self.root.glob(f"submitted/*/{lesson.assignment}/{lesson.notebook}")):
                student = path.parent.parent.name
                found.setdefault((student, lesson.assignment), []).append(
                    f"{student}/{lesson.assignment}/{lesson.notebook}"
                )
        return found

    # -- the gradebook, as plain data for the pipeline ---------------------------
    def grade_cells(self):
        """{assignment: ({grade_id: points}, test ids)} of every lesson, from the gradebook."""
        with self.gradebook() as gradebook:
            return {
                lesson.assignment: course_cells(gradebook, Path(lesson.notebook).stem, lesson.assignment)
                for lesson in LESSONS
            }

    def gradebook_scores(self):
        """({assignment: max score}, {student: {assignment: (score after the late penalty, seconds late, penalty)}})."""
        with self.gradebook() as gradebook:
            learners = {student: {} for student in sorted(s.id for s in gradebook.students)}
            most = {}
            for lesson in LESSONS:  # one query per lesson for all its submissions
                assignment = gradebook.find_assignment(lesson.assignment)
                most[lesson.assignment] = assignment.max_score
                for submission in sorted(assignment.submissions, key=lambda s: s.student_id):
                    penalty = submission.late_submission_penalty or 0.0
                    learners[submission.student_id][lesson.assignment] = (
                        submission.score - penalty,
                        submission.total_seconds_late,
                        penalty,
                    )
        return most, learners

    def remove_gone(self):
        """Drop gradebook submissions, autograded/, feedback/ and results/ of hand-ins no longer submitted."""
        from nbgrader.api import MissingEntry

        present = {f"{s}/{a}" for s, a in self.submissions()}
        with self.gradebook() as gradebook:
            for lesson in LESSONS:  # one query per lesson for all its submissions
                try:
                    submitted = gradebook.find_assignment(lesson.assignment).submissions
                except MissingEntry:
                    continue
                for student in sorted(
                    s.student_id for s in submitted if f"{s.student_id}/{lesson.assignment}" not in present
                ):
                    for step in (
                        "autograded",
                        "feedback",
                    ):  # the files first: a kill leaves the submission to find again
                        remove(self.path(step, student, lesson.assignment))
                    remove(self.root / "results" / student / f"{lesson.assignment}.json")
                    gradebook.remove_submission(lesson.assignment, student)

    def export_grades(self, assignments=None):
        """grades.csv with what `nbgrader export` writes, every field quoted; rewritten only when it changes.

        ``assignments``: the assignments to export (default every one of the gradebook).

        The columns, rows and values are those of nbgrader's CsvExportPlugin: a row per
        assignment and learner of the gradebook, 0 for a lesson not handed in. nbgrader
        writes them unquoted, so a comma or a newline in a name shifts the columns;
        here they go through the csv module with every field quoted, and a cell that a
        spreadsheet could take for a formula (starting with =, +, -, @, a tab or a carriage
        return: a name copied into the gradebook from the LMS, say) gets a leading single quote.
        """
        import csv
        import io

        def cell(value):
            text = "" if value is None else str(value)
            return "'" + text if text.startswith(("=", "+", "-", "@", "\t", "\r")) else text

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)
        writer.writerow(
            (
                "assignment",
                "duedate",
                "timestamp",
                "student_id",
                "last_name",
                "first_name",
                "email",
                "raw_score",
                "late_submission_penalty",
                "score",
                "max_score",
            )
        )  # CsvExportPlugin's columns
        with self.gradebook() as gradebook:
            students = gradebook.students
            for assignment in gradebook.assignments:
                if assignments is not None and assignment.name not in assignments:
                    continue
                submitted = {submission.student_id: submission for submission in assignment.submissions}
                for student in students:
                    submission = submitted.get(student.id)
                    if submission is None:
                        handed_in = ("", 0.0, 0.0, 0.0)
                    else:
                        penalty = submission.late_submission_penalty
                        handed_in = (
                            submission.timestamp,
                            submission.score,
                            penalty,
                            max(0.0, submission.score - penalty),
                        )
                    timestamp, raw_score, penalty, score = handed_in
                    writer.writerow(
                        cell(value)
                        for value in (
                            assignment.name,
                            assignment.duedate,
                            timestamp,
                            student.id,
                            student.last_name,
                            student.first_name,
                            student.email,
                            raw_score,
                            penalty,
                            score,
                            assignment.max_score,
                        )
                    )
        write_if_changed(self.root / "grades.csv", out.getvalue())
