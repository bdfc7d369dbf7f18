"""Grading one submission: hidden checks as data, the zoo that proves them, judges, the runner, feedback.

Learner code runs only in the sandbox (autograder/sandbox/); this package judges
the plain values it sends back, against answers computed from the reference.
"""
