"""nbgrader's settings on the hub: the course and its exchange, for every account that runs the hub's environment.

`make hub-env` installs this file as HUB_ENV/etc/jupyter/nbgrader_config.py, where nbgrader looks first:
learners' JupyterLab (the Assignment List) and the instructor's `nbgrader release_assignment`, `collect`
and `release_feedback` read it. The hub's configuration (deploy/jupyterhub_config.py) hands each learner's
server GRAPHKIT_EXCHANGE; an instructor at a shell sets it the same way, or keeps the default.
"""

import os

c = get_config()  # noqa: F821 -- nbgrader provides get_config when it loads this file

# The course's name in the exchange: HUB_EXCHANGE/graphkit/{outbound,inbound,feedback}/.
c.CourseDirectory.course_id = "graphkit"

# The exchange, a folder every account reads and writes (made as nbgrader's documentation says: mode 777).
c.Exchange.root = os.environ.get("GRAPHKIT_EXCHANGE", "/srv/nbgrader/exchange")
