"""The kit's HTML pages: the cohort report (a Jinja2 template) and the feedback page's template.

The report is rendered from a small cohort made here, as plain data; the feedback page
from a small notebook, by nbconvert's HTMLExporter configured as the course config
(notebooks/nbgrader_config.py) configures nbgrader's generate_feedback.
"""

import html
import json
import re
from html.parser import HTMLParser

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from autograder.course.lessons import LESSONS
from autograder.pipeline import cohort_report, item_analysis, terminal_table
from autograder.pipeline.cohort_report import Cohort, Entry, Lesson
from tests.conftest import ROOT

NOISY = {1, 2, 7, 9}  # passes noise/one: as many weak learners as strong ones, whatever their totals
HOSTILE_ID = "eve<script>alert(1)</script>"
HOSTILE_NOTE = '<img src=x onerror=alert(2)> & "quoted"'
CHECKS = [
    ("easy/one", "evaluate", 5),
    ("hard/one", "evaluate", 5),
    ("split/one", "backward", 10),
    ("noise/one", "backward", 4),
]
RULES = {
    "easy/one": "evaluate returns every value.",
    "hard/one": "evaluate raises ValueError naming the node.",
    "split/one": "backward adds one contribution per edge.",
    "noise/one": "backward sweeps in reverse order.",
}


def check(check_id, passed, misconception=""):
    function = next(f for c, f, _p in CHECKS if c == check_id)
    points = next(p for c, _f, p in CHECKS if c == check_id)
    return {
        "id": check_id,
        "function": function,
        "points": points,
        "score": points if passed else 0,
        "passed": passed,
        "misconception": "" if passed else misconception,
    }


def cohort(learners=12):
    """A seeded cohort: easy/one always passes, hard/one always fails, split/one follows the total, noise/one
    alternates."""
    lessons = [Lesson("lesson1", "first.ipynb", 10), Lesson("lesson2", "second.ipynb", 14)]
    found = {}
    for i in range(learners):
        student = f"s{i:02d}" if i else HOSTILE_ID
        strong = i >= learners // 2
        one = Entry(
            "graded",
            score=5 + 5 * strong,
            checks=[check("easy/one", True), check("hard/one", False, "names <b>nothing</b>")],
            answers={"answer_q1": True, "answer_q2": False},
            seconds=1.5 if i % 3 else 0.0,
        )
        two = Entry(
            "graded",
            score=10 * strong + i % 3,
            checks=[check("split/one", strong, "assigns at fan-out"), check("noise/one", i in NOISY)],
        )
        found[student] = {"lesson1": one, "lesson2": two}
    found[HOSTILE_ID]["lesson2"] = Entry(
        "unreadable", problem=HOSTILE_NOTE, checks=[check("split/one", False), check("noise/one", False)]
    )
    return Cohort(
        lessons,
        CHECKS,
        ["answer_q1", "answer_q2"],
        found,
        notes=[f"{HOSTILE_ID}/lesson1/x.ipynb: skipped {HOSTILE_NOTE}"],
        rules=RULES,
    )


