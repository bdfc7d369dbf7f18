"""The answers a notebook's widgets saved, read as hostile plain JSON and turned into assignments of literals.

A widget that answers a question keeps ``answers`` ({VARIABLE: value}) and ``answered_at``
(milliseconds, when they last changed) in its state, and JupyterLab saves every widget's
state in the notebook's metadata. ``saved_answers`` reads them back, standard library only,
and runs nothing: a model, a name or a value of any other shape is left out, with a note.
What passes is exact: a name is an upper-case identifier; a value is a short string, a whole
number, a finite float, or a short flat list of those. Where two widgets answer the same
variable, the later answer wins.

``answers_chunk`` writes them as Python, one ``NAME = literal`` line each (``repr`` of the
checked values, so the text is a literal and nothing else). A notebook's code cells come
after it, so an answer cell that sets the variable itself takes precedence over the widget.

The notebook's widget state is not kept everywhere a notebook goes (the kit removes it from
the copies the formgrader shows), so the answers themselves may also sit, already checked,
under the notebook metadata's ``KEPT`` key; that copy is read with the same checks.
"""

import math
import re

from exercises.notebook import KEPT  # notebook metadata: {VARIABLE: value}, the answers as the kit keeps them

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
NAME = re.compile(r"[A-Z][A-Z0-9_]{0,39}")
MAX_MODELS = 200  # widget models read in one notebook; a lesson has a few
MAX_ANSWERS = 16  # variables one widget may answer
MAX_TEXT = 64  # characters in a string answer
MAX_ITEMS = 32  # items in a list answer
MAX_INT = 10**12
MAX_STAMP = 2**53


def _plain(value):
    """Is ``value`` one answer's scalar of an exact, bounded type?"""
    kind = type(value)
    if kind is str:
        return len(value) <= MAX_TEXT
    if kind is int:
        return -MAX_INT <= value <= MAX_INT
    if kind is float:
        return math.isfinite(value) and abs(value) <= MAX_INT
    return False


def valid(value):
    """Is ``value`` an answer the kit reads: a bounded scalar, or a short flat list of them?"""
    if type(value) is list:
        return len(value) <= MAX_ITEMS and all(_plain(item) for item in value)
    return _plain(value)


def _models(metadata):
    """(answers, answered_at) of each widget model in the metadata's saved state, in the order saved."""
    widgets = metadata.get("widgets")
    saved = widgets.get(WIDGET_STATE) if isinstance(widgets, dict) else None
    state = saved.get("state") if isinstance(saved, dict) else None
    found = []
    for model in list(state.values())[:MAX_MODELS] if isinstance(state, dict) else ():
        inner = model.get("state") if isinstance(model, dict) else None
        answers = inner.get("answers") if isinstance(inner, dict) else None
        if isinstance(answers, dict) and answers:
            stamp = inner.get("answered_at")
            found.append((answers, stamp if type(stamp) is int and 0 <= stamp < MAX_STAMP else 0))
    return found


def saved_answers(nb, label="the notebook"):
    """({VARIABLE: value}, [notes]): the answers the notebook's widgets saved, checked; ``label`` names it in notes."""
    metadata = nb.get("metadata") if isinstance(nb, dict) else None
    if not isinstance(metadata, dict):
        return {}, []
    sources = _models(metadata)
    kept = metadata.get(KEPT)
    if isinstance(kept, dict) and kept:
        sources.append((kept, MAX_STAMP))
    chosen, stamps, notes = {}, {}, []
    for answers, stamp in sources:
        if len(answers) > MAX_ANSWERS:
            notes.append(f"{label}: a widget saved more than {MAX_ANSWERS} answers, so none of its answers were read")
            continue
        for name, value in answers.items():
            if type(name) is not str or not NAME.fullmatch(name):
                notes.append(f"{label}: a widget saved an answer under a name that is no answer's, so it was not read")
            elif not valid(value):
                notes.append(
                    f"{label}: the answer a widget saved for {name} is not a short list, name or number, so it "
                    "was not read; click it again, or type the answer in its cell"
                )
            elif stamp >= stamps.get(name, -1):
                chosen[name], stamps[name] = value, stamp
    return chosen, list(dict.fromkeys(notes))


def answers_chunk(answers):
    """Python that sets each answer's variable to its value: one ``NAME = literal`` line each ("" for none)."""
    lines = [f"{name} = {value!r}" for name, value in answers.items() if NAME.fullmatch(name) and valid(value)]
    return "\n".join(lines) + "\n" if lines else ""


def chunks(nb, label):
    """([(label, code)], [notes]): the saved answers as one chunk of code, to run before the notebook's cells."""
    answers, notes = saved_answers(nb, label)
    return ([(f"{label} widget answers", answers_chunk(answers))] if answers else []), notes
