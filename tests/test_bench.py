"""The benchmark's helpers (make bench): cohorts, settings, stock course layout, step timing. No timing is asserted."""

import json
import types

import pytest

from autograder.course.lessons import LESSONS
from autograder.tools import bench, cohorts, first_run, marked, otter, scale, side_by_side, stock
from graphcourse import bench as edges, builders, demo, zoo
from solutions import graph as reference
from tests.zoo_grades import timed_out


def test_spread_takes_every_item_once_before_repeating():
    items = list(range(10))
    assert cohorts.spread(items, 5) == [0, 2, 4, 6, 8]
    assert cohorts.spread(items, 10) == items
    assert cohorts.spread(items, 12) == items + [0, 1]
    assert cohorts.spread([], 3) == []


def test_makeup_gives_each_kind_its_share_by_largest_remainders():
    shares = [("a", 0.5), ("b", 0.3), ("c", 0.2)]
    assert cohorts.makeup(10, shares) == [("a", 5), ("b", 3), ("c", 2)]
    assert cohorts.makeup(4, shares) == [("a", 2), ("b", 1), ("c", 1)]  # remainders .2, .2, .8: c, then a
    assert cohorts.makeup(3, [("a", 1), ("b", 1)]) == [("a", 2), ("b", 1)]  # a tie goes to the earlier kind
    assert cohorts.makeup(0, shares) == [("a", 0), ("b", 0), ("c", 0)]
    total = sum(share for _kind, share, _words in edges.CLASS)
    for count in (1, 4, 7, 40, 52, 333):
        numbers = cohorts.makeup(count)
        assert [kind for kind, _n in numbers] == [kind for kind, _share, _words in edges.CLASS]
        assert sum(n for _kind, n in numbers) == count
        for (_kind, n), (_k, share, _words) in zip(numbers, edges.CLASS):
            assert abs(n - count * share / total) < 1


def test_the_realistic_class_is_mostly_single_mistakes_the_same_every_time():
    """Each kind's learners hand in the code of that kind's zoo entries: mistakes and slow sweeps are buggy
    entries of the lessons handed in, correct answers correct ones."""
    first, again = cohorts.realistic_learners(40), cohorts.realistic_learners(40)
    assert first == again and len({learner.student_id for learner in first}) == 40
    numbers = dict(cohorts.makeup(40))
    assert numbers["mistake"] > 40 / 2 and all(numbers[kind] >= 2 for kind in ("slow", "untouched", "correct"))
    entries = edges.class_entries()
    modules = edges.handed_in_modules()
    assert all(zoo.entry(name).module in modules for names in entries.values() for name in names)
    kinds = {name: kind for kind, names in entries.items() for name in names}
    assert all(zoo.entry(name).kind == ("correct" if kind == "correct" else "buggy") for name, kind in kinds.items())
    found = {kind: [] for kind in numbers}
    for learner in first:
        found["untouched" if learner.stub else kinds[learner.code[0]]].append(learner.code)
        assert learner.stub == (learner.code == ()) and len(learner.code) <= 1
    assert {kind: len(codes) for kind, codes in found.items()} == numbers
    assert all(len(set(found[kind])) == numbers[kind] for kind in ("mistake", "slow", "correct"))  # none repeated
    handed_in = {lesson.assignment for lesson in LESSONS[:2]}
    assert all(set(learner.handed_in()) == handed_in for learner in first)


def test_the_side_by_side_says_the_class_make_up_in_the_course_words():
    words = side_by_side.makeup_words(40)
    for kind, number in cohorts.makeup(40):
        text = next(text for k, _share, text in edges.CLASS if k == kind)
        assert f"{number} {text}" in words
    assert words.startswith(f"{dict(cohorts.makeup(40))['mistake']} ")


@pytest.mark.slow  # builds every check's fixed inputs, as the zoo's tests do
def test_the_slow_sweeps_are_the_entries_the_zoos_tests_grade_under_a_time_cap():
    """The class's slow or recursive sweeps are the entries tests/zoo_grades.py caps, of the lessons handed in."""
    handed_in = {e.name for e in zoo.entries() if e.module in edges.handed_in_modules()}
    assert set(edges.class_entries()["slow"]) == timed_out() & handed_in


