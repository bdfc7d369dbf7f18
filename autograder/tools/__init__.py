"""Tools for the kit's developers: mutation testing of the hidden checks, and benchmarks."""
