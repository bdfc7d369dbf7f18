"""Sets the previous node's gradient from each edge instead of adding: a node reading the node before it twice loses one edge."""

FUNCTION = "backward_checkpointed"
FAILS = ["checkpoint_gradients"]
PATCH = [
    ("down += upstream * slope", "down = upstream * slope  # the node before has one reader, so one edge, it seems"),
]
