# %% lesson notebook="memory.ipynb"
# Lesson 5, what the sweep keeps: the source of notebooks/source/lesson5_memory/memory.ipynb.
# `make notebooks` builds the notebook from this file and solutions/memory.py; never edit the notebook.
# Open this file as a notebook (jupytext, VS Code) to preview it. Each cell's settings sit on its
# `# %%` line; the format is described in autograder/course/lessons.py.
# OPS and SLOPES are given (lesson 2's slope table is in its prose already); no evaluate or backward
# is given away: the stale-value story sweeps its two nodes by hand with SLOPES.

# %% [markdown]
# # Lesson 5 · What the sweep keeps: the memory bill, checkpoints, and values that must not change
#
# Lesson 2 warned that memory, more than arithmetic, is what reverse mode costs. The backward sweep starts only after the forward pass is over, and each number it will multiply by has to survive until the sweep gets there. For the diamond that is a few floats. For a network a thousand layers deep, with millions of values in every layer, keeping them is the hardest engineering problem of training.
#
# This lesson makes the bill exact. You will work out which values each operation's slopes read, check that those values were not changed after they were saved, and then trade memory for time: keep only a few values, and recompute the rest when the sweep needs them.
#
# **How to work through this notebook:** as before, run the cells from top to bottom with <kbd>Shift</kbd>+<kbd>Enter</kbd>, replace each `raise NotImplementedError(...)` with your answer or code, run the check cell after it, and finish with *Kernel → Restart Kernel and Run All Cells…* before you submit.

# %% [markdown]
# ## What each slope reads
#
# At a node, the sweep multiplies the node's gradient by a local slope along each incoming edge. Look at the slope table of Lesson 2 and ask of each row: which **values** does the slope need?
#
# | op | slopes | values the sweep must keep |
# |---|---|---|
# | `add`, `sub` | 1 and 1, or 1 and −1 | none |
# | `neg` | −1 | none |
# | `mul` | b along a's edge, a along b's edge | both inputs: each edge needs the *other factor* |
# | `div` | 1/b and −a/b² | both inputs |
# | `sq` | 2a | its input |
# | `relu` | 1 if a > 0, else 0 | its input (only its sign, but it is stored all the same) |
# | `tanh` | 1 − out² | the node's **own output** |
#
# Two rows deserve a second look.
#
# - A sum is free. Its slopes are constants, so the sweep passes through it without reading any stored number.
# - tanh keeps its output, not its input. Its slope 1 − tanh(u)² can be computed from either, but from the output it costs one multiplication and no call to tanh. The exponential is the same: its slope is its own output. Which value is stored is a choice the op's author makes, and it is part of the op's definition.
#
# The **memory bill** of a graph is the set of distinct names that some node's slopes read. A value read by several slopes is stored once: `mul x x` reads x along two edges, but x is one stored number.
#
# Run the next cell: it defines the read-only `OPS` table of Lesson 1 and `SLOPES`, Lesson 2's slope table written as code. `SLOPES[op]` takes the input values and then the node's own value, and returns one slope per input: `SLOPES["mul"](2.0, 3.0, 6.0)` is `(3.0, 2.0)`. Reading its arguments is another way to see what each op keeps.

# %% reference grade_id="memory_tables" module="memory" names=["math", "OPS", "SLOPES"]

# %% [markdown]
# ## Worked example: the bill of the diamond, and of L = (a·b + c)²
#
# The diamond is a = x · x, t = a + a, L = t · t.
#
# - a = x · x keeps **x**, once, though it reads it twice.
# - t = a + a keeps nothing.
# - L = t · t keeps **t**.
#
# So the sweep needs 2 of the 4 values: x and t. The value of a is never read by any slope, and neither is L. A system that knows this can free a as soon as t has been computed.
#
# For L = (a·b + c)², written p = a · b, z = p + c, L = sq(z): p keeps **a** and **b**, z keeps nothing, and L keeps **z**. The bill is a, b and z: 3 of the 6 values.
#
# In the pictures below only the saved values are written in the boxes; every box without a value is one the sweep never reads.

