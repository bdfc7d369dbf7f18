"""The misconception zoo proves the hidden checks: every bug is caught by its family, no correct style loses a point."""

import pytest

from graphcourse import checks, diagnose, zoo
from graphcourse.checks.order_valid import WORKERS
from solutions.order import topological_order as reference_order
from tests.test_feedback_words import INTERNAL
from tests.zoo_grades import all_grades

ENTRIES = zoo.entries()
CHECK_FUNCTION = {c.id: c.function for c in checks.all_checks()}
BUGGY = [e for e in ENTRIES if e.kind == "buggy"]
CORRECT = [e for e in ENTRIES if e.kind == "correct"]
pytestmark = pytest.mark.slow


def failed_families(grades):
    return {check_id.split("/")[0] for check_id, (score, points, _, _) in grades.items() if score < points}


def total(grades):
    return sum(score for score, _, _, _ in grades.values())


def test_zoo_is_large_enough():
    """At least 25 buggy implementations and 5 correct styles, each with a one-line description."""
    assert len(BUGGY) >= 25 and len(CORRECT) >= 5
    assert all(e.description and "\n" not in e.description for e in ENTRIES)


def test_buggy_entries_change_only_their_function():
    """Each buggy entry redefines exactly the function it names: the others stay the reference's, so the zoo
    grades them once, on the reference, and not again for every entry (tests/zoo_grades.py)."""
    for entry in BUGGY:
        assert zoo.defined_functions(entry) == {entry.function}, entry.name


