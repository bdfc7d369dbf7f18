"""The benchmark's helpers (make bench): cohorts, settings, stock course layout, step timing. No timing is asserted."""

import types

import pytest

from autograder.course.lessons import LESSONS
from autograder.tools import bench, cohorts, first_run, marked, otter, scale, stock
from graphcourse import bench as edges, builders, zoo
from solutions import graph as reference


def test_spread_takes_every_item_once_before_repeating():
    items = list(range(10))
    assert cohorts.spread(items, 5) == [0, 2, 4, 6, 8]
    assert cohorts.spread(items, 10) == items
    assert cohorts.spread(items, 12) == items + [0, 1]
    assert cohorts.spread([], 3) == []


def test_zoo_learners_are_the_same_every_time_and_span_the_zoo():
    first, again = cohorts.zoo_learners(40), cohorts.zoo_learners(40)
    assert first == again
    assert len({learner.student_id for learner in first}) == 40
    codes = [learner.code[0] for learner in first]
    names = [entry.name for entry in zoo.entries()]
    assert len(set(codes)) == 40
    assert any(code.startswith("correct_") for code in codes) and codes[0] == names[0]
    assert [learner.student_id for learner in cohorts.zoo_learners(3)] == ["learner0", "learner1", "learner2"]


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
    lines = bench.steps_table({"stock": {"autograde": 8.0}, "kit": {"autograde": 2.0, "feedback": 4.0}}, 4)
    assert lines[1].split() == ["autograde", "2.000", "s", "0.500", "s"]
    assert lines[2].split() == ["feedback", "1.000", "s"]


def test_the_summary_prints_every_target_met_or_not(capsys):
    """Each target of the kit's speed is printed beside its figure, met or NOT met; one not measured is NOT met."""
    compared = {"stock": 100.0, "kit1": 6.0, "kit2": 3.0, "learners": 10}
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
    lines = [line for line in capsys.readouterr().out.splitlines() if "target:" in line]
    assert len(lines) == 8 and all(", met)" in line and "NOT met" not in line for line in lines), lines
    slow = {"stock": 10.0, "kit1": 3.0, "kit2": 2.5, "learners": 10}
    bench.summary(slow, {100: memory[100]}, "", {"fresh": 0.5}, 0.2)
    lines = [line for line in capsys.readouterr().out.splitlines() if "target:" in line]
    assert len(lines) == 7 and all("NOT met" in line for line in lines), lines


def test_the_setup_figures_land_in_the_readme_and_the_performance_page(tmp_path):
    body = first_run.setup_block({"setup": 31.0, "first_grade": 22.0, "no_change": 0.3}, "uv", "2000-01-01")
    for page in first_run.PAGES:
        copy = tmp_path / page.name
        copy.write_text(page.read_text(encoding="utf-8"), encoding="utf-8")
        marked.rewrite(copy, "setup", body, first_run.COMMAND)
        assert marked.block(copy.read_text(encoding="utf-8"), "setup") == body + "\n"
    assert "53 s in all" in body and "(uv)" in body
