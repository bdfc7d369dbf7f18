"""Pytest setup for the public tests: one marker per task of exercises/tasks.py, so that `make check TASK=name`
runs that task's tests: those marked task_<name>, and those with no task marker whose name names the task
(test_area_of_a_square is a test of the task area).

pytest exercises/tests                    # every public test
pytest exercises/tests -m task_NAME       # one task's
"""

import re

try:
    from exercises.tasks import TASKS
except ImportError:  # no exercises/tasks.py: no task markers
    TASKS = {}


def pytest_configure(config):
    for task, module in TASKS.items():
        config.addinivalue_line("markers", f"task_{task}: public tests for {task} in exercises/{module}.py")


def pytest_collection_modifyitems(items):
    for item in items:
        if any(mark.name.startswith("task_") for mark in item.iter_markers()):
            continue
        for task in TASKS:
            if re.search(rf"(?<![a-z0-9]){re.escape(task.lower())}(?![a-z0-9])", item.name.lower()):
                item.add_marker(f"task_{task}")
