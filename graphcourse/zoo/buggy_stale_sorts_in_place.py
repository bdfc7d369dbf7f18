"""Sorts the caller's overwritten list in place to walk the replacements by position: right answers, changed argument."""

FUNCTION = "stale_reads"
FAILS = ["memory_no_mutation"]
PATCH = [("    latest = {}", "    overwritten.sort()\n    latest = {}")]