class Elements(HTMLParser):
    """Every start tag of a page with its attributes, and whether a script element appears."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tags = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


@pytest.fixture(scope="module")
def page():
    return cohort_report.html_page(cohort())


def test_report_has_both_plots_as_inline_svg(page):
    tags = Elements(page).tags
    plots = [attrs for tag, attrs in tags if tag == "svg"]
    assert len(plots) == 2 and all("plot" in a["class"] for a in plots)
    assert sum(1 for tag, _a in tags if tag == "rect") >= 10 + 2 * len(CHECKS)  # histogram bars, check tracks and fills
    for rule in RULES.values():
        assert rule in page  # each check's bar carries the sentence it enforces
    assert "<script" not in page.lower()


def test_item_analysis_flags_all_pass_all_fail_and_noise(page):
    rows = {row["id"]: row for row in item_analysis.analyse(cohort())}
    assert rows["easy/one"]["flag"] == "all_pass" and rows["answer_q1"]["flag"] == "all_pass"
    assert rows["hard/one"]["flag"] == "all_fail" and rows["answer_q2"]["flag"] == "all_fail"
    assert rows["split/one"]["flag"] == "" and rows["split/one"]["index"] > 0.8
    assert rows["noise/one"]["flag"] in ("low", "negative")
    assert "every learner passes it" in page and "every learner fails it" in page
    assert item_analysis.INDEX_SENTENCE in page.replace("&#39;", "'")


def test_a_small_cohort_gets_a_note_instead_of_an_index():
    rows = {row["id"]: row for row in item_analysis.analyse(cohort(learners=4))}
    assert rows["split/one"]["index"] is None and "too few learners" in rows["split/one"]["says"]
    assert "too few learners" in cohort_report.html_page(cohort(learners=4))


def test_point_biserial_matches_the_formula():
    assert item_analysis.point_biserial([1, 1, 0, 0], [10, 10, 0, 0]) == pytest.approx(1.0)
    assert item_analysis.point_biserial([0, 0, 1, 1], [10, 10, 0, 0]) == pytest.approx(-1.0)
    assert item_analysis.point_biserial([1, 1, 1], [1, 2, 3]) is None
    assert item_analysis.point_biserial([1, 0], [5, 5]) is None


def test_learner_text_is_escaped(page):
    assert HOSTILE_ID not in page and "<img" not in page and "names <b>" not in page
    assert html.escape(HOSTILE_ID, quote=False) in page
    assert "onerror=alert(2)" in html.unescape(page)  # shown as text, never as markup
    assert not [attrs for _tag, attrs in Elements(page).tags if any(name.startswith("on") for name in attrs)]


def test_every_score_links_to_its_feedback_page(page):
    links = [attrs["href"] for tag, attrs in Elements(page).tags if tag == "a"]
    assert "feedback/s01/lesson1/first.html" in links and "feedback/s01/lesson2/second.html" in links
    hostile = [link for link in links if link.startswith("feedback/eve")]
    assert hostile and all("<" not in link and "%3C" in link for link in hostile)


def test_grading_time_is_shown_when_known_and_left_out_when_not(page):
    assert "grading time" in page and "1.5 s" in page  # s01: 1.5 s in lesson1, nothing known for lesson2
    untimed = cohort()
    for entries in untimed.learners.values():
        for entry in entries.values():
            entry.seconds = 0.0
    assert "grading time" not in cohort_report.html_page(untimed)


def test_report_is_the_same_for_the_same_cohort(page):
    assert cohort_report.html_page(cohort()) == page
    assert re.search(r"<h2[^>]*>Score distribution</h2>", page) and "Pass rate of every hidden check" in page


def test_a_report_built_learner_by_learner_keeps_only_their_rows(page):
    """Report.add takes a learner's records and keeps their row only: emptying the records afterwards changes
    nothing."""
    whole = cohort()
    report = cohort_report.Report(whole.lessons, whole.checks, whole.answers, whole.notes, whole.rules)
    for student in sorted(whole.learners):
        entries = whole.learners[student]
        report.add(student, entries)
        for entry in entries.values():  # the caller lets the records go: nothing the report keeps may change
            entry.checks.clear(), entry.answers.clear(), entry.results.clear()
    assert report.html_page() == page
    assert report.checks_csv() == cohort_report.checks_csv(cohort())
    kept = [entry for entries in report.cohort.learners.values() for entry in entries.values()]
    assert kept and not any(entry.checks or entry.answers or entry.results for entry in kept)
    assert terminal_table.summary_table(report.cohort) == terminal_table.summary_table(cohort())
    with pytest.raises(ValueError, match="student order"):
        report.add("a", {})  # before the learners already added: the item analysis sums in student order


def pass_rate_plot(page):
    return re.search(r'<svg[^>]*aria-label="Pass rate of every hidden check.*?</svg>', page, re.S).group(0)


def test_each_rule_sentence_shows_once_above_the_checks_it_governs():
    """Two variants of one family share a rule: the sentence is drawn once, with both checks' bars under it."""
    shared = cohort()
    shared.rules = dict(RULES, **{"hard/one": RULES["easy/one"]})
    plot = pass_rate_plot(cohort_report.html_page(shared))
    assert plot.count(RULES["easy/one"]) == 1 and plot.count(RULES["split/one"]) == 1
    data = cohort_report.Report.of(shared).page_data()["pass_rates"]
    groups = [[row["id"] for row in group["rows"]] for group in data["groups"]]
    assert sorted(map(sorted, groups)) == [["easy/one", "hard/one"], ["noise/one"], ["split/one"]]
    assert groups[0] == ["hard/one", "easy/one"]  # the group of the hardest check first, hardest first within it


