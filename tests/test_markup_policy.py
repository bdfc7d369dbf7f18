"""Hostile markup against the pages people read: the formgrader's widgets, Bootstrap's overlays, fetches, and the cost
of checking.

The markup policy (autograder/nbgrader/sanitize/) must leave a learner no way to
restyle nbgrader's formgrader or the kit's feedback page, even with no script at all:

* no id of the learner's reaches a page, neither an ``id`` attribute nor the id nbconvert
  makes of a markdown heading's text: nbgrader's formgrader binds each grade cell's
  widgets to ``$("#" + grade_id).parents(".nbgrader_cell")``, so a learner's element with
  a grade cell's id, inside an element of class ``nbgrader_cell``, took the widgets over;
* no class of the learner's: with Bootstrap's ``modal fade show`` that element lay
  invisible over the whole page, and with nbgrader's ``full-credit`` one click anywhere
  gave every forged grade cell full marks; nor from metadata the templates make classes
  of (a cell's tags, the notebook's language);
* nothing is fetched (no tracking image) and no link leaves for a relative or a
  protocol-relative address (a fake "log in again" page);
* a notebook's outputs are capped in number and size, before nbformat reads them, with a
  note; and what checking the markup may cost is paid for before the work, so 200
  markdown cells of 49,000 characters, or HTML nested thousands deep, cost a bounded
  amount of rendering and parsing.

The hostile instances are in tests/hostile_handins/formgrader_markup.json; the large ones
are built below. The formgrader in a real browser is tested by tests/e2e/test_browser.py.
"""

import collections
import html
import json
import re
from html.parser import HTMLParser
from types import SimpleNamespace

import nbformat
import pytest

from autograder.course.lessons import LESSONS
from tests.conftest import ROOT

DATA = ROOT / "tests" / "hostile_handins"
LESSON = LESSONS[0]
# The only classes nbconvert's markdown renderer may add to what the template brings (a fenced code block).
RENDERER_CLASSES = {"highlight", "task-list-item", "task-list-item-checkbox"}


def hostile():
    return json.loads((DATA / "formgrader_markup.json").read_text(encoding="utf-8"))


def lesson_notebook():
    """The lesson notebook with its nbgrader metadata, as the formgrader shows an autograded one."""
    return json.loads(LESSON.notebook_path().read_text(encoding="utf-8"))


def grade_ids(nb):
    return [
        c["metadata"]["nbgrader"]["grade_id"]
        for c in nb["cells"]
        if c.get("metadata", {}).get("nbgrader", {}).get("grade")
    ]


def forged_cells(kind, ids):
    """One markdown source holding a forged grade cell per id, nested, around one invisible overlay."""
    shape = hostile()["forged_cells"][kind]
    return (
        "".join(shape["open"].replace("GRADE_ID", grade_id) for grade_id in ids)
        + shape["overlay"]
        + shape["close"] * len(ids)
    )


def markdown(cell_id, source):
    return {"cell_type": "markdown", "id": cell_id, "metadata": {}, "source": source}