# %%
from exercises.draw import draw

draw([("a", "mul", ["x", "x"]), ("t", "add", ["a", "a"]), ("L", "mul", ["t", "t"])],
     values={"x": 2, "t": 8}, title="the diamond: the sweep keeps x and t")

# %%
draw([("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"]), ("L", "sq", ["z"])],
     values={"a": 2, "b": 3, "z": 7}, title="L = (a·b + c)²: the sweep keeps a, b and z")

# %% [markdown]
# ## Your turn: the bill of three nodes
#
# Write the lists as `saved_for_backward` (below) returns them: the names a node's slopes read, each once, in input order.
#
# - Set `BILL_SQUARE` to the list for `("s", "mul", ["x", "x"])`.
# - Set `BILL_TANH` to the list for `("y", "tanh", ["u"])`.
# - Set `BILL_SUM` to the list for `("z", "add", ["p", "c"])`.

# %% answer grade_id="memory_bill_solution"
# BILL_SQUARE, BILL_TANH, BILL_SUM: lists of names, for example ["a", "b"]
### BEGIN SOLUTION
BILL_SQUARE = ["x"]
BILL_TANH = ["y"]
BILL_SUM = []
### END SOLUTION

# %% tests grade_id="answer_memory_bill" points=1 judge="equals" explain={"['x', 'x']": "x is read along two edges, but it is one stored value: list each name once.", "['u']": "tanh's slope is 1 - out², computed from the node's own output y, so y is what must be kept.", "['p', 'c']": "A sum's slopes are 1 and 1 whatever its inputs are: the sweep passes through it without reading any value."}
for answer in (BILL_SQUARE, BILL_TANH, BILL_SUM):
    assert isinstance(answer, list) and all(isinstance(name, str) for name in answer), "each answer should be a list of names"

# %% [markdown]
# ## Your turn: `saved_for_backward(graph)`
#
# Return a dict that maps **every node** of the graph (not the leaves) to the list of names whose values its local slopes read:
#
# - `add`, `sub` and `neg` read nothing: `[]`;
# - `mul` and `div` read their inputs, each name once, in input order (`mul x x` gives `["x"]`);
# - `sq` and `relu` read their input;
# - `tanh` reads the node's own output: `[name]`.
#
# The number of distinct names in all these lists together is the sweep's memory bill. Do not modify the graph.

# %% reference grade_id="saved_for_backward_solution" module="memory" names=["saved_for_backward"]

# %% tests grade_id="saved_for_backward_correct" grades="saved_for_backward"
diamond = [("a", "mul", ["x", "x"]), ("t", "add", ["a", "a"]), ("L", "mul", ["t", "t"])]
assert saved_for_backward(diamond) == {"a": ["x"], "t": [], "L": ["t"]}, saved_for_backward(diamond)

g_abc = [("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"]), ("L", "sq", ["z"])]
assert saved_for_backward(g_abc) == {"p": ["a", "b"], "z": [], "L": ["z"]}, saved_for_backward(g_abc)

# tanh keeps its own output; the product after it keeps both factors.
g_tanh = [("y", "tanh", ["u"]), ("q", "div", ["y", "w"]), ("r", "relu", ["q"]), ("s", "neg", ["r"])]
assert saved_for_backward(g_tanh) == {"y": ["y"], "q": ["y", "w"], "r": ["q"], "s": []}, saved_for_backward(g_tanh)

bill = {name for names in saved_for_backward(diamond).values() for name in names}
assert bill == {"x", "t"}, bill