def test_an_entry_naming_an_unknown_family_is_refused(tmp_path):
    """An entry whose FAILS names no family of hidden checks is refused when the zoo is read, naming the file."""
    path = tmp_path / "buggy_made_up.py"
    path.write_text('"""Made up."""\nFUNCTION = "backward"\nFAILS = ["no_such_family"]\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"buggy_made_up\.py: \['no_such_family'\]"):
        zoo._entry(path)


def test_reference_earns_full_marks():
    """The reference passes every hidden check."""
    grades = all_grades()["reference"]
    assert total(grades) == checks.max_points(), failed_families(grades)


def test_stub_earns_nothing():
    """The untouched stub earns 0 points."""
    assert total(all_grades()["stub"]) == 0


@pytest.mark.parametrize("entry", CORRECT, ids=[e.name for e in CORRECT])
def test_correct_style_earns_full_marks(entry):
    """A correct implementation in another style never loses a point."""
    grades = all_grades()[entry.name]
    lost = {cid: summary for cid, (score, points, summary, _) in grades.items() if score < points}
    assert not lost, f"{entry.name} ({entry.description}) lost points: {lost}"


@pytest.mark.parametrize("entry", BUGGY, ids=[e.name for e in BUGGY])
def test_buggy_loses_points_in_its_family(entry):
    """A buggy implementation loses points, and the family naming its misconception is among the failures."""
    grades = all_grades()[entry.name]
    assert total(grades) < checks.max_points(), f"{entry.name} ({entry.description}) earned full marks"
    missing = set(entry.fails) - failed_families(grades)
    assert not missing, (
        f"{entry.name}: families {sorted(missing)} did not fail; failed: {sorted(failed_families(grades))}"
    )


@pytest.mark.parametrize("entry", BUGGY, ids=[e.name for e in BUGGY])
def test_buggy_loses_points_only_in_the_families_it_names(entry):
    """One misconception costs points in its own families, in finite_difference_agreement, and in a family listed
    in ALSO with the reason the two cannot be told apart: nowhere else."""
    extra = failed_families(all_grades()[entry.name]) - entry.allowed()
    assert not extra, f"{entry.name} ({entry.description}) also lost points in {sorted(extra)}"


ZERO = [e for e in BUGGY if e.scores_zero]


@pytest.mark.parametrize("entry", ZERO, ids=[e.name for e in ZERO])
def test_an_answer_that_ignores_its_input_earns_nothing(entry):
    """[], {}, zeros or the input handed back: every check of the function has a case such an answer gets wrong."""
    mine = {
        cid: score
        for cid, (score, _p, _s, _m) in all_grades()[entry.name].items()
        if CHECK_FUNCTION[cid] == entry.function
    }
    assert mine and not any(mine.values()), {cid: s for cid, s in mine.items() if s}


def test_every_function_has_answers_that_ignore_their_input():
    """Each graded function has a zoo entry that ignores its input, which proves every one of its checks
    constant-proof."""
    missing = sorted(set(checks.FUNCTIONS) - {e.function for e in ZERO})
    assert not missing, (
        f"graphcourse/zoo/ has no entry with SCORES_ZERO = True for {', '.join(missing)}: add "
        f"buggy_constant_<function>_<answer>.py whose function returns [], {{}}, zeros or its input"
    )


@pytest.mark.parametrize(
    "name, family",
    [
        ("buggy_assign_fan_out", "fan_out_accumulation"),
        ("buggy_assign_plain", "fan_out_accumulation"),  # grads[i] = grads[name] * slope, its plainest form
        ("buggy_sweep_by_name", "reverse_order"),
        ("buggy_update_across_readers", "fan_out_accumulation"),  # adds within a node, assigns across its readers
    ],
)
def test_a_value_misconception_costs_only_its_family(name, family):
    """The lesson's central misconception, in either form, and a sweep in name order lose points in their own family
    and finite_difference_agreement only: no other value family, and no property family."""
    assert failed_families(all_grades()[name]) == {family, "finite_difference_agreement"}


PROPERTY_FAMILIES = {"deep_graph", "linear_time", "no_mutation"}


def test_no_value_misconception_fails_a_property_family():
    """Every gradient seeded with 1.0 is wrong in every value family, but the property families judge the answer
    by the learner's own short answer, and pass it; so do the other value misconceptions."""
    assert not failed_families(all_grades()["buggy_seed_every_gradient"]) & PROPERTY_FAMILIES
    for entry in BUGGY:
        if entry.function == "backward" and not (set(entry.fails) | set(entry.also)) & PROPERTY_FAMILIES:
            assert not failed_families(all_grades()[entry.name]) & PROPERTY_FAMILIES, entry.name


@pytest.mark.parametrize(
    "name, family",
    [("buggy_recursive_large_shortcut", "deep_graph"), ("buggy_quadratic_large_shortcut", "linear_time")],
)
def test_a_shortcut_for_large_inputs_loses_its_property_family(name, family):
    """Answering a large input cheaply (the one entry an older bar judged) fails the family whose input it is."""
    grades = all_grades()[name]
    assert failed_families(grades) == {family}
    score, points, _summary, misconception = grades[
        f"{family}/{'backward' if family == 'deep_graph' else 'wide_fan_out'}"
    ]
    assert score == 0 and "large" in misconception


@pytest.mark.parametrize("name", ["buggy_numeric_central", "buggy_numeric_richardson"])
def test_estimated_slopes_keep_at_most_half_of_backwards_points(name):
    """Slopes estimated by re-running the graph (central differences, Richardson extrapolation) are close but never
    exact where a sweep is: at most half of backward's points, with the misconception named."""
    grades = all_grades()[name]
    mine = {cid: grade for cid, grade in grades.items() if CHECK_FUNCTION[cid] == "backward"}
    assert sum(score for score, *_rest in mine.values()) <= checks.points_of("backward") / 2
    score, _points, summary, misconception = mine["fan_out_accumulation/worked_example"]
    assert score == 0 and "exactly" in summary and "nudging values" in misconception


@pytest.mark.parametrize("entry", BUGGY, ids=[e.name for e in BUGGY])
def test_buggy_keeps_points_outside_its_function(entry):
    """A misconception in one function costs no points in the functions it does not touch."""
    by_id = {c.id: c for c in checks.all_checks()}
    grades = all_grades()[entry.name]
    lost = [
        cid for cid, (score, points, _, _) in grades.items() if score < points and by_id[cid].function != entry.function
    ]
    assert not lost, f"{entry.name} lost points outside {entry.function}: {lost}"


def test_assign_instead_of_add_is_named_in_feedback():
    """The fan-out misconception is named, with t as the first wrong node of the worked example."""
    score, points, summary, misconception = all_grades()["buggy_assign_fan_out"]["fan_out_accumulation/worked_example"]
    assert score == 0 and "dL/dt" in summary and "instead of adding" in misconception


def order_of(name, records):
    """The names a correct zoo style lists for ``records``, run here: the zoo is our own code."""
    namespace = {"__name__": f"zoo_{name}"}
    exec(compile(zoo.source(zoo.entry(name)), name, "exec"), namespace)
    return [entry[0] for entry in namespace["topological_order"](records)]


def test_two_different_valid_orders_both_earn_full_marks():
    """The order checks judge validity, never one particular order: Kahn's with a queue (the reference) lists u
    before v, with a stack v before u, and both earn every point of topological_order's checks."""
    records = {name: (op, list(inputs)) for name, (op, inputs) in WORKERS.items()}
    queue = [entry[0] for entry in reference_order(records)]
    stack = order_of("correct_order_kahn_stack", records)
    assert queue != stack and sorted(queue) == sorted(stack), (queue, stack)
    for name in ("reference", "correct_order_kahn_stack"):
        mine = {
            cid: (score, points)
            for cid, (score, points, _s, _m) in all_grades()[name].items()
            if CHECK_FUNCTION[cid] == "topological_order"
        }
        assert mine and all(score == points for score, points in mine.values()), (name, mine)


SLOPES_ONLY = [e for e in BUGGY if set(e.fails) <= {"local_slopes", "finite_difference_agreement"}]


@pytest.mark.parametrize("entry", SLOPES_ONLY, ids=[e.name for e in SLOPES_ONLY])
def test_a_slope_misconception_costs_no_order_points(entry):
    """A wrong slope (relu's 1 everywhere among them) costs no reverse_order points: its graphs show a wrong order
    through sums and relus of positive values, whose slopes no such misconception changes."""
    assert "reverse_order" not in failed_families(all_grades()[entry.name])


def test_a_quadratic_gradient_graph_is_told_how_its_time_grows():
    """Timed on chains of 1,250, 2,500 and 5,000 nodes beside the reference, it is told how its time grows: by the
    growth, never by a clock alone, so a fast machine fails it as surely as a slow one."""
    score, _points, summary, misconception = all_grades()["buggy_gradient_graph_used_list"]["gradient_graph_deep/chain"]
    assert score == 0 and "1,250 nodes" in summary and "5,000 nodes" in summary and "the reference" in summary
    assert "(quadratic)" in summary or "more than its time limit" in summary
    assert "recursion" not in summary + misconception.lower()


def test_a_ready_list_emptied_with_pop_front_loses_the_wide_check():
    """pop(0) on 200,000 ready records: its time beyond the reference's grows with the square of the records, or at
    least faster than them when a busy machine slowed both timings of the smaller size (on a machine so busy that the
    largest call runs out of its wall clock, that is said instead)."""
    grades = all_grades()["buggy_order_ready_pop_front"]
    score, _points, summary, misconception = grades["order_linear_time/wide"]
    assert score == 0 and "50,000 records" in summary and "200,000 records" in summary
    assert any(
        said in summary
        for said in ("(quadratic)", "grows faster than the input:", "more than its time limit on 200,000 records")
    )
    assert "pop(0)" in misconception
    assert grades["order_linear_time/two_levels"][0] == grades["order_linear_time/two_levels"][1]


def test_every_operator_refuses_another_tapes_var():
    """A Var that refuses another tape's Var in + alone loses the two-tapes check on the first other operator."""
    score, _points, summary, _misconception = all_grades()["buggy_var_checks_add_only"]["tape_records/two_tapes"]
    assert score == 0 and "expected ValueError" in summary


# Every message the zoo is shown: no grader-internal name, and every misconception it names right.


def test_no_zoo_message_names_a_driver_or_helper():
    for entry in BUGGY:
        for check_id, (_score, _points, summary, misconception) in all_grades()[entry.name].items():
            named = {name for name in INTERNAL if name in summary + misconception}
            assert not named, (entry.name, check_id, named, summary)


def labels_in(misconception):
    """The zoo entries a misconception sentence names: the one, or each of the few it lists."""
    return [e.name for e in BUGGY if e.description in misconception]


@pytest.mark.parametrize("entry", BUGGY, ids=[e.name for e in BUGGY])
def test_every_misconception_the_zoo_is_told_is_right(entry):
    """Every label an entry is shown names it, alone or among the few its failing input cannot tell apart; a label
    that names no entry is a symptom the failure itself shows (a RecursionError, a time measured), never a guess."""
    symptoms = set(diagnose.SYMPTOMS.values()) | set(diagnose.STATUSES.values())
    for check_id, (_score, _points, _summary, misconception) in all_grades()[entry.name].items():
        if not misconception:
            continue
        named = labels_in(misconception)
        if named:
            assert entry.name in named, (check_id, named)
            assert len(named) == 1 or misconception.startswith(f"The answer fits {len(named)} misconceptions")
        else:
            assert misconception in symptoms, (check_id, misconception)
