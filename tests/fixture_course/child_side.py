"""Run by the sandbox child before its own code, and by the grader on the reference: standard library only."""


def tally_counts(module, words, asked):
    """A short public program: count ``words`` with the learner's Tally, then ask it about ``asked``."""
    tally = module.Tally()
    for word in words:
        tally.add(word)
    return [tally.count(word) for word in asked]


def tally_repeats(module, word, times):
    """Add one word `times` times to the learner's Tally, then ask for its count: a Tally holds counts, not words."""
    tally = module.Tally()
    for _ in range(times):
        tally.add(word)
    return tally.count(word)


DRIVERS = {"tally_counts": tally_counts, "tally_repeats": tally_repeats}
