"""Grading one submission: the engine's Check and Case, the runner, the kit's judges, feedback and results.

Learner code runs only in the sandbox (autograder/sandbox/); this package judges
the plain values it sends back, against answers the course's judges compute from its reference.
"""
