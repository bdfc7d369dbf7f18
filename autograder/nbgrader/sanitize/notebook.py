"""A notebook made safe to show, cell by cell: outputs, raw cells, attachments, metadata and ids; and the preprocessor
that does it for nbgrader's feedback."""

import copy
import html
import re

import nbformat
from nbconvert.preprocessors import Preprocessor

from autograder.nbgrader.capped_outputs import cap_notebook, notebook_text
from autograder.nbgrader.sanitize.markdown import safe_markdown, shown_safely
from autograder.nbgrader.sanitize.policy import Budget, clean_html, is_safe_html, is_safe_svg, too_deep

KEPT_OUTPUT_DATA = ("text/plain", "text/latex", "image/png", "image/jpeg")  # shown escaped or base64 in quotes
CHECKED_OUTPUT_DATA = ("text/html", "text/markdown")  # kept only when they pass the policy as they are
ATTACHMENT_TYPES = ("image/png", "image/jpeg", "image/gif")
OUTPUT_TYPES = ("stream", "display_data", "execute_result", "error")
# nbconvert's templates make classes of a few metadata strings: a cell's tags (celltag_<tag>), its
# magics_language and the notebook's language (highlight hl-<language>). Each must be one word.
ONE_WORD = re.compile(r"[A-Za-z0-9_.:+#-]{1,64}")


def _count(value):
    return value if type(value) is int else None


def _safe_output(output, budget):
    """A safe copy of one code cell output, or None to drop it."""
    if not isinstance(output, dict) or output.get("output_type") not in OUTPUT_TYPES:
        return None
    kind = output["output_type"]
    if kind == "stream":
        text = notebook_text(output.get("text"))
        name = output.get("name") if output.get("name") in ("stdout", "stderr") else "stdout"
        return nbformat.from_dict({"output_type": "stream", "name": name, "text": text or ""})
    if kind == "error":
        lines = output.get("traceback")
        lines = [line for line in lines if isinstance(line, str)] if isinstance(lines, list) else []
        return nbformat.from_dict(
            {
                "output_type": "error",
                "ename": notebook_text(output.get("ename")) or "",
                "evalue": notebook_text(output.get("evalue")) or "",
                "traceback": lines,
            }
        )
    data = output.get("data") if isinstance(output.get("data"), dict) else {}
    kept, removed = {}, []
    for mimetype, value in data.items():
        text = notebook_text(value)
        if mimetype in KEPT_OUTPUT_DATA and text is not None:
            kept[mimetype] = text
        elif mimetype == "text/html" and text is not None and is_safe_html(text, budget):
            kept[mimetype] = text
        elif mimetype == "image/svg+xml" and text is not None and is_safe_svg(text, budget):
            kept[mimetype] = text
        elif mimetype == "text/markdown" and text is not None and shown_safely(text, None, budget) == text:
            kept[mimetype] = text
        else:
            removed.append(str(mimetype))
    if removed and "text/plain" not in kept:
        kept["text/plain"] = f"[output not shown: {', '.join(sorted(removed))} cannot be shown safely]"
    safe = {"output_type": kind, "data": kept, "metadata": {}}
    if kind == "execute_result":
        safe["execution_count"] = _count(output.get("execution_count"))
    return nbformat.from_dict(safe)


def _cleaned_raw(source, budget):
    """A raw cell's HTML cleaned by bleach, or all of it escaped when it is too long (or bleach fails)."""
    if budget.take(source) and not too_deep(source):
        try:
            return clean_html(source)
        except Exception:  # noqa: BLE001 - escaped below
            pass
    return html.escape(source, quote=False)


def _one_word(value):
    return isinstance(value, str) and bool(ONE_WORD.fullmatch(value))