def hostile_notebook(nb=None):
    """A lesson notebook (the lesson's own when None) with every hostile cell put first, before the grade cells they
    forge."""
    nb = json.loads(json.dumps(nb)) if nb is not None else lesson_notebook()
    ids = grade_ids(nb)
    cells = [{k: v for k, v in cell.items() if k != "family"} for cell in hostile()["cells"]]
    cells += [
        markdown("forged-by-heading", forged_cells("by_heading", ids)),  # last: its overlay lies above the others
        markdown("forged-by-attribute", forged_cells("by_attribute", ids)),
    ]
    nb["cells"] = cells + nb["cells"]
    nb["metadata"].update({k: v for k, v in hostile()["notebook_metadata"].items() if k != "about"})
    return nb


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Elements(HTMLParser):
    """Every element's id, class and address attributes in a page, and the attributes inside rendered markdown."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.ids, self.classes = collections.Counter(), collections.Counter()
        self.tagged = collections.defaultdict(list)  # id -> [(tag, classes)]
        self.images, self.links = [], []
        self.in_markdown = set()  # (tag, attribute, value) of elements inside a markdown cell's rendering
        self._open, self._markdown_at = [], None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        found = {name: value or "" for name, value in attrs}
        classes = tuple(found.get("class", "").split())
        self.classes.update(classes)
        if "id" in found:
            self.ids[found["id"]] += 1
            self.tagged[found["id"]].append((tag, classes))
        if tag == "img" and "src" in found:
            self.images.append(found["src"])
        if tag == "a" and "href" in found:
            self.links.append(found["href"])
        if self._markdown_at is not None:
            self.in_markdown.update((tag, name, value) for name, value in found.items())
        if tag not in VOID:
            self._open.append(tag)
            if "rendered_html" in classes and self._markdown_at is None:
                self._markdown_at = len(self._open)

    def handle_endtag(self, tag):
        if tag in self._open:
            while self._open and self._open.pop() != tag:
                pass
            if self._markdown_at is not None and len(self._open) < self._markdown_at:
                self._markdown_at = None


def formgrader_html(nb):
    """The page nbgrader's formgrader shows for a notebook (its SubmissionHandler's exporter and resources)."""
    from nbconvert.exporters import HTMLExporter
    from nbgrader.server_extensions.formgrader import handlers

    exporter = HTMLExporter(template_name="formgrade", extra_template_basedirs=[handlers.template_path])
    resources = {
        "assignment_id": LESSON.assignment,
        "notebook_id": LESSON.notebook[:-6],
        "submission_id": "1",
        "index": 0,
        "total": 1,
        "base_url": "",
        "student": "mallory",
        "last_name": "",
        "first_name": "",
        "notebook_path": "",
    }
    return exporter.from_notebook_node(nbformat.reads(json.dumps(nb), as_version=4), resources=resources)[0]


def feedback_html(nb):
    """The kit's feedback page for a notebook, as generate_feedback writes it (notebooks/nbgrader_config.py)."""
    from nbconvert.exporters import HTMLExporter

    from autograder.nbgrader import feedback_page

    bootstrap = feedback_page.NBGRADER_TEMPLATES.parent / "static" / "node_modules" / "bootstrap" / "dist" / "css"
    exporter = HTMLExporter(
        template_name=feedback_page.TEMPLATE_NAME,
        template_file=feedback_page.TEMPLATE_FILE,
        extra_template_basedirs=feedback_page.template_dirs(),
        extra_template_paths=[str(bootstrap)],
    )  # as nbgrader's GenerateFeedback adds it
    resources = {"nbgrader": {"notebook": LESSON.notebook[:-6], "score": 0, "max_score": 55, "late_penalty": 0}}
    nb = nbformat.reads(json.dumps(nb), as_version=4)
    for cell in nb.cells:  # as autograde leaves them: every grade cell scored
        if cell.metadata.get("nbgrader", {}).get("grade"):
            cell.metadata.nbgrader.score = 0
    return exporter.from_notebook_node(nb, resources=resources)[0]


@pytest.fixture(scope="module")
def pages():
    """Both pages of the lesson notebook as it is (the template's own markup) and with the hostile cells, sanitized."""
    from autograder.nbgrader.sanitize.notebook import sanitize_notebook

    honest, nb = lesson_notebook(), hostile_notebook()
    changed = sanitize_notebook(nb)
    sanitize_notebook(honest)  # the lesson's own headings lose their ids too: the pages compare like for like
    shown = formgrader_html(nb)
    return SimpleNamespace(
        nb=nb,
        changed=changed,
        ids=grade_ids(honest),
        shown=shown,
        form=Elements(shown),
        form_template=Elements(formgrader_html(honest)),
        feedback=Elements(feedback_html(nb)),
        feedback_template=Elements(feedback_html(honest)),
    )


def both(pages):
    return (("formgrader", pages.form, pages.form_template), ("feedback", pages.feedback, pages.feedback_template))


def test_no_id_of_the_learner_reaches_either_page(pages):
    """Forged grade cells (heading text, id attributes) and headings named as the page's own elements add no id.

    The one id a hostile cell adds is nbconvert's anchor of a cell, ``cell-id=`` and the id the kit
    gave the cell: no element the formgrader or the feedback page looks up has an id with ``=``.
    """
    anchors = {f"cell-id={cell['id']}" for cell in pages.nb["cells"]}

    def own(ids):
        return collections.Counter({name: n for name, n in ids.items() if not name.startswith("cell-id=")})

    for where, page, template in both(pages):
        added = own(page.ids) - own(template.ids)
        assert not added and own(page.ids) == own(template.ids), f"{where}: ids the learner added: {added}"
        assert set(page.ids) - set(own(page.ids)) <= anchors, where
        assert not any("=" in name for name in template.ids if not name.startswith("cell-id=")), where
    for grade_id in pages.ids:  # the one element of that id is nbgrader's own score box
        assert pages.form.tagged[grade_id] == [("input", ("score", "tabbable"))], grade_id


