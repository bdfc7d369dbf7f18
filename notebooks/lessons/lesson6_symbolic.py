# %% lesson notebook="symbolic.ipynb"
# Lesson 6, the derivative as a graph: the source of notebooks/source/lesson6_symbolic/symbolic.ipynb.
# `make notebooks` builds the notebook from this file and solutions/symbolic.py; never edit the notebook.
# Open this file as a notebook (jupytext, VS Code) to preview it. Each cell's settings sit on its
# `# %%` line; the format is described in autograder/course/lessons.py.
# OPS (with one and step) and forward, lesson 1's forward pass, are given under that name so that
# they never stand in for a learner's evaluate. Lesson 2's backward is not given: second derivatives
# come from gradient_graph applied twice, and the cell that runs the learner's own backward is optional.

# %% [markdown]
# # Lesson 6 · The derivative as a graph: differentiate it again
#
# Lesson 2's `backward` takes a graph and its values and returns **numbers**: for the diamond at x = 2 it returns dL/dx = 128. That answers the question for x = 2 and for nothing else, and a number has no record of how it was made.
#
# This lesson builds the derivative a different way. Instead of computing numbers, the sweep **adds nodes** to the graph: nodes that describe how to compute each derivative. This is called *symbol-to-symbol* differentiation. The derivative is then itself a graph. The same forward pass evaluates it for any leaves, and, because it is a graph like any other, the same differentiation applies to it again, which is where second derivatives come from.
#
# **How to work through this notebook:** as before, run the cells from top to bottom with <kbd>Shift</kbd>+<kbd>Enter</kbd>, replace each `raise NotImplementedError(...)` with your answer or code, run the check cell after it, and finish with *Kernel → Restart Kernel and Run All Cells…* before you submit.

# %% [markdown]
# ## Two new ops
#
# A slope written as nodes sometimes needs a constant, and relu's slope is a function no op of ours computes yet. So `OPS` gains two entries:
#
# - `one` takes no inputs and has the value 1.0: `("k", "one", [])`. It seeds the sweep (dL/dL = 1) and builds constants such as 1 − out².
# - `step` takes one input a and is 1.0 if a > 0, else 0.0: relu's slope.
#
# Their own slopes, for when a graph that uses them is differentiated in turn: `one` has no inputs and so no slopes, and `step` is flat, so its slope is 0. (At a = 0 it jumps; as with relu's kink, we take 0 there.)
#
# Run the next cell. It defines `OPS` with its ten ops, and `forward(graph, leaves)`, Lesson 1's forward pass, given here so that you can evaluate the graphs you build. It is called `forward` rather than `evaluate` so that it never stands in for your own Lesson 1 function.

# %% reference grade_id="symbolic_tables" module="symbolic" names=["math", "OPS", "forward"]

# %% [markdown]
# ## Each slope written as nodes
#
# The sweep is Lesson 2's, in the same reverse order, one contribution per edge. What changes is what it handles: not the gradient's *value*, but the *name of the node* that will hold it. Call that node g for the node being visited. Along each incoming edge the sweep appends nodes computing the slope, then one node for g × slope:
#
# | op | contribution along the edge from a | along the edge from b |
# |---|---|---|
# | `add` | g itself: the slope is 1, no new node | g itself |
# | `sub` | g itself | `neg(g)` |
# | `mul` | `mul(g, b)`: the **other factor** | `mul(g, a)` |
# | `div` | `mul(g, div(one, b))` | `mul(g, neg(div(a, mul(b, b))))` |
# | `sq` | `mul(g, add(a, a))` | |
# | `tanh` | `mul(g, sub(one, sq(out)))`: 1 − out², from the node's **own output** | |
# | `relu` | `mul(g, step(a))` | |
# | `neg` | `neg(g)` | |
# | `one` | no inputs, nothing to send | |
# | `step` | nothing: the slope is 0 | |
#
# Here `one` stands for a single node `("…", "one", [])` made at the start. It also seeds the sweep: the gradient node of L is that node, of value 1.
#
# Three things carry over from Lesson 2 unchanged. The product still reads the other factor: the new node refers to the *name* b, so the value of b is whatever b is when graph2 is evaluated. tanh's slope still comes from its output: the new node reads the name of the tanh node itself. And nothing of this looks at a value: `gradient_graph` never computes a number.
#
# ## Fan-out: contributions become `add` nodes
#
# In Lesson 2 a fan-out meant `+=`. Here the first contribution that reaches a name simply **is** its gradient node. Each later contribution appends one `add` node: the sum of the gradient node so far and the new contribution, which becomes the name's gradient node from then on. Nothing is ever overwritten: a node, once appended, keeps its meaning, and other nodes may already read it.
#
# After the sweep, look for names that received no contribution at all, because L does not depend on them. If there is at least one, the recipe appends **one** node `sub(one, one)`, of value 0.0, and it is the gradient node of all of them. If every name received something, as in the worked example below and in the diamond, no zero node is appended.
#
# ## Worked example: L = (a·b + c)²
#
# With p = a·b, z = p + c and L = sq(z), the sweep appends, naming the new nodes d0, d1, …:
#
# 1. **Seed.** `("d0", "one", [])`: dL/dL.
# 2. **L = sq(z).** The slope 2z as `("d1", "add", ["z", "z"])`, then `("d2", "mul", ["d0", "d1"])`: dL/dz is d2.
# 3. **z = p + c.** Both slopes are 1, so p and c both receive d2 itself: no new node.
# 4. **p = a·b.** a receives `("d3", "mul", ["d2", "b"])` and b receives `("d4", "mul", ["d2", "a"])`: the other factor each time.
#
# Five new nodes, and grads = `{"L": "d0", "z": "d2", "p": "d2", "c": "d2", "a": "d3", "b": "d4"}`. Evaluate graph2 at a = 2, b = 3, c = 1 and the gradient nodes hold 1, 14, 14, 14, 42 and 28: Lesson 2's numbers. Evaluate it at any other leaves and it holds the gradient there, with no sweep at all. The cell draws graph2 with its values at a = 2, b = 3, c = 1.

