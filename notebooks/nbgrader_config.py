"""nbgrader settings for the graphkit course. Run nbgrader commands from this directory."""

import os

c = get_config()  # noqa: F821 -- nbgrader provides get_config when it loads this file

# The course these assignments belong to; it names the gradebook's course.
c.CourseDirectory.course_id = "graphkit"

# The course is the directory holding this file (source/, release/, submitted/,
# gradebook.db ...), wherever it is checked out or copied.
c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))

# What replaces each solution region in the released notebooks. {task} names what the cell is for
# ("task evaluate", "answer ORDER"): autograder.nbgrader.named_stubs.NamedStubs takes the place of
# nbgrader's ClearSolutions in generate_assignment and fills it in, cell by cell.
c.ClearSolutions.code_stub = {"python": '# YOUR CODE HERE\nraise NotImplementedError("{task}: not written yet")'}

# Seconds one cell may run under `nbgrader validate` (autograding runs no kernel, see below).
c.Execute.timeout = 30

# ---------------------------------------------------------------- releasing and autograding

from nbgrader.converters.autograde import Autograde  # noqa: E402 -- after get_config, as nbgrader's own examples do
from nbgrader.converters.generate_assignment import GenerateAssignment  # noqa: E402
from nbgrader.converters.generate_feedback import GenerateFeedback  # noqa: E402
from nbgrader.preprocessors import ClearSolutions, Execute  # noqa: E402

c.GenerateAssignment.preprocessors = [
    "autograder.nbgrader.named_stubs.NamedStubs" if step is ClearSolutions else step
    for step in GenerateAssignment.class_traits()["preprocessors"].default()
]

# `nbgrader autograde` does not start a kernel: where nbgrader's default list has Execute,
# autograder.nbgrader.hidden_checks.HiddenChecks grades the notebook's code with the hidden checks
# (graphcourse/checks/) in the sandbox and writes each grade cell's score and teaching
# messages as its outputs. Every other step of nbgrader's lists stays. Two run as subclasses that
# read the notebook's gradebook rows in a few queries instead of a few per cell, and SaveAutoGrades'
# subclass commits once per notebook; what they check and save is nbgrader's own.
from nbgrader.preprocessors import OverwriteCells, SaveAutoGrades  # noqa: E402

_IN_PLACE_OF = {
    Execute: "autograder.nbgrader.hidden_checks.HiddenChecks",
    OverwriteCells: "autograder.nbgrader.overwrite_cells.OverwriteCellsReadOnce",
    SaveAutoGrades: "autograder.nbgrader.save_grades.SaveAutoGradesAtOnce",
}
for _steps in ("sanitize_preprocessors", "autograde_preprocessors"):
    c.Autograde[_steps] = [_IN_PLACE_OF.get(step, step) for step in Autograde.class_traits()[_steps].default()]
# Graded records and unreadable notebooks, written by `make grade`; empty means grade on the spot.
c.HiddenChecks.cache_dir = ""
# The sandbox's limits (autograder/sandbox/limits.py, Limits) may be changed here, e.g.
# c.HiddenChecks.limits = {"submission_seconds": 120.0}; c.HiddenChecks.shrink = False reports a failing
# property example as found instead of the smallest one. Both are part of every record's cache key.
# A grade cell the learner deleted is put back, so every grade cell gets a score.
c.OverwriteCells.add_missing_cells = True

# nbconvert checks a notebook against nbformat's schema after every preprocessor (about ten in
# autograde), an eighth of autograde's time; once, after the last one, catches the same errors.
c.Exporter.optimistic_validation = True

# Feedback shows each grade cell's visible tests and its teaching messages, never hidden tests
# (nbgrader's ClearHiddenTests, applied to test cells only). Last, a learner's markdown, raw
# cells and outputs are made inert: no script, event handler or javascript: link of theirs
# reaches the page (bleach, as nbconvert's SanitizeHTML uses it).
c.GenerateFeedback.preprocessors = [
    "autograder.nbgrader.hide_hidden_tests.HideHiddenTests",
    *GenerateFeedback.class_traits()["preprocessors"].default(),
    "autograder.nbgrader.capped_code.CappedCode",  # a page shows at most 200,000 characters of code
    "autograder.nbgrader.sanitize.notebook.SanitizeMarkup",
    "autograder.nbgrader.feedback_page.GradeCellSummary",
]

