"""The course's store (autograder/grading/prepared.py): exact cases, verified on load, ignored when stale or edited."""

import dataclasses
import json

import pytest

from autograder.course import active
from autograder.grading import prepared, runner, worked_out
from autograder.grading.engine import Case, Check

DIGEST = "made-from-these-sources"
MACHINE = prepared.machine()


def case(n, **extra):
    graph = [["p", "mul", ["a", "b"]], ["z", "add", ["p", f"c{n}"]]]
    return Case(
        "backward",
        (graph, {"a": 2, "b": 3.5, f"c{n}": -0.0, "p": 7, "z": 7.0}),
        {"output": "z"},
        label=f"case {n}",
        judged=("a", "b"),
        decode=((0, "graph"),),
        **extra,
    )


def built_cases():
    return (case(9, built={"shape": "chain", "length": 3}, seconds=2.5),)


PROPERTY = Check("demo/property", "backward", 1, "a rule", "reference", strategy=object(), examples=3)
BUILT = Check("demo/built", "backward", 1, "a rule", "linear_time", cases=built_cases)
CHECKS = [PROPERTY, BUILT]
EXAMPLES = {PROPERTY.id: (3, [case(1), case(2), case(3, flags={"return_args": True})])}
INPUTS = {BUILT.id: list(built_cases())}
SECONDS = {("backward", "case 9"): 0.0125}


def stored(**changes):
    parts = dict(examples=EXAMPLES, inputs=INPUTS, seconds=SECONDS, source_digest=DIGEST, measured_on=MACHINE)
    parts.update(changes)
    return prepared.dumps(**parts)


def test_values_come_back_exactly_as_they_went_in():
    values = [
        (1, 2.0, "3", None, True),
        [(), []],
        {"\u0000tuple": (1,), "k": [{"n": (False, 0)}]},
        {},
        float("inf"),
        -0.0,
        10**30,
        "ünïcødé \udc80",
    ]
    for value in values:
        again = prepared.decode(json.dumps(prepared.encode(value)))
        assert again == value and repr(again) == repr(value)


@pytest.mark.parametrize("value", [{1: "a"}, {"a"}, b"bytes", object(), [1, {"x": {2.5}}]])
def test_a_value_json_cannot_hold_exactly_is_refused(value):
    with pytest.raises(prepared.Unencodable):
        prepared.encode(value)


def test_a_store_gives_back_the_cases_of_the_checks_it_was_written_for():
    held = prepared.loads(stored(), CHECKS, source_digest=DIGEST)
    assert held.examples_of(PROPERTY) == EXAMPLES[PROPERTY.id][1]
    assert held.stored_inputs(BUILT) == INPUTS[BUILT.id]
    assert [type(c.args) for c in held.stored_inputs(BUILT)] == [tuple]
    assert held.seconds == SECONDS and not held.reason and not held.refused


def test_a_check_it_was_not_written_for_gets_nothing():
    held = prepared.loads(stored(), CHECKS, source_digest=DIGEST)
    assert held.examples_of(dataclasses.replace(PROPERTY)) is None  # the same id, another check
    assert held.examples_of(dataclasses.replace(PROPERTY, examples=4)) is None
    other = Check("demo/other", "backward", 1, "a rule", "reference", strategy=object(), examples=3)
    assert prepared.loads(stored(), [other], source_digest=DIGEST).examples_of(other) is None


def test_a_stale_store_is_refused_whole():
    with pytest.raises(prepared.StoreError, match="stale"):
        prepared.loads(stored(), CHECKS, source_digest="other sources")


def test_an_edited_entry_is_ignored_and_the_others_are_used():
    data = stored()
    at = data.index(b'"case 2"')
    edited = data[:at] + b'"case 5"' + data[at + 8 :]
    held = prepared.loads(edited, CHECKS, source_digest=DIGEST)
    assert held.examples_of(PROPERTY) is None and "damaged or edited" in held.refused[0]
    assert held.examples_of(PROPERTY) is None  # refused once, then not held
    assert held.stored_inputs(BUILT) == INPUTS[BUILT.id]


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data.replace(b'"format": 2', b'"format": 1'),
        lambda data: data.replace(b"\n", b" ", 1),
        lambda data: b"[1, 2]\n" + data.split(b"\n", 1)[1],
        lambda data: data.replace(b"0.0125", b"-1.0"),
        lambda data: data.replace(b"0.0125", b"NaN"),
        lambda data: data.replace(b'"entries": {', b'"entries": {"inputs/demo/x": [0, 99999999, "x", 0], ', 1),
    ],
)
def test_a_header_that_is_not_a_stores_is_refused(damage):
    with pytest.raises(prepared.StoreError):
        prepared.loads(damage(stored()), CHECKS, source_digest=DIGEST)


