"""The demo term's due dates, for the graph course's lessons (whose own settings give none).

They are relative to the day the course is graded: lesson 1 was due at the end of yesterday (UTC),
each later lesson two weeks after the one before, so hand-ins made today are graded as a current
term's would be (the demo cohort's timestamps, and its LMS download, `make demo-download`, are placed
around them). GRAPHKIT_DEMO_DAY=YYYY-MM-DD grades as if on that day instead: runs that straddle midnight
then agree. A course of one's own writes its dates into its lessons instead (due="...").
"""

import datetime
import os

DAY = "GRAPHKIT_DEMO_DAY"
EVERY = datetime.timedelta(weeks=2)  # between two lessons' due dates


def due(assignments):
    """{assignment: due date} for ``assignments``, in the lessons' order: the first due at the end of yesterday."""
    day = os.environ.get(DAY, "")
    today = datetime.date.fromisoformat(day) if day else datetime.datetime.now(datetime.timezone.utc).date()
    first = today - datetime.timedelta(days=1)
    return {assignment: f"{first + number * EVERY} 23:59:00 UTC" for number, assignment in enumerate(assignments)}
