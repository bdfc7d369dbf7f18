"""A sandbox child started ahead: it loads in a second thread while the calls before it run, for the next start.

A measured call runs in a fresh child (Sandbox.renew), and starting one (the gate, the interpreter, the learner's
code loaded) is most of what a quick measured call costs. A child started ahead has loaded when the call comes; it
has answered nothing, so it is as fresh as one started then, and the call is measured from its own start. It is taken
only by a start that marks memory as it did (call's measure_memory), and only if it loaded and still runs; otherwise
it is ended and the start goes on as any other. Children are started from a second thread only where nothing of
Python's runs between fork and exec (launch.gated).
"""

import threading


class Ahead:
    """``holder``'s child, started in the background: holder._start(mark_memory=mark_memory) in a thread."""

    def __init__(self, holder, mark_memory):
        self.holder, self.mark_memory, self._failed = holder, mark_memory, {"status": "error"}
        self._thread = threading.Thread(target=self._start, name="graphkit-sandbox-ahead", daemon=True)
        self._thread.start()

    @classmethod
    def of(cls, sandbox, mark_memory):
        """A child started ahead for ``sandbox``: its code, limits and time budget (loading spends the budget too)."""
        holder = type(sandbox)([], sandbox.limits, sandbox.reference)
        holder.chunks = sandbox.chunks
        holder._budget_end, holder._budget_start = sandbox._budget_end, sandbox._budget_start
        return cls(holder, mark_memory)

    def _start(self):
        try:
            self._failed = self.holder._start(mark_memory=self.mark_memory)
        except Exception:  # noqa: BLE001 -- the start that would take it starts a child itself, and says what fails
            pass

    def take(self, mark_memory):
        """The holder, its child loaded and running, for a start that marks memory as ``mark_memory``; else None."""
        self._thread.join()
        proc = self.holder._proc
        if self.mark_memory == mark_memory and self._failed is None and proc is not None and proc.poll() is None:
            return self.holder
        self.holder.close()
        return None

    def drop(self):
        """End the child, whether or not it has loaded yet."""
        self._thread.join()
        self.holder.close()
