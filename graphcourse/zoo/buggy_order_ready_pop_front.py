"""Keeps the ready nodes in a list and takes the next one with pop(0), which moves every node behind it: quadratic on wide records."""

FUNCTION = "topological_order"
FAILS = ["order_linear_time"]
PATCH = [
    (
        "deque(name for name, count in waiting.items() if count == 0)",
        "[name for name, count in waiting.items() if count == 0]",
    ),
    ("ready.popleft()", "ready.pop(0)  # every node still waiting in the list moves up one place"),
]
