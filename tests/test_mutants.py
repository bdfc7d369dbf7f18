"""The mutant generator: many distinct, compilable mutants, only inside solution regions and the OPS table."""

import ast
import difflib
import io
import re

import pytest

from autograder.tools import mutants

REFERENCE_TEXT = mutants.REFERENCE.read_text(encoding="utf-8")
MUTANTS = mutants.mutants(REFERENCE_TEXT)


def editable_lines(text):
    """Line numbers (1-based) inside BEGIN/END SOLUTION pairs or inside the OPS table's braces, found by text."""
    lines = text.splitlines()
    editable, inside, in_ops = set(), False, False
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped in ("### BEGIN SOLUTION", "### END SOLUTION"):
            inside = stripped == "### BEGIN SOLUTION"
            continue
        if line.startswith("OPS = {"):
            in_ops = True
            continue
        if in_ops and line.startswith("}"):
            in_ops = False
            continue
        if inside or in_ops:
            editable.add(number)
    return editable


def changed_lines(before, after):
    """The reference lines a mutant replaced or deleted, and the lines next to anything it inserted."""
    old, new = before.splitlines(), after.splitlines()
    touched = set()
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            touched.update(range(i1 + 1, i2 + 1))
        elif tag == "insert":
            touched.update({i1, i1 + 1})
    return touched


def test_at_least_forty_distinct_mutants():
    """The generator makes at least 40 mutants, no two with the same text or the same key."""
    assert len(MUTANTS) >= 40
    assert len({m.source for m in MUTANTS}) == len(MUTANTS)
    assert len({m.key for m in MUTANTS}) == len(MUTANTS)


def test_every_mutant_changes_the_code():
    """No mutant is the reference in another layout: each one changes the syntax tree, not just the text."""
    reference = ast.dump(ast.parse(REFERENCE_TEXT))
    same = [m.key for m in MUTANTS if ast.dump(ast.parse(m.source)) == reference]
    assert not same, same


@pytest.mark.parametrize("mutant", MUTANTS, ids=[f"line{m.line}-{m.kind}-{i}" for i, m in enumerate(MUTANTS)])
def test_every_mutant_compiles(mutant):
    """Each mutant is valid Python that still defines OPS and the four functions."""
    tree = ast.parse(mutant.source)
    compile(tree, "mutant", "exec")
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    defined |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    assert {"OPS", "evaluate", "inputs_of", "users_of", "backward"} <= defined


def test_mutants_touch_only_solution_regions_and_the_ops_table():
    """Every line a mutant changes lies between SOLUTION markers or inside the OPS table's entries."""
    editable = editable_lines(REFERENCE_TEXT)
    assert editable
    for m in MUTANTS:
        touched = changed_lines(REFERENCE_TEXT, m.source)
        assert touched, m.key
        assert touched <= editable, f"{m.key} changes lines {sorted(touched - editable)}"


def test_markers_and_docstrings_survive_every_mutant():
    """Mutants keep every SOLUTION marker and every docstring of the reference."""
    reference = ast.parse(REFERENCE_TEXT)
    docs = {n.name: ast.get_docstring(n) for n in reference.body if isinstance(n, ast.FunctionDef)}
    for m in MUTANTS:
        assert m.source.count("### BEGIN SOLUTION") == REFERENCE_TEXT.count("### BEGIN SOLUTION"), m.key
        assert m.source.count("### END SOLUTION") == REFERENCE_TEXT.count("### END SOLUTION"), m.key
        tree = ast.parse(m.source)
        assert {n.name: ast.get_docstring(n) for n in tree.body if isinstance(n, ast.FunctionDef)} == docs, m.key


def test_every_operator_makes_a_mutant():
    """Each mutation operator in OPERATORS finds at least one place to act on the reference."""
    used = {m.kind for m in MUTANTS}
    assert used == set(mutants.OPERATORS), f"operators that made nothing: {set(mutants.OPERATORS) - used}"


@pytest.mark.parametrize(
    "before, after",
    [
        ("reversed(graph)", "graph"),
        ("grads[i] += grads[name] * slope", "grads[i] = grads[name] * slope"),
        ("list(inputs)", "inputs"),
        ("dict(leaves)", "leaves"),
        ("graph[-1]", "graph[0]"),
        ("(b, a)", "(a, b)"),
        ("a > 0", "a >= 0"),
        ("return values", "return"),
    ],
)
def test_the_classic_mistakes_are_among_the_mutants(before, after):
    """The generator makes the mutants that mirror the lesson's classic mistakes."""
    assert any(m.before == before and m.after == after for m in MUTANTS), f"{before} -> {after}"


def test_valueerror_becomes_keyerror():
    """raise ValueError(...) in evaluate has a mutant raising KeyError with the same message."""
    swapped = [m for m in MUTANTS if m.kind == "exception"]
    assert swapped and all(m.after.startswith("raise KeyError(") for m in swapped)


def test_classified_survivors_name_real_mutants():
    """Every key in EQUIVALENT and GAPS is the key of a mutant the generator makes, and none is in both."""
    keys = {m.key for m in MUTANTS}
    assert set(mutants.EQUIVALENT) <= keys
    assert set(mutants.GAPS) <= keys
    assert not set(mutants.EQUIVALENT) & set(mutants.GAPS)


def test_the_report_counts_each_family_a_mutant_fails_once():
    """Kills are counted by the failed checks' families, as the engine reads a check id: a mutant failing two checks
    of one family counts once for it."""
    first, second = MUTANTS[:2]
    outcome = {
        None: (10, 10, [], 0.0),
        first: (6, 10, ["deep_graph/long_chain", "deep_graph/wide_fan", "linear_time/chain"], 0.0),
        second: (9, 10, ["deep_graph/long_chain"], 0.0),
    }
    out = io.StringIO()
    mutants.report([first, second], outcome, 1.0, out)
    kills = out.getvalue().split("mutants each family kills")[1].split("\n\n")[0]
    assert re.findall(r"^  (\S+) +(\d+)$", kills, re.MULTILINE) == [("deep_graph", "2"), ("linear_time", "1")]