# %% [markdown]
# ## A saved value must stay the same
#
# The record is only as good as the values in it. Suppose a stored value is changed **in place** after a node saved it: an optimizer updates a weight before the sweep has run, or memory is reused for a new result, or an in-place operation such as `x += 1` overwrites a buffer that a product still needs. The sweep later reads that slot, finds a number, and multiplies by it. The number is simply the wrong one, and nothing in the arithmetic can tell.
#
# Here is the smallest case: p = w · x, then L = p · p, with w = 3 and x = 2, so p = 6 and L = 36. By the chain rule dL/dw = 2p · x = 24. The sweep below is the two nodes swept by hand with `SLOPES`, reading its numbers from `stored`, the values the forward pass left behind. Then x is overwritten after p was computed, and the same sweep runs again.

# %%
stored = {"w": 3.0, "x": 2.0, "p": 6.0, "L": 36.0}  # what the forward pass left


def sweep_for_w(stored):
    """dL/dw for p = w*x, L = p*p, reading every value from `stored`."""
    grad_p = sum(SLOPES["mul"](stored["p"], stored["p"], stored["L"]))  # two edges from p
    return grad_p * SLOPES["mul"](stored["w"], stored["x"], stored["p"])[0]  # along w's edge: the other factor, x


print("dL/dw with the record intact:", sweep_for_w(stored))
stored["x"] = 5.0  # x is replaced in place, after p saved it
print("dL/dw after x was replaced:  ", sweep_for_w(stored))

# %% [markdown]
# 24 the first time, 60 the second, and no error. Each stored value silently claims *this is the number the run used*, and the sweep takes the claim on trust: no step of the arithmetic can tell a replaced number from the original.
#
# Frameworks check the claim instead of trusting it. PyTorch gives every tensor a version counter that each in-place operation increments. When a node saves a tensor for the sweep, it also notes the counter. When the sweep reads the tensor, it compares, and on a mismatch it stops with *"one of the variables needed for gradient computation has been modified by an inplace operation"*. A loud error in place of a silently wrong gradient.
#
# You will write that check on our records. A replacement is a pair `(position, name)`: right after `graph[position]` ran, the stored value of `name` was replaced.
#
# - A node at position p that **saves** `name` (as `saved_for_backward` says) has saved it by the time it has run. A replacement at position p or later comes after the saving: the node is **stale**.
# - A replacement at an earlier position is harmless: the node ran after it and read, and saved, the new value.
# - A replacement of a name the node does not save does not matter to that node, even if the node reads it: a sum reads its inputs, but its slopes do not.
#
# In the example, p is at position 0 and saves w and x, so `(0, "x")` makes p stale: x changed right after p saved it. L, at position 1, saves p. A replacement `(0, "p")` comes before L runs, so L saves the new p and is not stale; `(1, "p")` comes after L saved it, and L is stale.

# %% [markdown]
# ## Your turn: `stale_reads(graph, overwritten)`
#
# `overwritten` is a list of `(position, name)` pairs. Return, in graph order and each once, the nodes whose slopes read a value that was replaced at or after the node's own position. Modify neither argument.

# %% reference grade_id="stale_reads_solution" module="memory" names=["stale_reads"]

# %% tests grade_id="stale_reads_correct" grades="stale_reads"
g_story = [("p", "mul", ["w", "x"]), ("L", "mul", ["p", "p"])]
assert stale_reads(g_story, [(0, "x")]) == ["p"], "x was replaced right after p saved it"
assert stale_reads(g_story, [(1, "x")]) == ["p"], "replaced later still: p is stale"
assert stale_reads(g_story, []) == []

# Position 0: p saves w and x. 1: y saves itself. 2: z saves nothing. 3: L saves z and w.
g = [("p", "mul", ["w", "x"]), ("y", "tanh", ["p"]), ("z", "add", ["y", "b"]), ("L", "mul", ["z", "w"])]
assert stale_reads(g, [(2, "z")]) == [], "z was replaced before L ran, so L saved the new value"
assert stale_reads(g, [(1, "y")]) == ["y"], "tanh saves its own output"
assert stale_reads(g, [(3, "w"), (0, "b")]) == ["p", "L"], "graph order; a sum does not save b"