def test_the_all_correct_class_spreads_the_correct_answers():
    learners = cohorts.correct_learners(12)
    names = [learner.code[0] for learner in learners]
    correct = edges.class_entries()["correct"]
    assert set(names) == set(correct[:12]) and all(zoo.entry(name).kind == "correct" for name in names)
    assert [learner.student_id for learner in learners][:2] == ["correct00", "correct01"]
    assert cohorts.correct_learners(12) == learners


def test_signing_adds_a_comment_to_each_learners_first_solution_cell_only(tmp_path):
    def cell(source, **flags):
        return {"cell_type": "code", "metadata": {"nbgrader": flags}, "source": source, "outputs": []}

    nb = {"cells": [cell("x = 1\n"), cell("A = 2", solution=True), cell("B = 3", solution=True)], "metadata": {}}
    learners = [demo.Learner("ada", "signed"), demo.Learner("bob", "untouched", stub=True)]
    for learner in learners:
        path = tmp_path / learner.student_id / "lesson" / "n.ipynb"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(nb), encoding="utf-8")
    cohorts.sign(tmp_path, learners)
    signed = json.loads((tmp_path / "ada" / "lesson" / "n.ipynb").read_text(encoding="utf-8"))
    assert ["".join(c["source"]) for c in signed["cells"]] == ["x = 1\n", "A = 2\n# ada's own copy", "B = 3"]
    assert json.loads((tmp_path / "bob" / "lesson" / "n.ipynb").read_text(encoding="utf-8")) == nb
    bare = {"cells": [cell("x = 1\n")], "metadata": {}}  # no solution cell: nothing to sign
    (tmp_path / "cy" / "lesson").mkdir(parents=True)
    (tmp_path / "cy" / "lesson" / "n.ipynb").write_text(json.dumps(bare), encoding="utf-8")
    cohorts.sign(tmp_path, [demo.Learner("cy", "no solution cell")])
    assert json.loads((tmp_path / "cy" / "lesson" / "n.ipynb").read_text(encoding="utf-8")) == bare