def test_times_measured_on_another_machine_are_not_used():
    held = prepared.loads(stored(measured_on="another machine"), CHECKS, source_digest=DIGEST)
    assert held.seconds == {} and held.examples_of(PROPERTY) is not None


def test_load_says_why_it_holds_nothing(tmp_path):
    missing = prepared.load(CHECKS, tmp_path / prepared.NAME)
    assert "none yet" in missing.reason and missing.examples_of(PROPERTY) is None
    (tmp_path / prepared.NAME).write_bytes(b"")
    assert "header" in prepared.load(CHECKS, tmp_path / prepared.NAME).reason
    (tmp_path / prepared.NAME).write_bytes(stored())  # written from other sources than this checkout's
    assert "stale" in prepared.load(CHECKS, tmp_path / prepared.NAME).reason


@pytest.fixture
def sources(monkeypatch):
    """Make the grade sources whatever list the test sets (paths.grade_sources), digested afresh each time asked."""
    from autograder.course import paths
    from autograder.grading import sources_digest

    def use(files):
        monkeypatch.setattr(paths, "grade_sources", lambda: list(files))
        sources_digest.of_grade_sources.cache_clear()

    yield use
    monkeypatch.undo()
    sources_digest.of_grade_sources.cache_clear()


def test_the_digest_follows_every_source(tmp_path, sources):
    from autograder.course import paths

    names = {p.relative_to(prepared.active.KIT_ROOT).as_posix() for p in paths.grade_sources()}
    for needed in (
        "pyproject.toml",
        "autograder/grading/runner.py",
        "solutions/graph.py",
        "exercises/strategies.py",
        "graphcourse/checks/deep_graph.py",
        "notebooks/lessons/lesson1_graphs.py",
    ):
        assert needed in names
    source = tmp_path / "source.py"
    source.write_text("A = 1\n")
    sources([source])
    before = prepared.made_from()
    source.write_text("A = 2\n")
    sources([source])
    assert prepared.made_from() != before


@pytest.fixture
def store_in_use():
    saved = worked_out.store()
    yield
    runner.use(saved)


def test_the_runner_grades_with_what_the_store_holds(store_in_use):
    runner.use(prepared.loads(stored(), CHECKS, source_digest=DIGEST))
    assert runner.drawn_examples(PROPERTY) == EXAMPLES[PROPERTY.id][1]
    assert worked_out.inputs(BUILT) == INPUTS[BUILT.id] and worked_out.inputs(BUILT) is worked_out.inputs(BUILT)
    assert worked_out.reference_seconds(built_cases()[0]) == 0.0125


def test_without_a_store_the_runner_works_everything_out(store_in_use):
    runner.use(prepared.Prepared(reason="none"))
    assert worked_out.inputs(BUILT) == built_cases()
    property_check = next(c for c in active.part("checks").all_checks() if c.strategy is not None)
    drawn = runner.drawn_examples(property_check)
    assert len(drawn) >= 1 and all(type(c) is Case for c in drawn)


def test_gradescope_ships_the_store_and_writes_it_again_on_the_image():
    from pathlib import Path

    from autograder.authoring import gradescope

    assert gradescope._wanted(Path("graphcourse") / prepared.NAME)
    setup = gradescope.scripts()["setup.sh"]
    assert f'GRAPHKIT_COURSE="{prepared.active.name()}"' in setup and "-m autograder.tools.prepare --force" in setup
    assert setup.index("pip install --quiet --editable") < setup.index("autograder.tools.prepare")


@pytest.mark.slow
def test_prepare_writes_what_a_grader_reads_back(tmp_path, store_in_use, monkeypatch):
    """The graph module's checks: every property check's examples, the built inputs as the course builds them,
    the reference's time on each timed case; read back by load() from the file prepare wrote."""
    from autograder.course.lessons import module_of
    from autograder.tools import prepare

    monkeypatch.setattr(prepare, "import_all", lambda: [])  # this worker's later examples stay as they were
    checks = [c for c in active.part("checks").all_checks() if module_of(c.function) == "graph"]
    data, left_out = prepare.contents(checks)
    assert left_out == []
    (tmp_path / prepared.NAME).write_bytes(data)
    held = prepared.load(active.part("checks").all_checks(), tmp_path / prepared.NAME)
    assert not held.reason
    for check in checks:
        if check.strategy is not None:
            assert len(held.examples_of(check)) >= check.examples
        elif callable(check.cases):
            assert held.stored_inputs(check) == list(check.inputs())
    timed = [case for check in checks if check.expect == "linear_time" for case in check.inputs()]
    assert timed and all(held.seconds[(case.fn, case.label)] > 0 for case in timed)


