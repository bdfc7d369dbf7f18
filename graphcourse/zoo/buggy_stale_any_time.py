"""Counts every replacement of a saved name, even one made before the node ran and read the new value."""

FUNCTION = "stale_reads"
FAILS = ["stale_position"]
PATCH = [("read in latest and latest[read] >= position", "read in latest")]
