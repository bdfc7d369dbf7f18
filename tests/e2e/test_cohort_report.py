"""The cohort report in a 1,280 × 800 window: the summary and every learner's scores on the first screen.

The report is rendered from a cohort shaped as the demo cohort is (the course's six lessons and
every hidden check, the demo's twelve learners, and a long name), as plain data with seeded
outcomes, so no grading runs. Chromium opens it at 1,280 × 800: the page is no wider than the
window, the table of each lesson's figures and every learner's scores ends above the fold, the long sections are
folded below, and no learner's name breaks inside a word. The screenshot is docs/images/cohort_report.png.
"""

import random

import pytest

from autograder.course import active
from autograder.course.lessons import LESSONS
from autograder.pipeline import cohort_report
from autograder.pipeline.cohort_report import Cohort, Entry, Lesson
from tests.conftest import ROOT

pytestmark = pytest.mark.e2e

WINDOW = {"width": 1280, "height": 800}
LEARNERS = (
    "ada",
    "alan",
    "barbara",
    "dennis",
    "donald",
    "edsger",
    "frances",
    "grace",
    "john",
    "ken",
    "linus",
    "margaret",
    "bartholomew-fitzgerald-hargreaves",
)
PICTURE = ROOT / "docs" / "images" / "cohort_report.png"


def demo_shaped_cohort():
    """Six lessons, every hidden check, thirteen learners: who hands in what and what passes is drawn from a seed."""
    draw = random.Random(32)
    checks = [(c.id, c.function, c.points) for c in active.part("checks").all_checks()]
    lessons = [Lesson(lesson.assignment, lesson.notebook, 40.0) for lesson in LESSONS]
    learners = {}
    for number, student in enumerate(LEARNERS):
        entries = {}
        for index, lesson in enumerate(lessons):
            if index > 1 and number % 3 == 1:
                continue  # a third of them handed in the first two lessons only
            outcome = [
                {"id": c, "function": f, "points": p, "score": p, "passed": True, "misconception": ""}
                for c, f, p in checks
                if draw.random() < 0.1
            ]
            for result in outcome[::2]:
                result.update(score=0, passed=False, misconception="assigns where it should add")
            entries[lesson.assignment] = Entry(
                "graded",
                score=float(draw.randint(10, 40)),
                checks=outcome,
                seconds=draw.random(),
                late_seconds=3600.0 * (number == 9),
            )
        learners[student] = entries
    rules = {c.id: c.rule for c in active.part("checks").all_checks()}
    return Cohort(lessons, checks, [], learners, rules=rules)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "cohort_report.html"
    path.write_text(
        cohort_report.html_page(demo_shaped_cohort(), course="graphkit", date="2026-12-03"), encoding="utf-8"
    )
    return path


def test_the_first_screen_shows_the_summary_and_every_learner(browser, report, shots):
    page = browser.new_page()
    page.set_viewport_size(WINDOW)
    try:
        page.goto(report.as_uri())
        PICTURE.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=PICTURE)
        page.screenshot(path=shots / "cohort-report-first-screen.png")
        assert page.evaluate("document.documentElement.scrollWidth") <= WINDOW["width"], (
            "the page is wider than the window"
        )
        lessons = page.locator("table.learners tr.lessons").last.bounding_box()
        first_learner = page.locator("table.learners td.name").first.bounding_box()
        learners = page.locator("table.learners").bounding_box()
        assert lessons["y"] < first_learner["y"], "each lesson's figures come before the learners' rows"
        assert learners["y"] + learners["height"] <= WINDOW["height"], (
            f"the learners' table ends at {learners['y'] + learners['height']:.0f} px, below the first screen"
        )
        assert learners["x"] + learners["width"] <= WINDOW["width"]
        for section in ("distribution", "checks", "items", "misconceptions", "by-hand", "attention"):
            details = page.locator(f"details:has(h2#{section})")
            assert details.count() == 1 and not details.evaluate("node => node.open"), f"{section} is not folded"
        page.evaluate(
            "document.querySelectorAll('details').forEach(node => { node.open = true; })"
        )  # every table shown
        lines = page.evaluate("""() => [...document.querySelectorAll('td.name')].map(cell => {
            const range = document.createRange(); range.selectNodeContents(cell);
            const tops = [...range.getClientRects()].map(rect => Math.round(rect.top));
            return [cell.textContent, new Set(tops).size]; })""")
        assert lines and all(count == 1 for _name, count in lines), f"a learner's name breaks across lines: {lines}"
        assert page.evaluate("document.documentElement.scrollWidth") <= WINDOW["width"], "an opened section is too wide"
    finally:
        page.close()