# %%
from exercises.draw import draw

g_abc = [("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"]), ("L", "sq", ["z"])]
g2_abc = g_abc + [("d0", "one", []), ("d1", "add", ["z", "z"]), ("d2", "mul", ["d0", "d1"]),
                  ("d3", "mul", ["d2", "b"]), ("d4", "mul", ["d2", "a"])]
values_abc = forward(g2_abc, {"a": 2, "b": 3, "c": 1})
print({name: values_abc[node] for name, node in {"L": "d0", "z": "d2", "a": "d3", "b": "d4"}.items()})
draw(g2_abc, values_abc)

# %% [markdown]
# ## Your turn: the diamond's gradient graph, by hand
#
# The diamond is a = x · x, t = a + a, L = t · t. Build its gradient graph on paper with the recipe above: the seed, then L, then t, then a, with an `add` node for every contribution after the first one a name receives.
#
# Set `DIAMOND_NEW_NODES` to the number of new nodes the recipe appends after L: every node of graph2 that is not one of the diamond's three, the `one` seed included, and a zero node only if the diamond needs one.

# %% answer grade_id="diamond_new_nodes_solution"
# DIAMOND_NEW_NODES: a whole number
### BEGIN SOLUTION
DIAMOND_NEW_NODES = 8
### END SOLUTION

# %% tests grade_id="answer_diamond_new_nodes" points=1 judge="equals" explain={"7": "The seed dL/dL = 1 is a node too: the one node everything else starts from.", "5": "x, a and t are each read twice, so each receives two contributions, and the second one needs an add node.", "9": "The zero node is made only when some name receives no contribution, and in the diamond every name receives one.", "10": "t = a + a sends g itself along both of its edges: a sum's slopes need no new nodes, only the add that sums the two contributions at a."}
assert isinstance(DIAMOND_NEW_NODES, int) and not isinstance(DIAMOND_NEW_NODES, bool), "DIAMOND_NEW_NODES should be an int"

# %% [markdown]
# ## Your turn: `gradient_graph(graph, output=None)`
#
# Return `(graph2, grads)`.
#
# - `graph2` is `graph` followed by the new nodes. The new nodes have **fresh** names, which appear nowhere in `graph`, not even as leaves: a graph may well have a leaf called `d0`. They use only the ops of `OPS`, and each reads only names defined before it.
# - `grads` maps every name that `graph` reads or produces to the name of the node in `graph2` whose value is dL/d(that name). L is `output` (default: the last node). `grads[output]` is a node of value 1.0, and the names L does not depend on map to a node of value 0.0.
# - For any leaves, `forward(graph2, leaves)[grads[n]]` is the number Lesson 2's `backward` gives for n.
# - Build it without any values, in one sweep: linear time, no recursion, at most 8 new nodes per edge of `graph` plus 3 (the recipe above needs at most 5 per edge plus 2). Do not modify `graph`, and copy its inputs lists rather than sharing them.
# - `graph` may itself use `one` and `step`, as any graph2 does: that is how you will differentiate twice.

# %% reference grade_id="gradient_graph_solution" module="symbolic" names=["itertools", "gradient_graph"]

