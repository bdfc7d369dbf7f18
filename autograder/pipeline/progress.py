"""The batch's progress bars: tqdm on stderr, redrawn in place on a terminal, a few lines in a log."""

import re
import sys

from tqdm import tqdm

LOG_LINES = 4  # a stream that is not a terminal gets a line at each quarter, and one at the end
_MOVES = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")  # a terminal's cursor moves, as tqdm writes them between bars


class _Lines:
    """A log file seen by tqdm: each redraw is written as a line of its own, not after a carriage return."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text):
        line = _MOVES.sub(
            "", text.replace("\r", "")
        ).rstrip()  # no cursor moves: two open bars each write their own lines
        if line:
            self.stream.write(line + "\n")

    def flush(self):
        self.stream.flush()


class _Bar(tqdm):
    monitor_interval = 0  # no monitor thread: the batch forks worker processes while a bar is open


class Progress:
    """A progress bar of ``total`` steps named ``label``, on ``stream`` (default stderr)."""

    def __init__(self, label, total, stream=None):
        self.stream = stream or sys.stderr
        self.terminal = hasattr(self.stream, "isatty") and self.stream.isatty()
        options = {} if self.terminal else {"miniters": max(1, total // LOG_LINES), "mininterval": 0, "ncols": 80}
        self.bar = _Bar(
            total=total,
            desc=f"{label:<18}",
            unit="nb",
            file=self.stream if self.terminal else _Lines(self.stream),
            dynamic_ncols=self.terminal,
            leave=self.terminal,
            **options,
        )

    def extend(self, steps):
        """``steps`` more steps to go."""
        self.bar.total += steps
        if not self.terminal:
            self.bar.miniters = max(1, self.bar.total // LOG_LINES)
        self.bar.refresh()

    def advance(self, steps=1):
        self.bar.update(min(steps, self.bar.total - self.bar.n))

    def write(self, text):
        """A line of text above the bar (in a log, simply the next line)."""
        if self.terminal:
            self.bar.write(text, file=self.bar.fp)
        else:
            self.stream.write(text + "\n")
            self.stream.flush()

    def close(self):
        if self.bar.n < self.bar.total:
            self.bar.update(self.bar.total - self.bar.n)
        if not self.terminal and self.bar.last_print_n < self.bar.n:
            self.bar.refresh()  # a log's last line is the finished bar, written once
        self.bar.close()
