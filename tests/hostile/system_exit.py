"""Raises SystemExit, KeyboardInterrupt and GeneratorExit from inputs_of, and SystemExit at the end of the module."""

EXPECTED = {"evaluate": "full", "inputs_of": 0, "users_of": "full", "backward": "full"}


CALLS = []


def inputs_of(graph, name):
    CALLS.append(name)
    raise (SystemExit(0), KeyboardInterrupt(), GeneratorExit())[len(CALLS) % 3]


raise SystemExit("the module stops loading here")