def test_the_report_names_the_course_and_its_date_and_each_lessons_mean():
    whole = cohort()
    page = cohort_report.html_page(whole, course="graphkit <course>", date="2025-03-15")
    assert "graphkit &lt;course&gt;" in page and "2025-03-15" in page
    means = {row["lesson"]: row for row in cohort_report.Report.of(whole).lesson_means()}
    for lesson in whole.lessons:
        handed = [e.score for e in (whole.entry(s, lesson.assignment) for s in whole.learners) if e.status != "missing"]
        assert means[lesson.assignment]["handed_in"] == len(handed)
        assert means[lesson.assignment]["mean"] == f"{sum(handed) / len(handed):.1f}"
    handed_in = [
        sum(whole.entry(s, lesson.assignment).status != "missing" for s in whole.learners) for lesson in whole.lessons
    ]
    assert (
        '<tr class="lessons"><th scope="row">handed in</th>' + "".join(f'<td class="n">{n}</td>' for n in handed_in)
    ) in page
    assert page.index('class="lessons"') < page.index('class="name"'), "each lesson's row comes before the learners'"
    assert "As of" not in cohort_report.html_page(whole)  # no date given, none made up


def test_a_check_nobody_was_graded_on_is_not_among_the_hardest():
    whole = cohort()
    whole.checks = whole.checks + [("later/one", "later_function", 5)]
    page = cohort_report.html_page(whole)
    assert "later/one" not in pass_rate_plot(page) and "Left out: 1 check" in page
    assert "later/one" in page  # the item analysis still lists it, as graded by no hand-in


def test_untouched_hand_ins_and_grades_set_by_hand_are_flagged():
    whole = cohort()
    whole.learners["s01"]["lesson1"].untouched = True
    whole.learners["s02"]["lesson2"].manual = {
        "grades": {"split_correct": {"score": 9.0, "auto_score": 0.0, "max_score": 10.0, "extra_credit": 0.0}},
        "comments": {"split_solution": '=HYPERLINK("x") <b>see me</b>'},
    }
    assert "lesson1 untouched" in cohort_report.remarks(whole, "s01")
    assert "lesson2 graded by hand" in cohort_report.remarks(whole, "s02")
    page = cohort_report.html_page(whole)
    section = page[page.index('id="by-hand"') : page.index('id="attention"')]
    assert "lesson2/split_correct: 9 (hidden checks: 0)" in section and "&lt;b&gt;see me&lt;/b&gt;" in section
    rows = {row[0]: row for row in csv_rows(cohort_report.checks_csv(whole))}
    header = rows["student_id"]
    said = rows["s02"][header.index("graded_by_hand")]
    assert said.startswith("lesson2/split_correct: 9 (hidden checks: 0) | lesson2/split_solution: comment: ")
    assert rows["s01"][header.index("graded_by_hand")] == "" and header[-1] == "problems"


def csv_rows(text):
    import csv
    import io

    return list(csv.reader(io.StringIO(text)))