def _safe_metadata(cell):
    """A cell's tags and magics_language, which templates make classes of, one word each; its transient part dropped."""
    metadata = cell.get("metadata")
    if not isinstance(metadata, dict):
        return
    if "tags" in metadata:
        tags = metadata["tags"]
        kept = [tag for tag in tags if _one_word(tag)] if isinstance(tags, list) else []
        if kept != tags:
            metadata["tags"] = kept
    if "magics_language" in metadata and not _one_word(metadata["magics_language"]):
        del metadata["magics_language"]
    metadata.pop("transient", None)  # never saved by Jupyter; remove_source would hide the code from the grader


def sanitize_cell(cell, budget=None):
    """Make one cell (a dict, changed in place) safe to show; return whether anything changed.

    A code cell's outputs should be capped first (capped_outputs.cap_notebook, as
    ``sanitize_notebook`` does): each one kept costs a copy.
    """
    budget = budget or Budget()
    before = copy.deepcopy(cell)
    _safe_metadata(cell)
    kind = cell.get("cell_type")
    source = notebook_text(cell.get("source"))
    if kind == "markdown":
        attachments = cell.get("attachments")
        if isinstance(attachments, dict):
            kept = {}
            for name, bundle in attachments.items():
                if isinstance(name, str) and isinstance(bundle, dict):
                    images = {t: v for t, v in bundle.items() if t in ATTACHMENT_TYPES and isinstance(v, str)}
                    if images:
                        kept[name] = images
            if kept != attachments:
                cell["attachments"] = nbformat.from_dict(kept)
        elif "attachments" in cell:
            del cell["attachments"]
        cleaned, changed = safe_markdown(source or "", cell.get("attachments"), budget)
        if changed or source is None:
            cell["source"] = cleaned
    elif kind == "raw":
        if source is None or not is_safe_html(source, budget):
            cell["source"] = _cleaned_raw(source or "", budget)
    elif kind == "code":
        outputs = cell.get("outputs") if isinstance(cell.get("outputs"), list) else []
        safe = [o for o in (_safe_output(output, budget) for output in outputs) if o is not None]
        if safe != outputs:
            cell["outputs"] = safe
        if "execution_count" not in cell or _count(cell.get("execution_count")) != cell.get("execution_count"):
            cell["execution_count"] = _count(cell.get("execution_count"))
    return cell != before


def sanitize_notebook(nb):
    """Make a notebook (nbformat 4, as a dict or NotebookNode, changed in place) safe to show; return how many cells'
    markup or code it changed."""
    metadata = nb.get("metadata")
    if isinstance(metadata, dict):
        metadata.pop("widgets", None)  # nbconvert embeds widget state, and then the widget scripts
        language = metadata.get("language_info")
        if isinstance(language, dict):  # it names the class of every code cell's highlighted source
            if "pygments_lexer" in language and not _one_word(language["pygments_lexer"]):
                del language["pygments_lexer"]
            if "name" in language and not _one_word(language["name"]):
                language["name"] = "python"  # required by nbformat; the kit's notebooks are Python
    capped = {id(cell) for cell in cap_notebook(nb)}
    cells = nb.get("cells") if isinstance(nb.get("cells"), list) else []
    budget = Budget()
    changed = 0
    for position, cell in enumerate(cells):
        if isinstance(cell, dict):
            kit_cell_id(cell, position)  # every id is the kit's; a renumbered id is not markup made safe
            changed += sanitize_cell(cell, budget) | (id(cell) in capped)
    return changed


def kit_cell_id(cell, position):
    """Give a cell that has an id the kit's (``cell-<position>``); return whether it changed.

    nbconvert writes a cell's id into the page as an element id (``id="cell-id=..."``), so a learner's id
    never reaches a page: the kit's are unique, one word, and name no grade cell.
    """
    if "id" not in cell or cell["id"] == f"cell-{position}":
        return False
    cell["id"] = f"cell-{position}"
    return True


class SanitizeMarkup(Preprocessor):
    """Feedback shows a learner's markdown, raw cells and outputs only as inert markup (``sanitize_notebook``)."""

    def preprocess(self, nb, resources):
        changed = sanitize_notebook(nb)
        if changed:
            self.log.info("Made the markup of %d cell(s) safe to show", changed)
        return nb, resources
