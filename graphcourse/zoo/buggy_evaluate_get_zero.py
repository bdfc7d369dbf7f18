"""Reads inputs with values.get(name, 0), so a missing or not-yet-computed name silently counts as 0."""

FUNCTION = "evaluate"
FAILS = ["wrong_order_valueerror"]
PATCH = [
    (
        "        for i in inputs:\n            if i not in values:\n"
        '                raise ValueError(f"node {name!r} reads {i!r}, which has no value yet")\n'
        "        values[name] = OPS[op](*(values[i] for i in inputs))",
        "        args = [values.get(i, 0) for i in inputs]\n        values[name] = OPS[op](*args)",
    ),
]