# %% tests grade_id="gradient_graph_correct" grades="gradient_graph"
diamond = [("a", "mul", ["x", "x"]), ("t", "add", ["a", "a"]), ("L", "mul", ["t", "t"])]
graph2, grads = gradient_graph(diamond)
assert graph2[:3] == diamond, "graph2 starts with the graph's own nodes"
values2 = forward(graph2, {"x": 2.0})
assert {name: values2[node] for name, node in grads.items()} == {"x": 128.0, "a": 32.0, "t": 16.0, "L": 1.0}, grads
assert forward(graph2, {"x": -1.0})[grads["x"]] == -16.0, "one graph2 serves every x: dL/dx = 16x**3"

# Differentiate the derivative: d2L/dx2 = 48x**2 = 192 at x = 2.
graph3, grads3 = gradient_graph(graph2, output=grads["x"])
assert forward(graph3, {"x": 2.0})[grads3["x"]] == 192.0, forward(graph3, {"x": 2.0})[grads3["x"]]

# Fresh names, even when the leaves are called like the nodes you invent.
g_names = [("d1", "mul", ["d0", "g0"]), ("y", "tanh", ["d1"])]
g2_names, grads_names = gradient_graph(g_names)
new = [name for name, _op, _inputs in g2_names[2:]]
assert not {"d0", "d1", "g0", "y"} & set(new) and len(set(new)) == len(new), new
tanh_value = OPS["tanh"](6.0)
assert abs(forward(g2_names, {"d0": 2.0, "g0": 3.0})[grads_names["d0"]] - 3 * (1 - tanh_value**2)) < 1e-12

# What L does not depend on gets a node of value 0.0.
g_z = [("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"])]
g2_z, grads_z = gradient_graph(g_z, output="p")
values_z = forward(g2_z, {"a": 2.0, "b": 3.0, "c": 1.0})
assert {name: values_z[node] for name, node in grads_z.items()} == {"a": 3.0, "b": 2.0, "c": 0.0, "p": 1.0, "z": 0.0}

# %% [markdown]
# Once `gradient_graph` works, draw the diamond's gradient graph at x = 2 (not graded) and check your count from the question above against it: every box after L is a new node.

# %%
from exercises.draw import draw

picture = None
try:
    graph2, grads = gradient_graph([("a", "mul", ["x", "x"]), ("t", "add", ["a", "a"]), ("L", "mul", ["t", "t"])])
    print("new nodes:", len(graph2) - 3, " grads:", grads)
    picture = draw(graph2, forward(graph2, {"x": 2.0}))
except NotImplementedError:
    print("Not run: write gradient_graph above first, then run this cell again.")
picture

# %% [markdown]
# ## Second derivatives
#
# The diamond's graph2 computes dL/dx = 16x³ from x. It is an ordinary graph, with ordinary ops, so it can be differentiated like any other: `gradient_graph(graph2, output=grads["x"])` appends the nodes of d(dL/dx)/dx, the second derivative 48x². At x = 2 that is 192.
#
# Lesson 2's `backward` can do the second step too, on graph2's values, once it knows the slopes of the two new ops (`one`: none; `step`: 0). Either way one mechanism gives every order of derivative: differentiate, and differentiate the result.
#
# There is also an independent check, as in Lesson 2: central differences, now of the first derivative. Evaluate graph2 at x + h and at x − h and compare (dL/dx(x + h) − dL/dx(x − h)) / 2h with the second derivative. The cell below does both; try other values of `x0`.

# %%
try:
    diamond = [("a", "mul", ["x", "x"]), ("t", "add", ["a", "a"]), ("L", "mul", ["t", "t"])]
    graph2, grads = gradient_graph(diamond)
    graph3, grads3 = gradient_graph(graph2, output=grads["x"])
    x0, h = 2.0, 1e-5
    first = forward(graph2, {"x": x0})[grads["x"]]
    second = forward(graph3, {"x": x0})[grads3["x"]]
    central = (forward(graph2, {"x": x0 + h})[grads["x"]] - forward(graph2, {"x": x0 - h})[grads["x"]]) / (2 * h)
    print(f"dL/dx at x0:                    {first}   (16 x0**3 = {16 * x0**3})")
    print(f"d2L/dx2, gradient_graph twice:  {second}   (48 x0**2 = {48 * x0**2})")
    print(f"central difference of dL/dx:    {central:.6f}")
except NotImplementedError:
    print("Not run: write gradient_graph above first, then run this cell again.")