# %% [markdown]
# ## Store or recompute
#
# There is another way to pay the bill: do not keep a value at all, and compute it again when the sweep needs it. The smallest case is a chain, f(f(f(w))) with f(u) = u · u:
#
# - a = f(w), b = f(a), L = f(b).
#
# Each f's slope, 2u, reads its input. So the sweep needs b (for L's slope), then a (for b's), then w (for a's). Two records serve it:
#
# - **Store.** Keep a and b from the forward pass. The sweep reads them and computes nothing again. This is the faster record.
# - **Recompute.** Keep only w. When the sweep needs a value, it runs the chain forward again from w to that value, and throws the result away afterwards. This is the smaller record, and the slower one.
#
# **Question.** For f(f(f(w))) with f(u) = u · u:
#
# - set `STORE_KEPT` to the number of node values (a, b, L: not the leaf w) that the store record keeps for the sweep;
# - set `RECOMPUTE_CALLS` to the number of applications of f the recompute record performs *during the sweep* (the three of the forward pass do not count).

# %% answer grade_id="store_or_recompute_solution"
# STORE_KEPT, RECOMPUTE_CALLS: whole numbers
### BEGIN SOLUTION
STORE_KEPT = 2
RECOMPUTE_CALLS = 3
### END SOLUTION

# %% tests grade_id="answer_store_or_recompute" points=1 judge="equals" explain={"6": "Count only what the sweep adds: the forward pass's three applications of f are not part of the answer."}
assert isinstance(STORE_KEPT, int) and isinstance(RECOMPUTE_CALLS, int), "both answers should be whole numbers (ints)"

# %% [markdown]
# On a chain of n applications the recompute record runs 1 + 2 + … + (n − 1) = n(n − 1)/2 applications during the sweep: for n = 1,000 that is about half a million, against a forward pass of 1,000. Storing everything costs n values and no extra time; recomputing everything from the start costs one value and quadratic time. Neither end is what training wants.
#
# ## Checkpoints: the dial between the two
#
# **Checkpointing** keeps some of the values, the *checkpoints*, and recomputes the rest from the nearest checkpoint before them, one stretch at a time.
#
# Take a sequential graph, a chain in which each node reads only leaves and the node listed just before it, and a whole number `every`:
#
# - **Forward.** Compute the nodes in order, holding only the previous node's value, and keep as checkpoints the nodes at positions every − 1, 2·every − 1, 3·every − 1, … (counting from 0: with `every=4`, the 4th, 8th, 12th, … node).
# - **Backward.** The checkpoints cut the chain into segments: positions 0 … every − 1, then every … 2·every − 1, and so on, with a last, possibly shorter, segment after the last checkpoint. Sweep the segments from the last to the first. For each segment, recompute its values **once**, from the checkpoint just before it (or from the leaves, for the first segment), hold them while the sweep walks back through that segment, and then let them go.
#
# Only the checkpoints are never recomputed. On a chain of n nodes the call holds about n / every checkpoints plus one segment of every values, and recomputes about n − n / every values: less than one extra forward pass. With every ≈ √n both terms are about √n. For n = 10,000 and `every=100` that is about 200 values held at a time, where storing everything holds 10,000.
#
# **Worked example.** A chain of 10 nodes with `every=4`: the checkpoints are the nodes at positions 3 and 7. The sweep first recomputes positions 8 and 9 from checkpoint 7 (the last segment has no checkpoint of its own), then positions 4, 5 and 6 from checkpoint 3, then positions 0, 1 and 2 from the leaves. It recomputes 2 + 3 + 3 = 8 values: every node except the two checkpoints.
#
# **Question.** A chain of 16 nodes with `every=4`. Set `CHECKPOINTS_16` to the number of checkpoints the forward pass keeps, and `RECOMPUTED_16` to the number of node values the sweep recomputes.

