"""Zoo entries written as a patch of the reference still apply to it, each old text exactly once (or n times)."""

import ast

import pytest

from autograder.course.markers import drop_markers
from autograder.course.paths import reference_source
from graphcourse import zoo

PATCHED = [e for e in zoo.entries() if e.patch]


def test_the_zoo_has_patch_entries():
    assert len(PATCHED) >= 10


@pytest.mark.parametrize("entry", PATCHED, ids=[e.name for e in PATCHED])
def test_every_patch_applies_once_to_the_current_reference(entry):
    """Each old text occurs once (or its n times) where it is applied; the result parses, defines the function,
    and differs from the definition it edits: the reference's, or its BASE entry's."""
    base = zoo.text(zoo.entry(entry.base)) if entry.base else reference_source(entry.module)
    reference = drop_markers(zoo.definition(base, entry.function))
    text = reference
    for old, new, *times in entry.patch:
        assert text.count(old) == (times[0] if times else 1), (entry.name, old)
        text = text.replace(old, new)
    assert zoo.patched(entry) == text != reference
    assert [n.name for n in ast.parse(text).body] == [entry.function]
    assert zoo.defined_functions(entry) == {entry.function}


def _entry(tmp_path, patch, extra=""):
    path = tmp_path / "buggy_made_up.py"
    head = '"""Made up."""\nFUNCTION = "backward"\nFAILS = ["fan_out_accumulation"]\n'
    path.write_text(f"{head}PATCH = {patch!r}\n{extra}" if patch is not None else head + extra, encoding="utf-8")
    return zoo._entry(path)


def test_a_patch_whose_old_text_is_gone_names_the_file_and_the_text(tmp_path):
    entry = _entry(tmp_path, [("grads[i] += grads[name]", "grads[i] = grads[name]"), ("no such text here", "x")])
    gone = r"buggy_made_up\.py: PATCH\[1\]'s old text 'no such text here' occurs 0 times"
    with pytest.raises(ValueError, match=gone):
        zoo.source(entry)


def test_an_ambiguous_old_text_is_refused(tmp_path):
    entry = _entry(tmp_path, [("grads", "g")])
    with pytest.raises(ValueError, match=r"buggy_made_up\.py: PATCH\[0\]'s old text 'grads' occurs \d+ times"):
        zoo.patched(entry)


def test_a_counted_old_text_must_occur_that_many_times(tmp_path):
    twice = _entry(tmp_path, [("grads[", "g[", 2)])
    with pytest.raises(
        ValueError, match=r"buggy_made_up\.py: PATCH\[0\]'s old text 'grads\[' occurs \d+ times .*not 2 times"
    ):
        zoo.patched(twice)


@pytest.mark.parametrize(
    "patch, extra",
    [
        ([], ""),
        ([("a", "b", "c")], ""),
        ([("", "x")], ""),
        ([("a", "b", 0)], ""),
        ([("a", "b", True)], ""),
        ([("a",)], ""),
        ([("a", "b", 1, 2)], ""),
        ([("a", "b")], "def backward(graph, values, output=None):\n    return {}\n"),
    ],
)
def test_a_malformed_patch_entry_is_refused_when_the_zoo_is_read(tmp_path, patch, extra):
    with pytest.raises(ValueError, match=r"buggy_made_up\.py: .*PATCH"):
        _entry(tmp_path, patch, extra)


def test_the_zoo_has_entries_patched_over_another_entry():
    assert any(e.base for e in PATCHED)


@pytest.mark.parametrize(
    "base, why",
    [
        ("buggy_no_such_entry", "not a buggy entry of backward"),
        ("buggy_recursive_large_shortcut", "not a buggy entry of backward without a BASE"),
        ("buggy_evaluate_assert", "not a buggy entry of backward"),
    ],
)
def test_a_base_that_is_not_a_plain_buggy_entry_of_the_function_is_refused(tmp_path, base, why):
    entry = _entry(tmp_path, [("grads", "g")], f"BASE = {base!r}\n")
    with pytest.raises(ValueError, match=rf"buggy_made_up\.py: BASE '{base}' is {why}"):
        zoo.patched(entry)


def test_a_base_without_a_patch_is_refused_when_the_zoo_is_read(tmp_path):
    with pytest.raises(ValueError, match=r"buggy_made_up\.py: .*BASE names another buggy entry"):
        _entry(tmp_path, None, 'BASE = "buggy_recursive_dfs"\n')
