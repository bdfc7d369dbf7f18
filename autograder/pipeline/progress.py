"""The batch's progress bars: tqdm on stderr, redrawn in place on a terminal, a few lines in a log."""

import sys

from tqdm import tqdm

LOG_LINES = 4  # a stream that is not a terminal gets a line at each quarter, and one at the end


class _Lines:
    """A log file seen by tqdm: each redraw is written as a line of its own, not after a carriage return."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text):
        line = text.replace("\r", "").rstrip()
        if line:
            self.stream.write(line + "\n")

    def flush(self):
        self.stream.flush()


class _Bar(tqdm):
    monitor_interval = 0  # no monitor thread: the batch forks worker processes while a bar is open


class Progress:
    """A progress bar of ``total`` steps named ``label``, on ``stream`` (default stderr)."""

    def __init__(self, label, total, stream=None):
        stream = stream or sys.stderr
        terminal = hasattr(stream, "isatty") and stream.isatty()
        options = {} if terminal else {"miniters": max(1, total // LOG_LINES), "mininterval": 0}
        self.bar = _Bar(total=total, desc=f"{label:<18}", unit="nb", file=stream if terminal else _Lines(stream),
                        dynamic_ncols=terminal, ncols=None if terminal else 80, leave=True, **options)

    def advance(self, steps=1):
        self.bar.update(min(steps, self.bar.total - self.bar.n))

    def write(self, text):
        """A line of text above the bar."""
        self.bar.write(text, file=self.bar.fp)

    def close(self):
        if self.bar.n < self.bar.total:
            self.bar.update(self.bar.total - self.bar.n)
        self.bar.close()
