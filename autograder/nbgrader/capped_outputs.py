"""A notebook's outputs, capped in number and in size before anything else reads them.

Every page that shows a notebook (nbgrader's formgrader, the feedback page) and every
step that reads one (nbformat's validation, nbgrader, the markup policy of
sanitize/) costs time and memory per output. A learner's notebook can hold
800,000 one-character outputs (46 MB), so a notebook's outputs are capped first:

* consecutive stream outputs of the same stream (stdout, stderr) are merged into one,
  as Jupyter itself shows them: nothing is lost;
* then outputs are kept in order, cell after cell, while the notebook stays within
  ``MAX_OUTPUTS`` outputs and ``MAX_OUTPUT_CHARS`` characters of output (text, images
  as base64, tracebacks). The output that reaches a cap is cut when it is text (the
  part that fits is kept), dropped otherwise, and every later output of the notebook is
  dropped. A note (a plain-text output, ``NOTE``) takes the place of what was left
  out, in the cell where it began, with the number of outputs and characters left out.

The caps are far above a lesson notebook's own (a few dozen outputs, a few drawings of
about 30 KB each) and keep a hostile one to a page a browser opens at once. The work is
bounded before it is done: each output is looked at once, for its type and the lengths
of its strings, and a merged stream is joined only up to what may still be kept.
Capping twice changes nothing.
"""

import json

MAX_OUTPUTS = 1_000  # outputs of a notebook, after merging streams; the note counts as one
MAX_OUTPUT_CHARS = 5_000_000  # characters of all of a notebook's outputs together; the note included
NOTE_CHARS = 400  # kept free for the note, which is shorter
NOTE = (
    "[{outputs:,} output(s) and {chars:,} character(s) of output not shown from here on: "
    "a notebook shows at most {most_outputs:,} outputs and {most_chars:,} characters of output]"
)


def _length(value):
    """Characters of a notebook string (a str or a list of str), of a MIME bundle's values, else 0."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, list):
        return sum(len(part) for part in value if isinstance(part, str))
    if isinstance(value, dict):
        return sum(_length(part) for part in value.values() if isinstance(part, (str, list)))
    return 0


NOT_SHOWN = ("metadata", "output_type", "name", "stream", "execution_count", "prompt_number")


def output_chars(output):
    """The characters an output shows: its text, data, traceback (its metadata aside: the markup policy drops it)."""
    return sum(_length(value) for key, value in output.items() if key not in NOT_SHOWN)


def notebook_text(value):
    """A notebook string (a str, or a list of str as nbformat allows), or None."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(part, str) for part in value):
        return "".join(value)
    return None


STREAMS = ("stdout", "stderr")


def _stream_name(output):
    """The stream of a stream output whose text is a notebook string, else None."""
    if isinstance(output, dict) and output.get("output_type") == "stream":
        name, text = output.get("name"), output.get("text")
        if name in STREAMS and (type(text) is str or (isinstance(text, list) and all(type(p) is str for p in text))):
            return name
    return None


class _Merged:
    """A run of stream outputs of one stream, as one output: its pieces are joined only when kept."""

    def __init__(self, name):
        self.name, self.pieces, self.chars = name, [], 0

    def add(self, text):
        self.pieces.append(text)
        self.chars += len(text) if type(text) is str else _length(text)

    def output(self, most):
        """The merged output with at most ``most`` characters of text."""
        kept, left = [], most
        for piece in self.pieces:
            if left <= 0:
                break
            text = piece if type(piece) is str else "".join(piece)
            kept.append(text[:left])
            left -= len(kept[-1])
        return {"output_type": "stream", "name": self.name, "text": "".join(kept)}


def _run_at(outputs, start):
    """(output or _Merged, characters, end): the output at ``start``, or the run of streams of one name it begins."""
    output = outputs[start]
    name = _stream_name(output)
    if name is None:
        return output, output_chars(output) if isinstance(output, dict) else 0, start + 1
    run, end = _Merged(name), start
    while end < len(outputs) and _stream_name(outputs[end]) == name:
        run.add(outputs[end]["text"])
        end += 1
    return run, run.chars, end


def _sizes(outputs, start=0):
    """(outputs, characters) of ``outputs[start:]``, a run of streams of one name counted as one output."""
    count = chars = 0
    last = None
    for index in range(start, len(outputs)):
        output = outputs[index]
        name = _stream_name(output)
        if name is not None:
            text = output["text"]
            chars += len(text) if type(text) is str else _length(text)
            count += name != last
            last = name
            continue
        last = None
        count += 1
        chars += output_chars(output) if isinstance(output, dict) else 0
    return count, chars


