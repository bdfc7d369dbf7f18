"""How a call's time grows with its input: measured at two or more sizes, and said in words.

A call that is too slow on one large input says little about why: an endless loop, a slow machine
and a quadratic sweep look the same. Timed at a few sizes, the same call says how its time grows:
doubling a linear sweep's input doubles its time, doubling a quadratic one's makes it four times
as long. The runner measures (CPU time of the sandbox child, read by the parent); this module only
reckons and words what was measured.
"""

import math

LINEAR = "in proportion to the input (linear)"  # how a sentence says a time grew linearly
MEASURABLE = 0.02  # s of CPU: below this, a time is mostly the call's fixed cost, and no growth is read from it
# A growth exponent (time ~ size ** k) at or above SUPERLINEAR is read as faster than linear: quadratic from
# QUADRATIC up, and more than quadratic from CUBIC up.
SUPERLINEAR, QUADRATIC, CUBIC = 1.3, 1.6, 2.6
# "linear_growth": a call is judged to grow faster than linear when, from the smallest size to the largest, the
# time it took beyond the reference's grew at least GROWTH_MARGIN times as much as the size did, and it took at
# least SLOWER times the reference's time on the largest. The time beyond the reference's leaves out what every
# call of the size costs (building the input, sending the answer), and a call linear but slower than the
# reference's has one that grows as the reference's own time does. On the smallest size it is counted as at
# least FLOOR times the reference's time there, so that a call about as fast as the reference (whose time beyond
# it is a little noise) is not read as growing from nothing.
# SLOWER leaves room for a reference timed at a busier moment than the call: the same machine's CPU time for the
# same call has been seen to vary by half as much again from one minute to the next.
GROWTH_MARGIN, SLOWER, FLOOR = 2.0, 1.5, 0.5


def exponent(sizes, seconds):
    """k in time ~ size ** k, from the smallest and the largest measurable point; None if fewer than two are."""
    points = [(n, t) for n, t in zip(sizes, seconds) if t is not None and t >= MEASURABLE]
    if len(points) < 2 or points[0][0] == points[-1][0]:
        return None
    (n1, t1), (n2, t2) = points[0], points[-1]
    return math.log(t2 / t1) / math.log(n2 / n1)


def kind(k):
    """The growth an exponent shows, in words."""
    if k is None:
        return ""
    if k >= CUBIC:
        return "faster than quadratic"
    if k >= QUADRATIC:
        return "quadratic"
    if k >= SUPERLINEAR:
        return "faster than linear"
    return "linear"


def times_as_long(sizes, seconds):
    """(how many times larger the largest input is than the smallest, how many times as long it took), or None."""
    points = [(n, t) for n, t in zip(sizes, seconds) if t is not None and t >= MEASURABLE]
    if len(points) < 2:
        return None
    (n1, t1), (n2, t2) = points[0], points[-1]
    return n2 / n1, t2 / t1


def _larger(x):
    return "doubling the input" if round(x, 2) == 2 else f"an input {x:g} times as large"


def sentence(fn, unit, sizes, seconds, reference=None):
    """What the times of ``fn`` at ``sizes`` (``unit``s: "nodes", "records") say, e.g.

    "area took 0.61 s on 1,250 nodes and 2.47 s on 2,500 nodes (CPU time): doubling the input took 4.0
    times as long, so its time grows with the square of the input (quadratic)"

    With the reference's times at the same sizes, the growth read is that of the time beyond the reference's: what
    every call of the size costs (building the input, sending the answer) is left out of it.
    """
    shown = [
        f"{t:.2f} s on {n:,} {unit}" if t is not None else f"more than its time limit on {n:,} {unit}"
        for n, t in zip(sizes, seconds)
    ]
    measured = f"{fn} took {' and '.join(shown)} (CPU time)"
    beyond = ""
    if reference is not None and None not in reference and len(reference) == len(seconds):
        measured += f", the reference {' and '.join(f'{t:.2f} s' for t in reference)}"
        seconds = [None if t is None else max(t - r, FLOOR * r, MEASURABLE) for t, r in zip(seconds, reference)]
        beyond = "beyond the reference's time, "
    ratio = times_as_long(sizes, seconds)
    if ratio is None:
        if seconds and seconds[0] is None:
            return (
                f"{measured}: even the smallest input took longer than its time limit, so it loops without end "
                "or its time grows far faster than the input"
            )
        return measured
    larger, longer = ratio
    grows = {
        "linear": LINEAR,
        "faster than linear": "faster than the input",
        "quadratic": "with the square of the input (quadratic)",
        "faster than quadratic": "faster than the square of the input",
    }[kind(exponent(sizes, seconds))]
    return f"{measured}: {beyond}{_larger(larger)} took {longer:.1f} times as long, so its time grows {grows}"


def may_be_superlinear(largest, reference):
    """Whether a call that took ``largest`` s of CPU on the largest size (None: stopped) could be read as growing
    faster than the reference's, which took ``reference`` s there: superlinear asks at least SLOWER times as long."""
    return largest is None or largest >= SLOWER * max(reference, MEASURABLE)


def superlinear(sizes, seconds, reference):
    """Whether the learner's times grew clearly faster than the reference's over the same sizes (see GROWTH_MARGIN)."""
    if not seconds or seconds[-1] is None:
        return bool(seconds)  # did not finish the largest in its time: slower than anything linear here
    if len(seconds) < 2 or None in reference:
        return False
    larger = sizes[-1] / sizes[0]
    first = max(seconds[0] - reference[0], FLOOR * reference[0], MEASURABLE)
    beyond = seconds[-1] - reference[-1]
    return may_be_superlinear(seconds[-1], reference[-1]) and beyond >= GROWTH_MARGIN * larger * first