# %% [markdown]
# Optional, not graded: sweep graph2 with your own `backward` from Lesson 2. Copy its cell into this notebook above this one, or import it (`from exercises.graph import backward`), add the two slopes `"one"` (no inputs, no slopes) and `"step"` (slope 0.0) to its table, and run the next cell.

# %%
try:
    values2 = forward(graph2, {"x": 2.0})
    print("backward on graph2, output=grads['x']:", backward(graph2, values2, output=grads["x"])["x"])
except (NameError, NotImplementedError, KeyError) as missing:
    print(f"Not run ({type(missing).__name__}: {missing}): bring in your backward, with the slopes of one and step, first.")

# %% [markdown]
# **Question.** Set `SECOND_DERIVATIVE` to d²L/dx² for the diamond at x = 2.

# %% answer grade_id="second_derivative_solution"
# SECOND_DERIVATIVE: a number
### BEGIN SOLUTION
SECOND_DERIVATIVE = 192
### END SOLUTION

# %% tests grade_id="answer_second_derivative" points=1 judge="equals" tolerance=1e-06 explain={"128": "128 is the first derivative, 16x³ at x = 2. Differentiate once more.", "48": "48x² is the second derivative as a formula; evaluate it at x = 2."}
assert isinstance(SECOND_DERIVATIVE, (int, float)) and not isinstance(SECOND_DERIVATIVE, bool), "SECOND_DERIVATIVE should be a number"

# %% [markdown]
# ## Why numbers cannot be differentiated again
#
# **Question.** Lesson 2's `backward` returns `{"x": 128.0, ...}` for the diamond at x = 2. Why can the second derivative not be obtained by sweeping that answer, while graph2 gives it?
#
# - **A.** The float 128.0 is rounded, and differentiating needs exact values.
# - **B.** 128.0 is a constant. Nothing records how it was computed from x, so a sweep has no graph to walk back through, and the derivative of a constant is 0. graph2 records the computation of dL/dx from x, node by node, so it can be swept like any other graph.
# - **C.** `backward` can run only once on a graph, because it changes the values it reads.
#
# Set `CHOICE_AGAIN` to `"A"`, `"B"` or `"C"`.

# %% answer grade_id="differentiate_again_solution"
# CHOICE_AGAIN: "A", "B" or "C"
### BEGIN SOLUTION
CHOICE_AGAIN = "B"
### END SOLUTION

# %% tests grade_id="answer_differentiate_again" points=1 judge="choice" explain={"A": "Precision is not the problem: even an exact 128 is just a number, with no trace of how it depends on x.", "C": "backward changes nothing and can run as often as you like; on the original graph it will always compute first derivatives."}
assert CHOICE_AGAIN in {"A", "B", "C"}, "CHOICE_AGAIN should be one of the strings \"A\", \"B\" or \"C\""

# %% [markdown]
# Numbers are enough for training, which needs one gradient at the current weights. When the derivative itself has to be differentiated, for second derivatives, for a curvature estimate, or for a loss that contains a gradient, it has to be a computation, not a number. Building the gradient as a graph is one way to keep it one.
#
# ## The cost
#
# The recipe appends, per edge, at most three nodes for the slope, one `mul` for the contribution and one `add` for the fan-out: 5 in the worst case (the edge from b of a `div`). On top of those come the `one` seed, always, and at most one zero node, only when some name receives nothing: at most 2 more. So graph2 grows **linearly** in the edges of the graph, like Lesson 2's sweep, and building it takes linear time.
#
# That is because each gradient node is built once and then shared: the node for dL/dt is read by every contribution that needs it, not written out again. Writing each derivative out as a separate formula instead would copy every shared part into every place that uses it, the way the expression tree of Lesson 3 copies subexpressions, and the formulas can grow exponentially with depth. The same sharing that keeps the tape small keeps the derivative small.
#
# Differentiating twice multiplies the size again: graph3 is at most a fixed multiple of graph2, which is at most a fixed multiple of the graph. Each order of derivative costs another linear factor.

# %% [markdown]
# ## Key points
#
# - Symbol-to-symbol differentiation appends nodes that compute the derivatives instead of computing numbers: each slope becomes a few nodes, each contribution a `mul`, each fan-out an `add`.
# - The slopes read the same values as before: the other factor of a product, tanh's own output, relu's `step`, all by name, so one graph2 serves every choice of leaves.
# - The derivative is a graph, so it can be evaluated with the forward pass and differentiated again: for the diamond at x = 2, 128 and then 192.
# - A number such as 128.0 carries no record of how it was made, so nothing can sweep it; a graph does.
# - Because gradient nodes are shared, graph2 stays linear in the edges of the graph: at most 8 new nodes per edge plus 3 here.