# The feedback page is the kit's template (autograder/nbgrader/templates/graphkit_feedback/), which
# extends nbgrader's own: it opens with a table of the grade cells (title, grade id, points, a one-line
# message, each linked to the cell), and long output lines wrap. GradeCellSummary, last above, gives each
# grade cell its title and message. The template ships with the installed kit, so the path resolves from
# any copy of this file. Set under GenerateFeedback, so nbgrader's other pages (the formgrader) keep theirs.
from autograder.nbgrader import feedback_page  # noqa: E402

c.GenerateFeedback.HTMLExporter.template_name = feedback_page.TEMPLATE_NAME
c.GenerateFeedback.HTMLExporter.template_file = feedback_page.TEMPLATE_FILE
c.GenerateFeedback.HTMLExporter.extra_template_basedirs = feedback_page.template_dirs()

# Late work: nbgrader's autograde step takes this share of a notebook's score for every started day
# after the due date (autograder/nbgrader/late_penalty.py); grades.csv shows the penalty and the score
# after it. Set percent_per_day = 0 for no penalty, or 100 for none of a late hand-in's points.
c.AssignLatePenalties.plugin_class = "autograder.nbgrader.late_penalty.PercentPerDay"
c.PercentPerDay.percent_per_day = 10

# Due dates, set in the gradebook by `make grade`; a later timestamp.txt (for `make collect`, the upload
# time in the LMS download) is late. Each lesson gives its own on its first line (notebooks/lessons/:
# due="2026-03-13 23:59:00 UTC"); the graph course's lessons give none, and its dates part gives the
# demo term's, relative to the day it is graded (graphcourse/dates.py).
from autograder.course.due_dates import due_dates  # noqa: E402

c.Deadlines.due = due_dates()

# ---------------------------------------------------------------- Gradescope and Canvas

# When learners see each test of their Gradescope results (autograder/grading/visibility.py), per check
# family or group ("property": the checks that try generated examples; "answers": the answer cells), one of
# "visible", "after_due_date", "after_published", "hidden"; every other test is visible. `make gradescope`
# puts it in the zip. For example:
#     c.GradescopeResults.visibility = {"property": "after_due_date"}
c.GradescopeResults.visibility = {}

# The Canvas assignment each lesson's column of `make export-canvas` goes to (the number in the assignment's
# address in Canvas); a lesson without one becomes a new Canvas assignment when the CSV is imported. For example:
#     c.CanvasExport.assignment_ids = {"lesson1_graphs": 123456, "lesson2_backward": 123457}
c.CanvasExport.assignment_ids = {}

# ---------------------------------------------------------------- collecting an LMS download

# The names of a Canvas "Download Submissions" zip: <login>_[LATE_]<user id>_<submission id>_<file>.ipynb,
# where a resubmitted file may carry a "-1", "-2" ... suffix.
#
# `make collect ZIP=...` reads such a download itself (autograder/pipeline/collect.py, with
# the same names): only the download's own entries name learners, archives that learners
# uploaded are never unpacked, resubmissions keep the latest, and unpacking is capped.
# The settings below are for `nbgrader zip_collect` run by hand: archives put in
# downloaded/<assignment>/archive/ are unpacked into downloaded/<assignment>/extracted/,
# nested archives included, and every file whose path matches named_regexp is copied to
# submitted/<student_id>/<assignment>/<file_id>. It believes the names inside archives a
# learner uploaded (one learner can hand in as another), so prefer `make collect`.
c.ZipCollectApp.extractor_plugin = "nbgrader.plugins.ExtractorPlugin"
c.ExtractorPlugin.zip_ext = [".zip", ".gz"]
c.ZipCollectApp.collector_plugin = "nbgrader.plugins.FileNameCollectorPlugin"
c.FileNameCollectorPlugin.valid_ext = [".ipynb"]
c.FileNameCollectorPlugin.named_regexp = (
    r".*/(?P<student_id>[A-Za-z0-9]+)_(?:LATE_)?[0-9]+_[0-9]+_(?P<file_id>[A-Za-z0-9_]+?)(?:-[0-9]+)?\.ipynb$"
)
