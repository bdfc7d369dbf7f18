"""The documentation: generated pages are current, measured figures come from the commands that measure them."""

import re

import pytest

from autograder.tools import bench, docs, marked, mutants
from tests.conftest import ROOT

README_LIMIT = 6 * 1024  # bytes: the README says what the kit is and where to read on
PAGES = sorted((ROOT / "docs").glob("*.md")) + sorted(ROOT.glob("*.md"))  # README.md, CONTRIBUTING.md, CHANGELOG.md
CAPS_PAGE = ROOT / "docs" / "security.md"  # its figures are limits the kit sets, not measurements
# A duration or a count of tests is a measurement: typed by hand, it goes stale at the next change.
MEASURED = re.compile(r"\b\d[\d.,]*\s?(?:ms|us|µs|ns|s|sec|seconds?|min|minutes?|hours?)\b|\b\d+ (?:tests|passed)\b")
BLOCK = re.compile(r"^<!-- begin (\S+?):.*?^<!-- end \1 -->$", re.DOTALL | re.MULTILINE)


def test_checks_page_is_current():
    """docs/checks.md's tables are the ones `make docs` writes from the check files and the zoo."""
    assert docs.stale() == [], "docs/checks.md is stale: run `make docs` (python -m autograder.tools.docs)"


def test_a_block_is_rewritten_and_the_rest_kept(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n\nprose 1\n<!-- begin figures: written by make x; do not edit -->\n"
        "old\n<!-- end figures -->\nprose 2\n"
    )
    marked.rewrite(page, "figures", "new\nlines", "make x")
    assert page.read_text() == (
        "# Title\n\nprose 1\n<!-- begin figures: written by make x; do not edit -->\n"
        "new\nlines\n<!-- end figures -->\nprose 2\n"
    )
    assert marked.block(page.read_text(), "figures") == "new\nlines\n"


def test_a_page_without_the_block_is_refused_with_the_lines_to_add(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Title\n")
    with pytest.raises(
        marked.MissingBlock, match=r"page\.md: no block 'bench'.*<!-- begin bench: written by make bench"
    ):
        marked.rewrite(page, "bench", "figures", "make bench")
    assert page.read_text() == "# Title\n"


def test_the_recorder_keeps_what_was_printed(capsys):
    with marked.recorded() as printed:
        print("seen and kept")
    assert printed.copy.getvalue() == "seen and kept\n" and capsys.readouterr().out == "seen and kept\n"


@pytest.mark.parametrize(
    "page, name, body",
    [
        ("performance.md", "bench", bench.page_block("machine: 2 cores\nfigures\n", 40, (100, 300), "2000-01-01")),
        ("mutation.md", "mutants", mutants.page_block("mutants generated  3\n", "2000-01-01")),
    ],
)
def test_make_bench_and_make_mutants_can_write_their_pages(tmp_path, page, name, body):
    """The page holds the block its command writes, and the command's text lands in it whole."""
    copy = tmp_path / page
    copy.write_text((ROOT / "docs" / page).read_text(encoding="utf-8"), encoding="utf-8")
    marked.rewrite(copy, name, body, f"make {name}")
    assert marked.block(copy.read_text(encoding="utf-8"), name) == body + "\n"
    assert "2000-01-01" in body and "```\n" in body


def test_the_readme_is_short():
    size = len((ROOT / "README.md").read_bytes())
    assert size <= README_LIMIT, (
        f"README.md is {size} bytes, over {README_LIMIT}: move the detail to a page in docs/ and link it"
    )


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_leads_to_a_file(page):
    text = page.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    missing = [t for t in targets if "://" not in t and not t.startswith("mailto:") and not (page.parent / t).exists()]
    assert missing == [], f"{page.relative_to(ROOT)} links to files that do not exist: {missing}"


@pytest.mark.parametrize("page", [p for p in PAGES if p != CAPS_PAGE], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_measured_figure_is_typed_by_hand(page):
    """Outside the blocks their commands write, pages carry no durations and no counts of tests."""
    text = BLOCK.sub("", page.read_text(encoding="utf-8"))
    found = sorted({m.group(0) for m in MEASURED.finditer(text)})
    assert found == [], (
        f"{page.relative_to(ROOT)} quotes measured figures by hand: {found}; drop them, or have the "
        "command that measures them write them into a marked block (autograder/tools/marked.py)"
    )