# %% answer grade_id="checkpoint_counts_solution"
# CHECKPOINTS_16, RECOMPUTED_16: whole numbers
### BEGIN SOLUTION
CHECKPOINTS_16 = 4
RECOMPUTED_16 = 12
### END SOLUTION

# %% tests grade_id="answer_checkpoint_counts" points=1 judge="equals" explain={"3": "The checkpoints sit at positions 3, 7, 11 and 15: the last node, at position 15, is one of them.", "16": "The checkpoints are kept from the forward pass, so the sweep never recomputes them: only the other nodes are recomputed.", "5": "Positions every - 1, 2·every - 1, ...: 3, 7, 11 and 15. Position 0 is not a checkpoint, and there is no position 19."}
assert isinstance(CHECKPOINTS_16, int) and isinstance(RECOMPUTED_16, int), "both answers should be whole numbers (ints)"

# %% [markdown]
# ## Your turn: `backward_checkpointed(graph, leaves, every, output=None)`
#
# Write the checkpointed sweep for a **sequential** graph. It returns `(grads, recomputed)`.
#
# - Each node reads only names in `leaves` and the node listed just before it. Anything else raises `ValueError` with a message naming the node.
# - L is `output` (default: the last node). The forward pass computes the nodes up to L from `leaves` with `OPS`, holding only the previous node's value and the checkpoints at positions every − 1, 2·every − 1, …
# - The sweep walks the segments from last to first, recomputes each segment's values once from the checkpoint before it (or from the leaves), and holds them only while it sweeps that segment. Use `SLOPES` for the local slopes.
# - `grads` maps every leaf to dL/d(leaf), the same numbers as Lesson 2's `backward` gives for the leaves. A leaf L does not depend on gets 0.0.
# - `recomputed` is the number of node values the sweep recomputed: the nodes up to L that are not checkpoints. It is 0 when `every` is 1.
# - Modify neither `graph` nor `leaves`.
#
# In a chain each node has at most one reader, the node after it, so the sweep needs only the gradient of the node it is at, never a dict of all of them. Its numbers do not show whether it keeps every value: a public test (exercises/tests/test_backward_checkpointed.py, run by `make check`) measures the call's peak memory on a chain of 1,024 nodes, and a hidden check measures it on a chain of 60,000 from outside your code. An implementation that quietly keeps every value, or a gradient for every node, fails them, however right its numbers are.

# %% reference grade_id="backward_checkpointed_solution" module="memory" names=["backward_checkpointed"]

# %% tests grade_id="backward_checkpointed_correct" grades="backward_checkpointed"
# A chain of 16 products: n0 = x*w, n1 = n0*w, ..., so L = x * w**16.
chain16 = [(f"n{i}", "mul", [f"n{i - 1}" if i else "x", "w"]) for i in range(16)]
for every in (1, 4, 5, 16):
    grads, recomputed = backward_checkpointed(chain16, {"x": 3.0, "w": 1.25}, every)
    assert abs(grads["x"] - 1.25**16) < 1e-9, (every, grads)
    assert abs(grads["w"] - 16 * 3.0 * 1.25**15) < 1e-9, (every, grads)
assert backward_checkpointed(chain16, {"x": 3.0, "w": 1.25}, 4)[1] == 12, "16 nodes, checkpoints at 3, 7, 11, 15"
assert backward_checkpointed(chain16, {"x": 3.0, "w": 1.25}, 1)[1] == 0, "every node is a checkpoint"

# tanh keeps its output: L = tanh(x*w)**2, and a leaf nobody reads gets 0.0.
g_t = [("u", "mul", ["x", "w"]), ("y", "tanh", ["u"]), ("L", "mul", ["y", "y"])]
grads, _ = backward_checkpointed(g_t, {"x": 0.5, "w": 1.5, "spare": 7.0}, 2)
y = OPS["tanh"](0.75)
assert abs(grads["x"] - 2 * y * (1 - y * y) * 1.5) < 1e-12 and grads["spare"] == 0.0, grads