def test_every_module_of_the_kit_is_imported_before_drawing():
    from autograder.tools import prepare

    names = prepare.kit_modules()
    for needed in (
        "autograder.grading.runner",
        "autograder.pipeline.batch",
        "graphcourse.checks.deep_graph",
        "solutions.graph",
        "exercises.strategies",
    ):
        assert needed in names
    assert not [name for name in names if name.endswith("__main__") or ".tests" in name]


def test_a_case_that_would_not_come_back_equal_is_not_stored():
    assert prepared.exact([case(1)]) == [case(1)]
    with pytest.raises(prepared.Unencodable, match="equal to itself"):
        prepared.exact([case(1, seconds=float("nan"))])


def test_sources_that_cannot_be_read_leave_the_store_unused(tmp_path, sources):
    (tmp_path / prepared.NAME).write_bytes(stored())
    sources([tmp_path / "gone.py"])
    held = prepared.load(CHECKS, tmp_path / prepared.NAME)
    assert "cannot be read" in held.reason and held.examples_of(PROPERTY) is None


def test_grading_from_the_store_imports_no_hypothesis():
    """The checks, the judges and the runner load without Hypothesis: only drawing or shrinking examples needs it."""
    import subprocess
    import sys

    script = (
        "import sys; from autograder.course import active; from autograder.grading import runner; "
        "active.part('checks').all_checks(); "
        "from graphcourse import judges; print('hypothesis' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False"], done.stderr


def test_a_strategy_given_as_a_function_is_built_once_and_drawn_as_hypothesis_draws_it():
    """worked_out.strategy_of builds a check's strategy from its function once; the examples drawn are the ones a
    strategy given ready-made gives."""
    from exercises.strategies import graphs

    made = []

    def later():
        made.append(graphs(max_leaves=2, max_nodes=3).map(lambda drawn: case(len(drawn[0]))))
        return made[-1]

    lazy = Check("demo/lazy", "backward", 1, "a rule", "reference", strategy=later, examples=5)
    assert worked_out.strategy_of(lazy) is worked_out.strategy_of(lazy) and len(made) == 1
    ready = dataclasses.replace(lazy, id="demo/ready", strategy=made[0])
    recorded = [runner._Recorder(), runner._Recorder()]
    for recorder, check in zip(recorded, (lazy, ready)):
        recorder.search(check, lambda check, case, reply: None)
    assert recorded[0].cases == recorded[1].cases and len(recorded[0].cases) >= 5


def test_times_edited_in_the_header_refuse_the_whole_store():
    """A hand-in that relaxed the reference's times (and left every entry as it was) changes no later grade."""
    data = stored()
    assert b"0.0125" in data
    with pytest.raises(prepared.StoreError, match="times or entries edited"):
        prepared.loads(data.replace(b"0.0125", b"9.0125"), CHECKS, source_digest=DIGEST)
    header = json.loads(data.split(b"\n", 1)[0])
    header["seconds"][0][2] = 9.0125
    header.pop("digest")
    with pytest.raises(prepared.StoreError, match="times or entries edited"):  # a header without its digest
        prepared.loads(
            json.dumps(header, sort_keys=True).encode() + b"\n" + data.split(b"\n", 1)[1], CHECKS, source_digest=DIGEST
        )


def test_a_process_that_ran_learner_code_never_writes_the_store(tmp_path, monkeypatch):
    from autograder.sandbox import sandbox
    from autograder.tools import prepare

    monkeypatch.setattr(prepare, "contents", lambda: (stored(), []))
    monkeypatch.setattr(sandbox, "_LEARNER_CODE_RAN", [True])
    with pytest.raises(prepared.StoreError, match="learner's code"):
        prepare.write(tmp_path / prepared.NAME, force=True)
    assert not (tmp_path / prepared.NAME).exists()
    monkeypatch.setattr(sandbox, "_LEARNER_CODE_RAN", [])
    prepare.write(tmp_path / prepared.NAME, force=True)
    assert (tmp_path / prepared.NAME).read_bytes() == stored()


def test_the_store_and_the_record_cache_hash_the_same_sources_one_way(monkeypatch):
    """The store is made from the digest the record cache keys its records by: one function, one list of sources,
    read once per process."""
    from autograder.grading import cellgrades, provenance, sources_digest

    assert (
        cellgrades.fingerprint is provenance.fingerprint
        and prepared.of_grade_sources is sources_digest.of_grade_sources
    )
    assert provenance.fingerprint() == sources_digest.of_grade_sources()[0]
    assert sources_digest.of_grade_sources()[0] == sources_digest.digest_of(provenance.fingerprinted_files())
    monkeypatch.setattr(prepared, "of_grade_sources", lambda: ("same", {}))
    before = prepared.made_from()
    monkeypatch.setattr(prepared, "of_grade_sources", lambda: ("other", {}))
    assert prepared.made_from() != before