# ---------------------------------------------------------------- the feedback page


LONG_VALUE = "x" * 400  # one token far wider than the page
HOSTILE_VALUE = "<script>alert(3)</script>"


def graded_cell(grade_id, points, score, outputs, source="assert True"):
    cell = new_code_cell(source, outputs=outputs)
    cell.metadata["nbgrader"] = {
        "grade": True,
        "solution": False,
        "locked": True,
        "grade_id": grade_id,
        "points": points,
        "score": score,
        "schema_version": 3,
    }
    return cell


def solution_cell(grade_id, source, comment, grade=False, kind="code"):
    """A solution cell with the comment GetGrades puts in its metadata (nbgrader's "No response." or a grader's)."""
    cell = new_code_cell(source) if kind == "code" else new_markdown_cell(source)
    cell.metadata["nbgrader"] = {
        "grade": grade,
        "solution": True,
        "locked": False,
        "grade_id": grade_id,
        "points": 2 if grade else 0,
        "score": 0.0,
        "comment": comment,
        "schema_version": 3,
    }
    return cell


def graded_notebook():
    """A notebook as generate_feedback sees it: grade cells with the outputs HiddenChecks writes and GetGrades'
    scores."""
    failed = new_output(
        "error",
        ename="HiddenCheckFailed",
        evalue=f"evaluate returned {HOSTILE_VALUE} {LONG_VALUE}",
        traceback=["wrong_order_valueerror/wrong_order (evaluate): 0/3 FAILED", f"  got {LONG_VALUE}"],
    )
    cells = [
        new_markdown_cell("# Lesson one\n\nSome prose."),
        solution_cell("order_solution", "ORDER = ['q', 'p', 'L']", "No response."),
        graded_cell(
            "answer_order",
            1,
            0.0,
            [
                new_output("stream", name="stdout", text="answer_order: not yet right\n"),
                new_output(
                    "error",
                    ename="HiddenCheckFailed",
                    evalue="ORDER cannot be computed in that order",
                    traceback=["With `=`, a value keeps only its last contribution."],
                ),
            ],
        ),
        solution_cell("essay", "Why reverse?", "No response.", grade=True, kind="markdown"),
        solution_cell("evaluate_solution", "def evaluate(graph, leaves): ...", "Mind ``KeyError``, please."),
        graded_cell(
            "evaluate_correct",
            25,
            15.0,
            [
                new_output("stream", name="stdout", text="hidden checks: 15/25 points, 5 of 9 passed\n  passed  x\n"),
                new_output("execute_result", data={"text/plain": "15"}, execution_count=None),
                failed,
            ],
        ),
    ]
    return new_notebook(
        cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    )


def feedback_html(template_of_the_kit=True, nb=None, found=None):
    """The notebook through the exporter that nbgrader's GenerateFeedback builds from the course config.

    nbgrader's API sets HTMLExporter.template_name = "feedback" before every feedback run; the course
    config's settings, made under GenerateFeedback, must win over it.
    """
    from nbconvert.exporters import HTMLExporter
    from nbgrader.converters.generate_feedback import GenerateFeedback
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config import Config
    from traitlets.config.loader import PyFileConfigLoader

    from autograder.nbgrader.feedback_page import GradeCellSummary

    config = PyFileConfigLoader("nbgrader_config.py", path=str(ROOT / "notebooks")).load_config()
    if not template_of_the_kit:
        del config.GenerateFeedback["HTMLExporter"]
    converter = GenerateFeedback(coursedir=CourseDirectory(config=config), config=config)
    converter.update_config(
        Config({"HTMLExporter": {"template_name": "feedback"}})
    )  # as NbGraderAPI.generate_feedback does
    exporter = HTMLExporter(parent=converter, config=converter.config)
    last = converter.preprocessors[-1]  # the others need a gradebook: the scores are set above, as GetGrades sets them
    assert last.rsplit(".", 1)[-1] == GradeCellSummary.__name__
    exporter.register_preprocessor(last)  # as nbgrader registers it: no enabled=True
    resources = {"nbgrader": dict(found or {"notebook": "first"}, score=16.0, max_score=26.0, late_penalty=0)}
    return exporter.from_notebook_node(nbformat.from_dict(nb or graded_notebook()), resources=resources)[0]


