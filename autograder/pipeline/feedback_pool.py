"""Step 5 of the batch: nbgrader's feedback pages, written in a pool of workers while autograde goes on."""

import collections
import io
import os
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from autograder.course.lessons import LESSONS
from autograder.course.paths import NOTEBOOKS
from autograder.files import sha
from autograder.nbgrader import course_pictures, manual_grades
from autograder.nbgrader.course_folder import Course, remove
from autograder.pipeline.pool import die_with, outcome
from autograder.pipeline.progress import Progress


def write_feedback(course, assignment, student):
    """nbgrader generate_feedback for one hand-in, in this process, its old feedback removed first; nbgrader's
    result."""
    remove(course.path("feedback", student, assignment))
    return course.run("generate_feedback", assignment, student)


_worker_course = []  # a feedback worker's own Course on OUT, with its own nbgrader API


def _feedback_worker(parent, root):
    """Pool initializer: a feedback worker dies with the batch, and opens OUT with an nbgrader API of its own."""
    die_with(parent)
    _worker_course.append(Course(root, io.StringIO()))


def _feedback_job(handin):
    student, assignment = handin.split("/")
    try:
        return write_feedback(_worker_course[0], assignment, student)
    except Exception:  # noqa: BLE001 - reported as this hand-in's failure
        return {"success": False, "error": traceback.format_exc()}


def _draw(course, assignments):
    """The child drawing the pictures of the lessons of ``assignments`` (course_pictures.draw_ahead), or None."""
    sources = [NOTEBOOKS / "source" / lesson.assignment / lesson.notebook for lesson in LESSONS]
    sources = [s for s in sources if s.parent.name in assignments and s.is_file()]
    return course_pictures.draw_ahead(sources, course.cache) if sources else None


class Early:
    """The pictures of the lessons a batch's input holds, drawn from its outset, while nbgrader makes the course:
    a core the batch leaves idle then draws them, not one the hidden checks need later. A Feedback takes the child
    over; one never handed over is ended by ``close``."""

    def __init__(self):
        self.child, self.assignments = None, set()

    def start(self, course, folder):
        """Start drawing the lessons whose assignment ``folder`` (laid out as nbgrader's submitted/) holds for
        any learner. Its names are only compared with the course's assignments."""
        names, found = {lesson.assignment for lesson in LESSONS}, set()
        try:
            for learner in Path(folder).iterdir():
                found |= {name for name in names - found if (learner / name).is_dir()}
                if found == names:
                    break
        except OSError:
            return
        self.assignments = found
        self.child = _draw(course, found)

    def hand_over(self):
        """([the drawing child], the assignments it draws), for a Feedback: from now on it waits for or ends it."""
        child, self.child = self.child, None
        return [child], set(self.assignments)

    def close(self):
        if self.child is not None:
            self.child.kill()
            self.child.wait()
            self.child = None


