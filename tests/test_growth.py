"""How a call's time grows, read from times measured at two or more sizes (autograder/grading/growth.py)."""

import pytest

from autograder.grading import growth


def test_doubling_a_quadratic_input_is_told_quadratic():
    said = growth.sentence("gradient_graph", "nodes", [2_500, 5_000], [0.25, 1.0])
    assert said == (
        "gradient_graph took 0.25 s on 2,500 nodes and 1.00 s on 5,000 nodes (CPU time): doubling the "
        "input took 4.0 times as long, so its time grows with the square of the input (quadratic)"
    )


def test_a_linear_call_is_told_linear():
    said = growth.sentence("tree_size", "nodes", [2_500, 5_000], [0.1, 0.21])
    assert said.endswith("took 2.1 times as long, so its time grows " + growth.LINEAR)


def test_the_growth_beyond_the_references_time_is_read():
    """Both calls pay for building the input and sending the answer; the growth of what is left is the learner's."""
    said = growth.sentence("topological_order", "records", [50_000, 200_000], [0.37, 3.79], [0.12, 0.68])
    assert (
        "the reference 0.12 s and 0.68 s" in said and "beyond the reference's time, an input 4 times as large" in said
    )
    assert said.endswith("(quadratic)")


def test_a_call_that_stops_on_the_smallest_input_is_an_endless_loop_or_close():
    said = growth.sentence("f", "nodes", [100], [None])
    assert "more than its time limit on 100 nodes" in said and "loops without end" in said


def test_superlinear_needs_both_a_faster_growth_and_a_slower_call():
    sizes, reference = [50_000, 200_000], [0.12, 0.68]
    assert growth.superlinear(sizes, [0.37, 3.79], reference)  # a ready list emptied with pop(0)
    assert growth.superlinear(sizes, [0.49, 4.15], [0.38, 1.72])  # the same, measured on a busy machine
    assert not growth.superlinear(sizes, [0.3, 1.7], reference)  # linear, 2.5 times the reference's time
    assert not growth.superlinear(sizes, [0.12, 0.9], reference)  # a little faster growth, but hardly slower
    assert not growth.superlinear(sizes, [0.34, 1.86], [0.38, 1.72])  # as fast as the reference: noise, not growth
    assert growth.superlinear(sizes, [0.4, None], reference)  # stopped on the largest


def test_a_reference_timed_at_a_busier_moment_still_shows_a_quadratic_call():
    """pop(0) on the wide records took 2.9 times the reference's quiet time; the store's time for the reference,
    measured a minute later on the same machine, was half as long again: the call still grows too fast."""
    sizes = [50_000, 200_000]
    assert growth.superlinear(sizes, [0.33, 2.81], [0.15, 0.98])  # both timed at quiet moments
    assert growth.superlinear(sizes, [0.33, 2.81], [0.2, 1.54])  # the reference at a busier one
    assert not growth.superlinear(sizes, [0.24, 1.57], [0.15, 0.98])  # growing as the reference does, 1.6 times as long


def scripted(*timings):
    """A runner whose ``timed_sizes`` calls take the given lists of seconds in turn, and the lists not taken yet."""
    from autograder.grading.runner import Runner

    left = list(timings)

    class Scripted(Runner):
        def timed_sizes(self, sized, judge=None, check=None):
            return [size for size, _case in sized], left.pop(0), None

    return Scripted(sandbox=None), left


@pytest.fixture
def wide_check(monkeypatch):
    """A linear_growth check on two sizes, a quarter and the whole, with the wide records' reference times."""
    from autograder.grading import measured
    from autograder.grading.engine import Case, Check

    small, large = (Case("topological_order", ({},), label=size, expect="order_valid") for size in ("small", "large"))
    reference = {"small": 0.20, "large": 1.40}
    monkeypatch.setattr(measured, "reference_seconds", lambda case: reference[case.label])
    return Check(
        "order_linear_time/wide", "topological_order", 1, "linear time", "linear_growth", cases=(large,),
        growth=lambda case: ("records", [(50_000, small), (200_000, large)]),
    )  # fmt: skip


def test_a_quadratic_call_is_judged_on_its_better_times_when_one_small_timing_was_slowed(wide_check):
    """pop(0) on the wide records, its smaller size slowed once by a busy machine: read from that one timing, its
    growth would look linear; judged on the better time of each of two timings, it fails."""
    runner, left = scripted([2.6], [0.40], [0.26, 2.55])  # the largest, the smaller, then both again
    failure = runner.run_growth(wide_check)
    assert failure is not None and "0.26 s on 50,000 records and 2.55 s on 200,000 records" in failure.summary
    assert left == []
    assert not growth.superlinear([50_000, 200_000], [0.40, 2.6], [0.20, 1.40])  # what one timing alone said


def test_a_linear_call_is_judged_on_its_better_times_when_one_large_timing_was_slowed(wide_check):
    """A call 1.6 times as slow as the reference that grows as it does passes, its largest size slowed once."""
    runner, left = scripted([2.9], [0.32], [0.33, 2.24])
    assert runner.run_growth(wide_check) is None
    assert left == []
    assert growth.superlinear([50_000, 200_000], [0.32, 2.9], [0.20, 1.40])  # what one timing alone said


def test_a_call_about_as_fast_as_the_reference_on_the_largest_is_timed_once(wide_check):
    runner, left = scripted([1.5])
    assert runner.run_growth(wide_check) is None and left == []
