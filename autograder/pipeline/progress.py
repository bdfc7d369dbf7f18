"""A one-line text progress bar for the batch's long steps."""

import sys
import time


class Progress:
    """A one-line text progress bar on stderr."""

    def __init__(self, label, total, stream=None, width=28):
        self.label, self.total, self.width = label, total, width
        self.stream = stream or sys.stderr
        self.done, self.started = 0, time.monotonic()
        self.draw()

    def draw(self):
        filled = self.width * self.done // self.total if self.total else self.width
        bar = "#" * filled + "." * (self.width - filled)
        seconds = time.monotonic() - self.started
        line = f"{self.label:<22} [{bar}] {self.done}/{self.total}  {seconds:5.1f} s"
        if hasattr(self.stream, "isatty") and self.stream.isatty():
            self.stream.write("\r" + line)  # redrawn in place
        elif self.done == self.total or self.done * 4 // max(1, self.total) != (self.done - 1) * 4 // max(1, self.total):
            self.stream.write(line + "\n")  # a log file gets a line at 0, 25, 50, 75 and 100 %
        self.stream.flush()

    def advance(self, steps=1):
        self.done = min(self.total, self.done + steps)
        self.draw()

    def close(self):
        if self.done < self.total:
            self.done = self.total
            self.draw()
        if hasattr(self.stream, "isatty") and self.stream.isatty():
            self.stream.write("\n")
        self.stream.flush()
