"""Run by the sandbox child before its own code, and by the grader on the reference: standard library only."""


def tally_counts(module, words, asked):
    """A short public program: count ``words`` with the learner's Tally, then ask it about ``asked``."""
    tally = module.Tally()
    for word in words:
        tally.add(word)
    return [tally.count(word) for word in asked]


DRIVERS = {"tally_counts": tally_counts}
