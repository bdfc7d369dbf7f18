"""The course's late policy, as an nbgrader late-submission plugin: a share of the score per day late.

notebooks/nbgrader_config.py puts it in ``c.AssignLatePenalties.plugin_class``; nbgrader's
autograde step then stores the penalty in the gradebook, grades.csv shows it in its
``late_submission_penalty`` column and subtracts it in ``score``, and the cohort report
shows it beside the lateness.
"""

import math

from nbgrader.plugins import LateSubmissionPlugin
from traitlets import Float

DAY = 24 * 3600


class PercentPerDay(LateSubmissionPlugin):
    """Take ``percent_per_day`` of a notebook's score for every day or part of a day it is late."""

    percent_per_day = Float(
        10.0, help="Share of the score (in %) taken for each started day late; 100 or more takes all of it."
    ).tag(config=True)

    def late_submission_penalty(self, student_id, score, total_seconds_late):
        if total_seconds_late <= 0:
            return None
        share = min(100.0, self.percent_per_day * math.ceil(total_seconds_late / DAY)) / 100.0
        return round(score * share, 4)
