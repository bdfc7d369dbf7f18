"""The lessons' worked examples, defined once: the hidden checks, answer judges and tests use these.

Each graph is a list of (name, op, inputs) tuples in computable order; the
leaves each lesson evaluates it at sit beside it.
"""

# Lesson 2's worked example, the diamond: a = x*x, t = a + a, L = t*t.
# At x = 2: a = 4, t = 8, L = 64, and dL/dx = 128 (every value is read twice).
DIAMOND = [("a", "mul", ["x", "x"]), ("t", "add", ["a", "a"]), ("L", "mul", ["t", "t"])]
DIAMOND_LEAVES = {"x": 2}

# Lesson 1's worked example z = a*b + c, squared: L = (a*b + c)**2.
# At a=2, b=3, c=1: p = 6, z = 7, L = 49.
ABC_SQUARED = [("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"]), ("L", "sq", ["z"])]
ABC_LEAVES = {"a": 2, "b": 3, "c": 1}

# The graph of Lesson 1's questions: L = (a*b + a)**2, where a fans out to p and q.
ABA_SQUARED = [("p", "mul", ["a", "b"]), ("q", "add", ["p", "a"]), ("L", "sq", ["q"])]
