"""The kit's own tests: run them with `make test`."""