def _cut(output, most):
    """An output cut to ``most`` characters when it is text alone, or None."""
    if isinstance(output, _Merged):
        return output.output(most)
    if _stream_name(output) is not None:
        return {**output, "text": notebook_text(output["text"])[:most]}
    data = output.get("data") if isinstance(output, dict) else None
    if isinstance(data, dict) and list(data) == ["text/plain"] and notebook_text(data["text/plain"]) is not None:
        return {**output, "data": {"text/plain": notebook_text(data["text/plain"])[:most]}, "metadata": {}}
    return None


def note(outputs, chars):
    """The plain-text output that stands for what was left out."""
    text = NOTE.format(outputs=outputs, chars=chars, most_outputs=MAX_OUTPUTS, most_chars=MAX_OUTPUT_CHARS)
    return {"output_type": "display_data", "metadata": {}, "data": {"text/plain": text}}


class OutputCaps:
    """What one notebook may still keep; ``cap`` each code cell's outputs in order.

    limited: whether the notebook's outputs, merged, are over a cap; when they are not,
    nothing is dropped and room is kept for no note (so capping twice changes nothing).
    """

    def __init__(self, limited=True):
        self.outputs_left = MAX_OUTPUTS - 1 if limited else MAX_OUTPUTS  # one kept free for the note
        self.chars_left = MAX_OUTPUT_CHARS - NOTE_CHARS if limited else MAX_OUTPUT_CHARS
        self.full = False  # a cap was reached: every later output is dropped
        self.left_out = [0, 0]  # outputs and characters dropped after the note
        self._note = None

    def cap(self, outputs):
        """``outputs`` (a list) merged and capped, or the same list when nothing changes."""
        if self.full:
            self._leave_out(*_sizes(outputs))
            return [] if outputs else outputs
        kept, changed, index = [], False, 0
        while index < len(outputs):
            output, chars, end = _run_at(outputs, index)
            merged = isinstance(output, _Merged)
            if self.outputs_left > 0 and chars <= self.chars_left:
                changed = changed or (merged and end - index > 1)
                kept.append(output.output(chars) if merged else output)
                self.outputs_left -= 1
                self.chars_left -= chars
                index = end
                continue
            self.full = changed = True
            part = _cut(output, self.chars_left) if self.outputs_left > 0 and self.chars_left > 0 else None
            if part is not None:
                kept.append(part)
                self._leave_out(0, chars - output_chars(part))
            else:
                self._leave_out(1, chars)
            self._note = note(0, 0)
            kept.append(self._note)
            self._leave_out(*_sizes(outputs, end))
            break
        return kept if changed else outputs

    def _leave_out(self, outputs, chars):
        self.left_out[0] += outputs
        self.left_out[1] += chars

    def finish(self):
        """Write into the note what was left out, once every cell is capped."""
        if self._note is not None:
            self._note.update(note(*self.left_out))


def cells_of(nb):
    """A notebook's cells, nbformat 4 (``cells``) or 3 (``worksheets``), when they are a list of dicts."""
    cells = nb.get("cells")
    if not isinstance(cells, list):
        worksheets = nb.get("worksheets")
        cells = (
            [c for w in worksheets if isinstance(w, dict) and isinstance(w.get("cells"), list) for c in w["cells"]]
            if isinstance(worksheets, list)
            else []
        )
    return [cell for cell in cells if isinstance(cell, dict)]


def cap_notebook(nb):
    """Cap the outputs of a notebook (a dict, changed in place); return the cells that changed."""
    cells = [c for c in cells_of(nb) if isinstance(c.get("outputs"), list)] if isinstance(nb, dict) else []
    count = chars = 0
    for cell in cells:  # sizes only: nothing is joined or copied
        more = _sizes(cell["outputs"])
        count, chars = count + more[0], chars + more[1]
    caps, changed = OutputCaps(limited=count > MAX_OUTPUTS or chars > MAX_OUTPUT_CHARS), []
    for cell in cells:
        capped = caps.cap(cell["outputs"])
        if capped is not cell["outputs"]:
            cell["outputs"] = capped
            changed.append(cell)
    caps.finish()
    return changed


def capped_notebook_text(text):
    """A notebook file's text with its outputs capped (``cap_notebook``), for nbformat to read and check.

    The text itself when nothing needed capping, or when it is not a JSON object: then
    nbformat's own reading says what is wrong with it.
    """
    try:
        nb = json.loads(text)
    except (ValueError, RecursionError):
        return text
    if not isinstance(nb, dict) or not cap_notebook(nb):
        return text
    return json.dumps(nb, ensure_ascii=False)
