"""A feedback page rendered from the memo of repeated cells is byte for byte the page rendered without it."""

import base64

import nbformat

from autograder.nbgrader import page_memo, speedups
from tests.conftest import NOTEBOOKS

PIXEL = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\x00" * 16).decode()
OTHER_PIXEL = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\x01" * 16).decode()


def notebook():
    """A lesson notebook, with cells that share a text but not what else their rendering reads."""
    nb = nbformat.read(sorted((NOTEBOOKS / "source").glob("lesson1_*/*.ipynb"))[0], as_version=4)
    nb.metadata["language_info"] = {"name": "python", "pygments_lexer": "ipython3"}  # the lexer magics_language changes
    code = "x = [1, 2] + y  # echo $x\n"
    nb.cells += [
        nbformat.v4.new_code_cell(code),
        nbformat.v4.new_code_cell(code, metadata={"magics_language": "bash"}),
        nbformat.v4.new_markdown_cell("![a dot](attachment:dot.png)", attachments={"dot.png": {"image/png": PIXEL}}),
        nbformat.v4.new_markdown_cell(
            "![a dot](attachment:dot.png)", attachments={"dot.png": {"image/png": OTHER_PIXEL}}
        ),
    ]
    return nb


def page(nb):
    return speedups.exporter_class()().from_notebook_node(nb)[0]


def test_a_page_from_the_memo_is_the_page_without_it(monkeypatch):
    nb = notebook()
    monkeypatch.setattr(page_memo, "HIGHLIGHTED", page_memo.Memo(0))
    monkeypatch.setattr(page_memo, "MARKDOWN", page_memo.Memo(0))
    without = page(nb)
    monkeypatch.setattr(page_memo, "HIGHLIGHTED", page_memo.Memo())
    monkeypatch.setattr(page_memo, "MARKDOWN", page_memo.Memo())
    assert page(nb) == without  # the memo filled as it renders
    assert page(nb) == without  # and every cell taken from it
    assert PIXEL in without and OTHER_PIXEL in without


def test_the_memo_keeps_at_most_its_entries_the_latest_used():
    memo, made = page_memo.Memo(2), []

    def render(text):
        made.append(text)
        return text.upper()

    for text in ("a", "b", "a", "c", "a", "b"):
        assert memo.rendered(page_memo.key_of(text), lambda text=text: render(text)) == text.upper()
    assert made == ["a", "b", "c", "b"]  # "b" dropped when "c" came, "a" kept as the latest used


def test_a_key_is_none_for_text_too_long_or_data_json_cannot_write():
    assert page_memo.key_of("x" * page_memo.LONGEST) is not None
    assert page_memo.key_of("x" * page_memo.LONGEST, "y") is None
    assert page_memo.key_of({1j: "complex"}) is None
    assert page_memo.key_of("a", {"b": 1}) != page_memo.key_of("a", {"b": 2})
    made = []
    memo = page_memo.Memo()
    for _ in range(2):
        memo.rendered(None, lambda: made.append(1))
    assert made == [1, 1]
