"""The kit's grader: hidden checks, the sandbox that runs learner code, and the nbgrader glue."""