class Feedback:
    """nbgrader generate_feedback for hand-ins handed over as they are ready, in ``workers`` processes.

    Feedback counts as finished once state.json marks it so, which happens only after
    nbgrader wrote all of it: a page a kill cut off is written again. generate_feedback
    only reads the gradebook, so with several workers it runs in that many processes, each
    with its own nbgrader API writing page after page, while this process autogrades the
    next hand-ins (the gradebook's one writer). With one worker, pages are written here, in
    ``finish``, once autograde is done. A hand-in's mark is dropped before its page is
    started; results are taken in the order hand-ins were handed over, and this process
    alone writes the log and state.json, marking each hand-in once its pages are written.
    The lessons' own pictures are drawn first, in one child for all of them (course_pictures.draw_ahead).
    """

    def __init__(self, course, workers=1, marks=None, early=None):
        """``early``: an Early whose drawing this writer takes over (it waits for it, or ends it on leaving)."""
        self.course = course
        self.marks = {h: manual_grades.digest(m) for h, m in (marks or {}).items()}  # hand-in: what graders set
        self.written = []  # hand-ins whose pages were written in this run
        self.workers = max(1, workers)
        self.pool = None
        self.queue = collections.deque()  # (hand-in, its future; None: to be written in this process)
        self.handed = set()
        self.failed = []
        self.bar = None
        self.expected = 0  # hand-ins announced by ``expect`` and not handed over yet: the bar counts them already
        self.drawing = []  # the children drawing the lessons' pictures, waited for before the first page
        self.drawn = set()  # the assignments whose pictures are drawn or being drawn
        if early is not None:
            self.drawing, self.drawn = early.hand_over()

    def draw(self, handins):
        """Start drawing the pictures of the lessons of ``handins`` not drawn yet, all in one child."""
        assignments = {h.split("/")[1] for h in handins} - self.drawn
        self.drawn |= assignments
        self.drawing.append(_draw(self.course, assignments))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for child in filter(None, self.drawing):  # a batch stopped before its first page: its pictures are not waited
            child.kill()
            child.wait()
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
        if self.bar is not None:
            self.bar.close()

    def mark(self, handin):
        """What state.json keeps once a hand-in's feedback is written: its autograde mark, with its manual marks if any.

        A grader's change in the formgrader changes it, so the page is written again; autograding is not redone.
        """
        graded = self.course.state["graded"][handin]
        marks = self.marks.get(handin, "")
        return sha(f"{graded}/{marks}".encode()) if marks else graded

    def expect(self, handins):
        """``handins`` will be handed over one by one (by autograde): the progress bar counts them from now, and their
        lessons' pictures are drawn meanwhile."""
        self._count(len(handins))
        self.expected += len(handins)
        self.draw(handins)

    def _count(self, more):
        """``more`` steps on the progress bar, opened (with the log) the first time."""
        if self.bar is None:
            self.course.start_log("generate_feedback")
            self.bar = Progress("nbgrader feedback", more, self.course.stream)
        elif more:
            self.bar.extend(more)

    def add(self, handins):
        """Start the feedback of ``handins`` (autograded, and marked so), in a worker if there are several."""
        handins = [h for h in handins if h not in self.handed]
        if not handins:
            return
        course, fed = self.course, self.course.state["feedback"]
        announced = min(self.expected, len(handins))
        self.expected -= announced
        self._count(len(handins) - announced)
        if [fed.pop(handin, None) for handin in handins] != [None] * len(handins):
            course.save_state()
        self.draw(handins)
        while self.drawing:
            course_pictures.wait(self.drawing.pop())
        if self.workers > 1 and self.pool is None:
            self.pool = ProcessPoolExecutor(
                max_workers=self.workers, initializer=_feedback_worker, initargs=(os.getpid(), str(course.root))
            )
        for handin in handins:
            self.handed.add(handin)
            self.queue.append((handin, self.pool.submit(_feedback_job, handin) if self.pool else None))

    def take(self, wait=True):
        """Mark the hand-ins whose feedback is done, in the order they were handed over; with ``wait``, all of them."""
        course = self.course
        fed = course.state["feedback"]
        while self.queue and (wait or (self.queue[0][1] is not None and self.queue[0][1].done())):
            handin, future = self.queue.popleft()
            student, assignment = handin.split("/")
            result = outcome(future) if future is not None else write_feedback(course, assignment, student)
            if course.call(
                "generate_feedback",
                assignment,
                student,
                log="generate_feedback",
                runner=lambda step, *args, result=result: result,
            )["success"]:
                fed[handin] = self.mark(handin)
                self.written.append(handin)
                course.save_state()
            else:
                self.failed.append(handin)
            self.bar.advance()

    def finish(self):
        """Feedback for every autograded hand-in still without finished feedback; return the ones that failed."""
        graded, fed = self.course.state["graded"], self.course.state["feedback"]
        self.add(
            [
                h
                for h in sorted(graded)
                if (fed.get(h) != self.mark(h) or not self.course.path("feedback", *h.split("/")).exists())
                and self.course.path("autograded", *h.split("/")).exists()
            ]
        )
        self.take()
        return self.failed