def test_cell_ids_on_both_pages_are_the_kits(pages):
    """Every cell's id is the kit's (its position), so nbconvert's anchor ``cell-id=...`` carries nothing of the
    learner's."""
    assert [cell["id"] for cell in pages.nb["cells"]] == [f"cell-{n}" for n in range(len(pages.nb["cells"]))]
    for where, page, _template in both(pages):
        anchors = [name for name in page.ids if name.startswith("cell-id=")]
        assert anchors and all(re.fullmatch(r"cell-id=cell-\d+", name) for name in anchors), (where, anchors)
    nb = hostile_notebook()
    nb["cells"][0]["id"] = "answer_order"  # a valid nbformat id, the same as a grade id
    from autograder.nbgrader.sanitize.notebook import sanitize_notebook

    sanitize_notebook(nb)
    assert "answer_order" not in Elements(feedback_html(nb)).ids


def test_no_class_of_the_learner_reaches_either_page(pages):
    """No Bootstrap overlay, alert or button, no nbgrader class, no renderer class the learner wrote, no align."""
    for where, page, template in both(pages):
        added = set(page.classes) - set(template.classes)
        assert not added, f"{where}: classes the learner added: {added}"
        for name in ("nbgrader_cell", "full-credit", "score", "modal-backdrop", "modal", "navbar-fixed-top", "fade"):
            assert page.classes[name] == template.classes[name], (where, name)
        markup = page.in_markdown - template.in_markdown
        assert markup, f"{where}: no markup of the learner's found"
        assert not {name for _tag, name, _value in markup} & {"id", "class", "style", "align"}, (where, markup)
        assert all(tag in ("a", "img", "abbr") for tag, name, _value in markup if name == "title"), where


def test_nothing_is_fetched_and_no_link_leaves_for_a_relative_address(pages):
    """Images only inline; links only to http(s), mailto or this page: no tracker, no //host, no fake login page."""
    for where, page, template in both(pages):
        for src in set(page.images) - set(template.images):
            assert src.startswith("data:image/"), f"{where}: an image fetched from {src!r}"
        for href in set(page.links) - set(template.links):
            assert href.startswith(("#", "http://", "https://", "mailto:")) and not href.startswith("//"), (
                f"{where}: a link to {href!r}"
            )
    for address in ("tracker.example", "evil.example", "/hub/login", "logout", "login?next", "/formgrader/api/grades"):
        for where, page, _template in both(pages):
            assert not any(address in value for value in page.links + page.images), (where, address)


def test_the_learners_text_still_shows(pages):
    """What the learner wrote shows as text: the headings (without their ids), the link texts, the alert."""
    text = html.unescape(pages.shown)
    for words in (
        "notebook-container",
        "statusmessage",
        "Log in again",
        "Session expired: log in again",
        "the docs",
        "a fixed bar",
        "looks",
        "like code",
        "HIDDEN_FROM_THE_GRADER",
    ):
        assert words in text, words
    assert "<h2>statusmessage</h2>" in pages.shown
    assert pages.changed >= len(hostile()["cells"]) + 2


def test_sanitizing_the_hostile_notebook_again_changes_nothing(pages):
    from autograder.nbgrader.sanitize.notebook import sanitize_notebook

    assert sanitize_notebook(json.loads(json.dumps(pages.nb))) == 0


# ---------------------------------------------------------------- outputs: capped before the work


def many_outputs():
    """A notebook of 20,000 one-character prints and 1,200 pictures of 5 KB (a scaled-down 46 MB notebook)."""
    nb = lesson_notebook()
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    code[0]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "x"} for _ in range(20_000)]
    picture = "A" * 5_000
    code[1]["outputs"] = [
        {"output_type": "display_data", "metadata": {}, "data": {"image/png": picture}} for _ in range(1_200)
    ]
    code[2]["outputs"] = [
        {"output_type": "stream", "name": ("stdout", "stderr")[i % 2], "text": "y"} for i in range(2_000)
    ]
    return nb, code


def outputs_of(nb):
    return [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]


