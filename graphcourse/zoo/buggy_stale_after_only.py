"""Counts only replacements strictly after the node's position, missing the one made right after the node ran."""

FUNCTION = "stale_reads"
FAILS = ["stale_position"]
PATCH = [("latest[read] >= position", "latest[read] > position")]
