"""The reference implementation: the one source of truth for stubs, notebooks and hidden checks."""
