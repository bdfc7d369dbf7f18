"""Public tests: run them with `make check` (all tasks) or `make check TASK=backward` (one task)."""