@pytest.fixture(scope="module")
def feedback():
    return feedback_html()


def summary_rows(page):
    table = re.search(r'<table[^>]*class="grade-summary".*?</table>', page, re.S)
    assert table, "no summary table"
    return re.findall(r"<tr.*?</tr>", table.group(0), re.S)


def test_feedback_page_opens_with_a_summary_of_the_grade_cells(feedback):
    rows = summary_rows(feedback)
    assert feedback.index('class="grade-summary"') < feedback.index("Lesson one")
    body = [row for row in rows if "<code>" in row and "Comment</a>" not in row and "essay" not in row]
    assert len(body) == 2
    first, second = body
    assert "<code>answer_order</code>" in first and "the answer ORDER" in first and "0 / 1" in first
    assert "not yet right \u2014 ORDER cannot be computed in that order" in first and "answer_order:" not in first
    assert "<code>evaluate_correct</code>" in second and "evaluate: the hidden checks" in second and "15 / 25" in second
    assert "hidden checks: 15/25 points, 5 of 9 passed" in second and "evaluate returned" in second
    for grade_id in ("answer_order", "evaluate_correct"):
        assert f'href="#{grade_id}"' in feedback and f'name="{grade_id}"' in feedback  # the link and its target
    assert "Test cell</a> (Score" not in feedback  # nbgrader's own table of contents is replaced


def test_feedback_outputs_wrap_and_learner_text_is_escaped(feedback):
    assert re.search(r"pre\s*\{[^}]*white-space:\s*pre-wrap;[^}]*overflow-wrap:\s*anywhere", feedback)
    assert HOSTILE_VALUE not in feedback
    assert html.escape(HOSTILE_VALUE, quote=False) in feedback
    message = next(row for row in summary_rows(feedback) if "evaluate_correct" in row)
    assert "\u2026" in message and LONG_VALUE not in message  # the one-line message is cut; the detail has it all


def test_the_feedback_page_loads_nothing(feedback):
    """No script at all (nbgrader's page loads MathJax from a CDN; the lessons need no maths), nothing fetched."""
    assert not re.findall(r"<script\b", feedback, re.I) and "mathjax" not in feedback.lower()
    stock = feedback_html(template_of_the_kit=False)
    assert re.findall(r"<script\b", stock, re.I), "nbgrader's own page should still load its script"
    tags = Elements(feedback).tags
    fetched = [a.get("src") or a.get("href") for tag, a in tags if tag in ("script", "img", "link", "iframe")]
    assert not [address for address in fetched if address and not address.startswith(("data:", "#"))], fetched


def test_only_comments_a_person_wrote_are_shown(feedback):
    """nbgrader's automatic "No response." is dropped on an autograded solution cell, kept on a cell graded by hand."""
    rows = summary_rows(feedback)
    comments = [row for row in rows if "Comment</a>" in row]
    assert len(comments) == 2, comments
    assert any("essay" in row and "No response." in row for row in comments)
    assert any("evaluate_solution" in row and "Mind ``KeyError``, please." in row for row in comments)  # as written
    assert not any("order_solution" in row for row in comments)
    text = html.unescape(re.sub(r"<[^>]+>", "", feedback))
    assert text.count("No response.") == 2  # the essay's row and its footer