def test_outputs_are_merged_and_capped_with_a_note(monkeypatch):
    """Streams are merged as Jupyter shows them; past the caps, outputs are dropped with a note; no dropped one is
    looked at."""
    from autograder.nbgrader.capped_outputs import MAX_OUTPUT_CHARS, MAX_OUTPUTS, output_chars
    from autograder.nbgrader.sanitize import notebook as sanitizer

    looked_at = []
    real = sanitizer._safe_output
    monkeypatch.setattr(sanitizer, "_safe_output", lambda output, budget: looked_at.append(1) or real(output, budget))
    nb, code = many_outputs()
    sanitizer.sanitize_notebook(nb)
    kept = outputs_of(nb)
    assert len(kept) <= MAX_OUTPUTS and len(looked_at) <= MAX_OUTPUTS
    assert sum(output_chars(o) for o in kept) <= MAX_OUTPUT_CHARS
    assert code[0]["outputs"] == [{"output_type": "stream", "name": "stdout", "text": "x" * 20_000}]  # nothing lost
    notes = [o for o in kept if "not shown from here on" in o.get("data", {}).get("text/plain", "")]
    assert len(notes) == 1 and notes[0] is code[1]["outputs"][-1], "one note, where the cap was reached"
    assert f"at most {MAX_OUTPUTS:,} outputs" in notes[0]["data"]["text/plain"]
    assert code[2]["outputs"] == [], "every later output is dropped"
    assert sanitizer.sanitize_notebook(json.loads(json.dumps(nb))) == 0


def test_the_mirror_caps_outputs_before_nbformat_reads_the_notebook(tmp_path, monkeypatch):
    """The mirror step (handins.prepared) gives nbformat, whose checks cost time per output, the capped notebook."""
    from autograder.nbgrader.capped_outputs import MAX_OUTPUTS
    from autograder.pipeline import handins

    read = []
    real = nbformat.reads
    monkeypatch.setattr(
        nbformat, "reads", lambda text, *a, **k: read.append(len(outputs_of(json.loads(text)))) or real(text, *a, **k)
    )
    release = tmp_path / "release.ipynb"
    release.write_text(json.dumps(lesson_notebook()), encoding="utf-8")
    course = SimpleNamespace(release=lambda lesson: release, cache=tmp_path / "cache", root=tmp_path)
    nb, _code = many_outputs()
    text, problem = handins.prepared(course, json.dumps(nb).encode(), LESSON.notebook, LESSON)
    assert problem == "" and read and max(read) <= MAX_OUTPUTS, read
    assert len(outputs_of(json.loads(text))) <= MAX_OUTPUTS


# ---------------------------------------------------------------- checking markup: paid for before the work


def test_rendering_and_parsing_are_paid_for_before_they_run(monkeypatch):
    """200 markdown cells of 49,000 characters and HTML nested 3,000 deep: the renderer and bleach see a bounded amount.

    Both are replaced by cheap stand-ins that count what they are given (the real ones take
    a minute on this notebook); what they are given must fit the notebook's budget.
    """
    import bleach
    from nbconvert.filters.markdown_mistune import MarkdownWithMath

    from autograder.nbgrader.sanitize import notebook as sanitizer
    from autograder.nbgrader.sanitize.policy import MAX_CHECKED_PER_NOTEBOOK

    rendered, parsed = [], []

    def render(self, source):
        rendered.append(len(source))
        return "<p>" + html.escape(source, quote=False) + "</p>\n"

    def clean(text, *args, **kwargs):
        parsed.append(text)
        return text

    monkeypatch.setattr(MarkdownWithMath, "render", render)
    monkeypatch.setattr(bleach, "clean", clean)
    words = [f"word{i} " for i in range(200)]
    nested = "<ul><li>" * 3_000 + "deep" + "</li></ul>" * 3_000
    nb = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {},
        "cells": [markdown("nested", nested)] + [markdown(f"m{i}", (words[i] * 10_000)[:49_000]) for i in range(200)],
    }
    sanitizer.sanitize_notebook(nb)
    budget = MAX_CHECKED_PER_NOTEBOOK
    assert sum(rendered) + sum(len(text) for text in parsed) <= budget, (sum(rendered), len(parsed))
    assert not any("<ul><li>" * 100 in text for text in parsed), "HTML nested 3,000 deep went to bleach"
    shown_as_text = [c for c in nb["cells"] if c["source"].startswith("<pre>")]
    assert len(shown_as_text) >= 200 - budget // 49_000
    assert html.unescape(nb["cells"][-1]["source"]).startswith("<pre>word199 word199")