def test_copy_learner_repeats_a_folder_byte_for_byte(tmp_path):
    notebook = tmp_path / "model" / "lesson1_graphs" / "computation_graphs.ipynb"
    notebook.parent.mkdir(parents=True)
    notebook.write_bytes(b'{"cells": []}\n')
    ids = cohorts.copy_learner(tmp_path, "model", 12)
    assert ids == [f"copy{i:02d}" for i in range(12)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ids
    assert {(tmp_path / i / "lesson1_graphs" / "computation_graphs.ipynb").read_bytes() for i in ids} == {
        b'{"cells": []}\n'
    }


def test_settings_read_the_environment():
    assert bench.settings({}) == (40, (100, 300))
    assert bench.settings({"BENCH_LEARNERS": "5", "BENCH_SCALE": "100,1000"}) == (5, (100, 1000))
    with pytest.raises(ValueError):
        bench.settings({"BENCH_SCALE": "0"})


@pytest.mark.parametrize("shape", ["chain", "wide"])
def test_edge_descriptions_give_about_the_edges_asked_for(shape):
    graph, _values = builders.build(edges.description(shape, 3000))
    assert abs(edges.edge_count(graph) - 3000) <= 3000 * 0.01


def test_seconds_per_edge_counts_the_edges_and_calls_backward():
    calls = []
    count, seconds = edges.seconds_per_edge("chain", 150, runs=2, backward=lambda g, v: calls.append(len(g)))
    assert count == 150 and calls == [100, 100] and seconds >= 0
    assert edges.flatness([1.0, 1.2, 1.1]) == pytest.approx(0.2)


def test_the_slope_is_the_power_of_the_time_against_the_edges():
    counts = [10**4, 10**5, 10**6]
    assert edges.slope(counts, [3e-3 * (c / 1e4) for c in counts]) == pytest.approx(1.0)
    assert edges.slope(counts, [1e-6 * c**2 for c in counts]) == pytest.approx(2.0)
    assert edges.slope(counts, [0.5, 0.5, 0.5]) == pytest.approx(0.0, abs=1e-12)


def test_otters_tests_pass_on_the_reference_and_fail_on_a_wrong_answer():
    """Each OK-format doctest, run as otter runs it, passes in the reference's namespace and fails elsewhere."""
    import doctest

    tests = edges.otter_tests()
    assert len(tests) >= 4 and all(test["points"] == 1 for test in tests.values())
    wrong = dict(vars(reference), backward=lambda graph, values, output=None: {}, evaluate=lambda graph, leaves: {})
    for name, test in tests.items():
        (case,) = test["suites"][0]["cases"]
        parsed = doctest.DocTestParser().get_doctest(case["code"], dict(vars(reference)), name, None, 0)
        runner = doctest.DocTestRunner(verbose=False)
        assert runner.run(parsed, out=lambda text: None).failed == 0, name
        if name.endswith(("_backward", "_evaluate")):
            parsed = doctest.DocTestParser().get_doctest(case["code"], dict(wrong), name, None, 0)
            assert doctest.DocTestRunner(verbose=False).run(parsed, out=lambda text: None).failed == 1, name


def test_otter_is_used_only_where_it_is_found(tmp_path):
    command = tmp_path / "otter"
    assert otter.executable({"OTTER": str(command)}) is None  # named but missing
    command.write_text("#!/bin/sh\n")
    command.chmod(0o755)
    assert otter.executable({"OTTER": str(command)}) == str(command)
    otter.write_tests(tmp_path / "tests", {"q1": {"name": "q1", "points": 1, "suites": []}})
    namespace = {}
    exec((tmp_path / "tests" / "q1.py").read_text(encoding="utf-8"), namespace)
    assert namespace["test"] == {"name": "q1", "points": 1, "suites": []}


def test_a_stock_course_uses_nbgraders_own_preprocessors(tmp_path):
    root = stock.make_course(tmp_path / "course")
    config = (root / "nbgrader_config.py").read_text(encoding="utf-8")
    assert "HiddenChecks" not in config and "autograde_preprocessors" not in config
    for lesson in LESSONS:
        copied = root / "source" / lesson.assignment / lesson.notebook
        assert copied.read_bytes() == lesson.notebook_path().read_bytes()
    assert stock.commands("autograde") == [["autograde", lesson.assignment, "--force"] for lesson in LESSONS]
    assert stock.commands("export") == [["export"]]


def test_stock_autogrades_only_the_lessons_handed_in(tmp_path):
    first, second = LESSONS[0].assignment, LESSONS[1].assignment
    (tmp_path / "ada" / first).mkdir(parents=True)
    (tmp_path / "bob" / second).mkdir(parents=True)
    (tmp_path / "notes.txt").write_text("not a learner")
    assert stock.handed_in(tmp_path) == {first, second}
    for step in ("autograde", "generate_feedback"):
        assert stock.commands(step, {first, second}) == [[step, first, "--force"], [step, second, "--force"]]
    assert len(stock.commands("generate_assignment", {first})) == len(LESSONS)


def test_timed_steps_add_up_each_steps_calls_and_put_the_originals_back():
    owner = types.SimpleNamespace(first=lambda x: x + 1, second=lambda: "done")
    originals = (owner.first, owner.second)
    steps = (("one", owner, "first"), ("two", owner, "second"))
    with scale.timed_steps(steps) as seconds:
        assert owner.first(1) == 2 and owner.first(2) == 3 and owner.second() == "done"
    assert set(seconds) == {"one", "two"} and all(value >= 0 for value in seconds.values())
    assert (owner.first, owner.second) == originals


def test_steps_table_lines_up_the_columns():
    lines = side_by_side.steps_table({"stock": {"autograde": 8.0}, "kit": {"autograde": 2.0, "feedback": 4.0}}, 4)
    assert lines[1].split() == ["autograde", "2.000", "s", "0.500", "s"]
    assert lines[2].split() == ["feedback", "1.000", "s"]


def test_the_summary_prints_every_target_met_or_not_or_not_measured(capsys):
    """Each target of the kit's speed is printed beside its figure, met or NOT met; one the run did not measure
    says so and what measures it, and the tally counts it apart."""
    compared = {"stock": 100.0, "kit1": 6.0, "kit2": 3.0, "correct2": 2.0, "learners": 10}
    memory = {100: {"batch_mib": 100.0, "children_mib": 50.0}, 1000: {"batch_mib": 101.0, "children_mib": 50.0}}
    bench.summary(
        compared,
        memory,
        "the course's line",
        {"fresh": 0.3, "otter": 3.6},
        0.1,
        no_change=0.5,
        setup={"setup": 30.0, "first_grade": 20.0, "no_change": 0.4},
    )
    out = capsys.readouterr().out.splitlines()
    lines = [line for line in out if "target:" in line]
    assert len(lines) == 8 and all(line.endswith(", met)") for line in lines), lines
    assert "targets: 8, 8 met, 0 NOT met, 0 not measured" in out
    assert any("all-correct class of 10: 0.20 s per learner" in line and "1.50x" in line for line in out), out
    slow = {"stock": 10.0, "kit1": 3.0, "kit2": 2.5, "learners": 10}
    bench.summary(slow, {100: memory[100]}, "", {"fresh": 0.5}, 0.2, no_change=3.0)
    out = capsys.readouterr().out.splitlines()
    lines = [line for line in out if "target:" in line]
    unmeasured = [line for line in lines if line.endswith(", not measured)")]
    assert len(lines) == 8 and all(line.endswith(", NOT met)") for line in lines if line not in unmeasured), lines
    assert [line.split(":")[0] for line in unmeasured] == [
        "peak RSS of the batch from the smallest cohort to the largest",
        "otter run / the kit on one submission",
        "a fresh clone's first make grade, setup included",
    ]
    assert "BENCH_SETUP=1 measures it" in unmeasured[-1] and "targets: 8, 0 met, 5 NOT met, 3 not measured" in out


def test_the_busy_time_is_read_from_the_machines_own_cpu_line():
    stat = "cpu  100 5 40 900 7 3 2 0 0 0\ncpu0 50 2 20 450 3 1 1 0 0 0\nintr 12345\n"
    assert side_by_side.busy_ticks(stat) == 100 + 5 + 40 + 3 + 2  # idle and iowait are not busy
    assert side_by_side.busy_ticks("intr 1\n") is None
    first = side_by_side.busy_seconds()
    if first is None:
        pytest.skip("this machine has no /proc/stat to read")
    assert first > 0 and side_by_side.busy_seconds() >= first


def test_the_summary_says_what_the_cores_allow_two_workers_when_the_run_read_them(capsys):
    compared = {"stock": 100.0, "kit1": 20.0, "kit2": 12.0, "busy1": 20.5, "busy2": 21.6, "learners": 10}
    memory = {100: {"batch_mib": 100.0, "children_mib": 50.0}}
    bench.summary(compared, memory, "", {"fresh": 0.3}, 0.1)
    out = capsys.readouterr().out
    assert "2 workers over 1: 1.67x (target: at least 1.8x, NOT met)" in out
    line = next(line for line in out.splitlines() if "cores busy" in line)
    assert "x1 20.5 core-s in 20.0 s (1.02 cores), x2 21.6 core-s in 12.0 s (1.80)" in line
    assert "would take 10.8 s, 1.85x over x1 (information)" in line
    bench.summary({**compared, "busy2": None}, memory, "", {"fresh": 0.3}, 0.1)
    assert "cores busy" not in capsys.readouterr().out


def test_the_setup_figures_land_in_the_readme_and_the_performance_page(tmp_path):
    body = first_run.setup_block({"setup": 31.0, "first_grade": 22.0, "no_change": 0.3}, "uv", "2000-01-01")
    for page in first_run.PAGES:
        copy = tmp_path / page.name
        copy.write_text(page.read_text(encoding="utf-8"), encoding="utf-8")
        marked.rewrite(copy, "setup", body, first_run.COMMAND)
        assert marked.block(copy.read_text(encoding="utf-8"), "setup") == body + "\n"
    assert "53 s in all" in body and "(uv)" in body