# A node that reads further back than the node before it is not sequential.
try:
    backward_checkpointed([("a", "sq", ["x"]), ("b", "sq", ["a"]), ("skip", "mul", ["b", "a"])], {"x": 2.0}, 2)
except ValueError as err:
    assert "skip" in str(err), f"the message should name the node 'skip': {err}"
else:
    raise AssertionError("a node reading two nodes back should raise ValueError")

# %% [markdown]
# ## The dial, measured
#
# Once `backward_checkpointed` works, run the next cell (it is not graded). It sweeps a chain of 1,024 nodes with several values of `every` and measures two things for each: the values recomputed, which your function returns, and the **peak memory** of the call, which Python's `tracemalloc` records while the call runs. Then it plots one against the other.

# %%
import tracemalloc

import matplotlib.pyplot as plt

n = 1024
dial_chain = [(f"n{i}", "tanh" if i % 2 else "mul", [f"n{i - 1}" if i else "x"] + ([] if i % 2 else ["w"]))
              for i in range(n)]
measured = []  # (every, recomputed, peak KB)
try:
    for every in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024):
        tracemalloc.start()
        try:
            _grads, recomputed = backward_checkpointed(dial_chain, {"x": 0.3, "w": 1.1}, every)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        measured.append((every, recomputed, peak / 1024))
except NotImplementedError:
    print("Not run: write backward_checkpointed above first, then run this cell again.")

if measured:
    for every, recomputed, kb in measured:
        print(f"every={every:5}: recomputed {recomputed:5}, peak {kb:6.1f} KB")
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), layout="tight")
    left.plot([m[0] for m in measured], [m[2] for m in measured], "o-")
    left.set_xscale("log", base=2)
    left.set_xlabel("every")
    left.set_ylabel("peak memory of the call (KB)")
    left.set_title(f"memory, on a chain of {n} nodes")
    useful = [m for m in measured if m[0] <= 32]  # every up to about the square root of n
    right.plot([m[1] for m in useful], [m[2] for m in useful], "o-")
    for every, recomputed, kb in useful[:3]:  # the points after every=4 sit too close together for labels
        right.annotate(f"every={every}", (recomputed, kb), textcoords="offset points", xytext=(6, 4), fontsize=8)
    right.set_xlabel("node values recomputed by the sweep")
    right.set_ylabel("peak memory of the call (KB)")
    right.set_title("memory against recomputation, every = " + ", ".join(str(m[0]) for m in useful), fontsize=10)
    plt.show()

# %% [markdown]
# Read the right plot from the left. `every=1` keeps every node as a checkpoint: nothing is recomputed and the memory is at its highest. Each doubling of `every` halves the checkpoints and so roughly halves the memory, and it costs more recomputation, but never more than the n nodes of one extra forward pass.
#
# The left plot shows where the dial stops paying. Past every ≈ √n = 32 the memory rises again, because now the segment being swept, not the checkpoints, is what the call holds. At `every=1024` there is a single segment, recomputed from the leaves and held all at once, which costs as much memory as storing everything and the recomputation besides. The useful settings are near the bottom of that curve: there a chain far longer than the memory could hold in full is swept for the price of about one extra forward pass.

# %% [markdown]
# ## Key points
#
# - The backward sweep needs the values its slopes read: a product's other factor, tanh's own output, nothing for a sum. Those values, each stored once, are the memory bill.
# - A saved value has to be the one the run used. Replaced in place, it gives a wrong gradient with no error; version counters, like `stale_reads`, turn that into a loud failure.
# - Storing everything is fast and takes n values; recomputing everything from the leaves takes one value and quadratic time.
# - Checkpoints are the dial between the two: keep one value every `every` nodes, recompute each segment once, and hold about n / every + every values for less than one extra forward pass.