def test_no_bare_out_prompt_and_no_literal_backticks_in_what_grading_wrote(feedback):
    """The score output nbgrader read is not shown as Out[ ]:, and `code` in grading's text loses its backticks."""
    assert "Out[" not in html.unescape(re.sub(r"<[^>]+>", "", feedback))
    assert "15 / 25" in feedback  # the score is still in the summary and in the cell's header
    body = feedback[feedback.index('id="notebook"') :]
    outputs = " ".join(re.findall(r'<div class="output_subarea[^>]*>(.*?)</div>', body, re.S))
    assert "\u2018=\u2019" in html.unescape(outputs) and "`" not in html.unescape(outputs)


def test_code_in_a_summary_message_is_shown_as_code():
    from autograder.nbgrader.feedback_page import code_parts

    assert code_parts("Use `x` and ``y``.") == [
        ("Use ", False),
        ("x", True),
        (" and ", False),
        ("y", True),
        (".", False),
    ]
    nb = graded_notebook()
    nb.cells[2].outputs[0]["text"] = "answer_order: keep `=` out\n"
    row = next(row for row in summary_rows(feedback_html(nb=nb)) if "answer_order" in row)
    assert "keep <code>=</code> out" in row and "`" not in row


def lesson_drawing():
    """The first lesson's first drawing cell, as its source notebook holds it: (id, source)."""
    lesson = LESSONS[0]
    nb = json.loads((ROOT / "notebooks" / "source" / lesson.assignment / lesson.notebook).read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code" and "draw(" in "".join(c["source"]))
    return cell["id"], "".join(cell["source"])


@pytest.fixture(scope="module")
def drawn():
    """A feedback page of the first lesson holding its drawing cell twice: unchanged (under another id), and edited."""
    lesson = LESSONS[0]
    cell_id, source = lesson_drawing()
    same, edited = new_code_cell(source), new_code_cell(source + "\nprint('mine')")
    same["id"], edited["id"] = "kept-by-its-source", cell_id
    nb = graded_notebook()
    nb.cells[1:1] = [same, edited]
    found = {"notebook": lesson.notebook.rsplit(".", 1)[0], "assignment": lesson.assignment}
    return feedback_html(nb=nb, found=found)


def test_a_lesson_drawing_cell_shows_the_picture_or_says_why_not(drawn):
    """The course's drawing cell, unchanged, shows the picture drawn from the source notebook; an edited one says
    why it has none, and nothing of the learner's cell is run (its print never shows)."""
    images = [a["src"] for tag, a in Elements(drawn).tags if tag == "img"]
    assert len(images) == 1 and images[0].startswith("data:image/png;base64,")
    text = html.unescape(re.sub(r"<[^>]+>", "", drawn))
    assert "drawn with the reference's code" in text and "No picture here: this cell is no longer the lesson's" in text
    assert text.index("drawn with the reference's code") < text.index("No picture here")
    assert "\nmine\n" not in text


def test_the_terminal_table_fits_100_columns_and_counts_the_remarks():
    """make grade's table: no line over 100 columns, lessons numbered with a key when their names do not fit."""
    lessons = [Lesson(f"lesson{n}_{'with_a_long_name' * 2}", f"n{n}.ipynb", 10) for n in range(1, 7)]
    long_id = "a" * 60
    learners = {
        long_id: {lessons[0].assignment: Entry("graded", score=7, late_seconds=7200.0, penalty=1.0)},
        "s01": {lesson.assignment: Entry("unreadable", problem="x" * 420) for lesson in lessons},
    }
    table = terminal_table.summary_table(Cohort(lessons, [], [], learners))
    lines = table.splitlines()
    assert all(len(line) <= terminal_table.TERMINAL for line in lines), table
    assert lines[0].split()[:3] == ["learner", "#1", "#2"] and "#6 lesson6_" in table, table
    assert "5 missing, 1 late" in table and "6 unreadable" in table and "x" * 30 not in table
    assert long_id not in table and long_id[: terminal_table.LEARNER_WIDTH - 1] + "…" in table
    short = terminal_table.summary_table(cohort())
    assert short.splitlines()[0].split()[:3] == ["learner", "lesson1", "lesson2"], "names that fit are kept"
