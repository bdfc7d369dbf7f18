# %% lesson notebook="backward_sweep.ipynb"
# Lesson 2, the trace and the backward sweep: the source of notebooks/source/lesson2_backward/backward_sweep.ipynb.
# `make notebooks` builds the notebook from this file and solutions/graph.py; never edit the notebook.
# Open this file as a notebook (jupytext, VS Code) to preview it. Each cell's settings sit on its
# `# %%` line; the format is described in autograder/course/lessons.py.
# This lesson does not ask for evaluate: every example writes its values dict out by hand,
# so no working forward pass is given away.

# %% [markdown]
# # Lesson 2 · The trace and the backward sweep
#
# Suppose a short program has just finished and handed back the number 64. Training now wants a second number from it: the rate at which that 64 would change if the input were nudged. The run that could have said so is over, and anything it did not write down is lost, perhaps already overwritten by later work. So differentiation begins before the question is asked: as the program runs, it must note down enough to answer later.
#
# What it notes down is a **trace**: each operation that really executed, in execution order, with the values it took in. Keep the trace in a list that entries are only ever appended to, and you have a **tape**. Draw it as boxes and arrows, and you have Lesson 1's computation graph: one record, two pictures. In this kit, a graph list together with the `values` dict that `evaluate` fills in is such a trace.
#
# **How to work through this notebook:** as in Lesson 1, run the cells from top to bottom with <kbd>Shift</kbd>+<kbd>Enter</kbd>, replace each `raise NotImplementedError(...)` with your answer or code, run the check cell that follows it, and finish with *Kernel → Restart Kernel and Run All Cells…* before you submit.

# %% [markdown]
# ## What the record has to keep
#
# Going backwards, each operation is asked one question per input: if this input moved by a tiny amount, how far would my output move, per unit? That ratio is the operation's **local slope**, and what the slopes need decides what the trace has to store.
#
# - **The links.** A contribution travels from a node back to the values the node read, so the trace must say who read whom: the `(name, op, inputs)` entries.
# - **The values going in.** The slope of u·v with respect to u is v, the *other factor*. To know it after the run, the trace must still hold what the product was given, not only its result.
# - **Sometimes the value coming out.** The slope of tanh is 1 − tanh(u)², and the cheapest way to get tanh(u) is to reuse what the node produced. The exponential behaves the same way: its slope equals its result.
#
# Keep the results alone, without the links, and the sweep is stuck: a list of numbers says nowhere where a contribution should go, nor by what a product's input was multiplied.
#
# When one value is read by two operations, the trace holds it **once** and notes both readers. Spelling the computation out as an expression tree would instead repeat a shared piece at every place it is used; with sharing, the record grows with the number of operations executed and no faster. Each value kept this way still occupies memory until the sweep is done with it, and on large models that memory, more than the arithmetic, is what reverse mode costs (Lesson 5).
#
# Run the next cell: it defines the same read-only `OPS` table as in Lesson 1. The examples in this lesson use it to fill in values by hand.

# %% reference grade_id="ops_table" module="graph" names=["math", "OPS"]

# %% [markdown]
# ## Worked example: the diamond
#
# Take x = 2 and compute
#
# - a = x · x = 4
# - t = a + a = 8
# - L = t · t = 64
#
# As a graph, with the values `evaluate` would return:
#
# ```python
# graph = [("a", "mul", ["x", "x"]), ("t", "add", ["a", "a"]), ("L", "mul", ["t", "t"])]
# values = {"x": 2, "a": 4, "t": 8, "L": 64}
# ```
#
# Three operations and four values. Since x, a and t are each read two times, the graph has six edges.
#
# ```
# x ══► mul ──► a ══► add ──► t ══► mul ──► L
# ```
#
# Here a double arrow ══► stands for two edges: the same value is read twice by that operation.
#
# **The backward sweep.** We want dL/d(name) for every name, and we call it the name's *gradient*. Start by seeding L with 1 (dL/dL = 1). Then visit the nodes from the last to the first. At each node, send one contribution along each incoming edge: the node's gradient times that edge's local slope, **added** to the input's gradient.
#
# 1. **L = t · t.** Along each of its two edges the local slope is the other factor, t = 8. So t receives 1 · 8 + 1 · 8 = **16**.
# 2. **t = a + a.** A sum has slope 1 along each edge. So a receives 16 · 1 + 16 · 1 = **32**.
# 3. **a = x · x.** The slope along each edge is the other factor, x = 2. So x receives 32 · 2 + 32 · 2 = **128**.
#
# **Check with algebra.** L = (x² + x²)² = 4x⁴, so dL/dx = 16x³, which is 16 · 8 = 128 at x = 2. Formula and graph are two descriptions of one function, so differentiating either must give the same number, and here both give 128.
#
# The cell below draws the diamond with `draw` (from `exercises/draw.py`, as in Lesson 1): each box shows the value and the gradient the sweep above worked out, and "x2" marks an arrow that is read twice.

# %%
from exercises.draw import draw

g_diamond = [("a", "mul", ["x", "x"]), ("t", "add", ["a", "a"]), ("L", "mul", ["t", "t"])]
draw(g_diamond, values={"x": 2, "a": 4, "t": 8, "L": 64}, grads={"L": 1, "t": 16, "a": 32, "x": 128})

# %% [markdown]
# ## Fan-out means adding
#
# Along a plain chain, each value has exactly one reader, so exactly one contribution ever comes back to it. At a fan-out, every reader sends its own, and the value's gradient is their **sum**. (x · x reads x along two edges, so that one node sends x two contributions.)
#
# Sharing a value costs nothing beyond these additions, and forgetting one is a quiet bug: no exception, no NaN, only a plausible number that happens to be wrong.
#
# ## Why the sweep runs in reverse
#
# A node may pass its gradient on only when that gradient is final, that is, once **every** node that reads it has sent its contribution. The list is in a topological order (Lesson 1): each node comes after what it reads, so its readers all come later. Reading the list **from the end** therefore reaches every node after all of its readers. No sorting is needed; the listed order, read backwards, is the order the sweep wants.
#
# Try the sweep in the forward order instead. Its first step handles a = x · x while a's gradient is still 0, so x receives 0 · 2 + 0 · 2 = 0, and nothing visits x again: the sweep reports **0** for x instead of 128. Not one multiplication differs from the correct sweep; the order alone broke it.
#
# ## The cost is linear
#
# The sweep handles each edge once, with one multiplication (the node's gradient times the edge's local slope) and one addition. Six edges in the diamond, so six multiplications. In general the work is proportional to the number of edges, about what the forward pass itself costs, and one sweep yields the derivative with respect to every input at once, whether there are ten of them or ten million. Without that, training deep models would be out of reach.

# %% [markdown]
# ## Your turn: a question
#
# Suppose each `+=` in the sweep were replaced by a plain assignment `=`, so that when a value receives several contributions only the **last** one to arrive is kept. Redo the diamond by hand with that change (x = 2, the same graph and the same order of visits).
#
# - Set `ASSIGN_X` to the number the sweep would then return for x.
# - Set `FIRST_WRONG` to the name of the first node whose gradient comes out wrong, in the order the sweep visits them: one of `"x"`, `"a"`, `"t"`, `"L"`.

# %% answer grade_id="assign_instead_of_add_solution"
# ASSIGN_X: a number; FIRST_WRONG: a name, as a string
### BEGIN SOLUTION
ASSIGN_X = 16
FIRST_WRONG = "t"
### END SOLUTION

# %% tests grade_id="answer_assign_instead_of_add" points=1 judge="assign_instead_of_add"
assert isinstance(ASSIGN_X, (int, float)) and not isinstance(ASSIGN_X, bool), "ASSIGN_X should be a number"
assert FIRST_WRONG in {"x", "a", "t", "L"}, "FIRST_WRONG should be one of \"x\", \"a\", \"t\", \"L\""

# %% [markdown]
# ### Run the sweep by hand
#
# Answer the question above before you use this. The next cell shows the diamond at x = 2 as a graph you click in JupyterLab, one node per step of the sweep. A blue outline marks a node whose gradient is complete, because every node that reads it has already sent its contribution: only such a node may pass its gradient on, and a click anywhere else is refused with the reader still to come. Each click writes on every edge the contribution that travels along it, and each box shows what arrived and, at a fan-out, the sum. Tick the switch to make each contribution replace what was there instead of adding to it, then sweep again: the node that goes wrong first turns red, and the last line says what x receives. Where no widget can run, the plain picture stands in.

# %%
from exercises.graph_widget import backward_graph

backward_graph([("a", "mul", ["x", "x"]), ("t", "add", ["a", "a"]), ("L", "mul", ["t", "t"])], {"x": 2}, OPS,
               title="the diamond: a = x·x, t = a + a, L = t·t")

# %% [markdown]
# ## Your turn: `backward(graph, values, output=None)`
#
# Write the backward sweep. It returns a **new** dict with an entry for every name in `values` (leaves and nodes), mapping it to dL/d(name).
#
# - L is the node named `output`; when `output` is `None`, L is the last node of the graph.
# - L's own entry is 1.0. Names that L does not depend on get 0.0.
# - Make one pass over the graph in reverse of the listed order. At each node, add one contribution per incoming edge to that input's entry, so a value read by several nodes, or twice by one node, ends up with the sum of its contributions.
# - `values` is the dict that `evaluate` would return. Read from it, but do not change it.
#
# The local slopes you need, for an op with inputs a (and b) and output out:
#
# | op | slope along the edge from a | slope along the edge from b |
# |---|---|---|
# | `add` | 1 | 1 |
# | `sub` | 1 | −1 |
# | `mul` | b | a |
# | `div` | 1 / b | −a / b² |
# | `sq` | 2a | |
# | `tanh` | 1 − out² | |
# | `relu` | 1 if a > 0, else 0 | |
# | `neg` | −1 | |
# | `step` | 0 (flat on both sides of 0) | |
# | `one` | no input, so no edge and nothing to send | |
#
# `one` and `step` are the two entries of `OPS` that Lesson 1 set aside for Lesson 6; no graph of this lesson uses them, but `backward` handles every op of `OPS`.

# %% reference grade_id="backward_solution" module="graph" names=["backward"]

# %% tests grade_id="backward_correct" grades="backward"
# The diamond: x = 2, a = x*x, t = a + a, L = t*t.
g = [("a", "mul", ["x", "x"]), ("t", "add", ["a", "a"]), ("L", "mul", ["t", "t"])]
values = {"x": 2, "a": 4, "t": 8, "L": 64}
grads = backward(g, values)
assert grads == {"x": 128, "a": 32, "t": 16, "L": 1}, grads

# z = a*b + c: dz/da = b, dz/db = a, dz/dc = 1.
g_z = [("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"])]
values_z = {"a": 2, "b": 3, "c": 1, "p": 6, "z": 7}
assert backward(g_z, values_z) == {"a": 3, "b": 2, "c": 1, "p": 1, "z": 1}

# output= picks another node; names it does not depend on get 0.
assert backward(g_z, values_z, output="p") == {"a": 3, "b": 2, "c": 0, "p": 1, "z": 0}

# tanh reads its own output: the slope of y = tanh(u) is 1 - y*y.
u = OPS["mul"](0.5, 2.0)
y = OPS["tanh"](u)
grads_t = backward([("u", "mul", ["w", "x"]), ("y", "tanh", ["u"])], {"w": 0.5, "x": 2.0, "u": u, "y": y})
assert abs(grads_t["u"] - (1 - y * y)) < 1e-12, grads_t
assert abs(grads_t["w"] - (1 - y * y) * 2.0) < 1e-12, grads_t

# %% [markdown]
# ## Checking a gradient with finite differences
#
# There is a slow but independent way to check a gradient: nudge one input a little each way, rerun the forward computation, and see how far L moves. The **central difference** (L(x + h) − L(x − h)) / 2h approximates dL/dx with an error that shrinks like h², so for a small h it should agree with the backward sweep to many digits. It needs two extra forward runs for every input, which is fine for a test but far too slow for training.
#
# The cell below is not graded. Once `backward` works, run it and compare the two numbers; try other values of `x0` and `h`. (If `h` is made very small, rounding errors take over and the agreement gets worse again.)

# %%
def diamond(x):
    """The diamond's values dict for a given x, computed by hand."""
    a = x * x
    t = a + a
    return {"x": x, "a": a, "t": t, "L": t * t}


g_diamond = [("a", "mul", ["x", "x"]), ("t", "add", ["a", "a"]), ("L", "mul", ["t", "t"])]
x0, h = 2.0, 1e-5

swept = backward(g_diamond, diamond(x0))["x"]
central = (diamond(x0 + h)["L"] - diamond(x0 - h)["L"]) / (2 * h)
print(f"backward sweep:     {swept:.8f}")
print(f"central difference: {central:.8f}")
print(f"16 * x0**3:         {16 * x0**3:.8f}")

# %% [markdown]
# ## A second worked example: L = (a·b + c)²
#
# Lesson 1's graph, squared: p = a·b, z = p + c, L = z². Take a = 2, b = 3 and c = 1, so p = 6, z = 7 and L = **49**.
#
# Sweep it by hand. The seed is dL/dL = 1. The square's local slope is 2z = 14, so z receives **14**: that number is the *upstream gradient* every earlier node is built on. The sum passes it on unchanged, so p and c each receive 14, and **dL/dc = 14**. The product sends each factor the other one, times 14: **dL/da = 14 · 3 = 42** and **dL/db = 14 · 2 = 28**.
#
# With algebra: L = (ab + c)², so dL/da = 2(ab + c)·b, dL/db = 2(ab + c)·a and dL/dc = 2(ab + c), which at a = 2, b = 3, c = 1 are 42, 28 and 14.
#
# ## The chain rule, one node at a time
#
# Each step of the sweep is the **chain rule** of calculus. Take any value x, and let u₁, …, uₖ be the nodes that read it, one term per edge (a node that reads x twice gives two terms). A small change in x can reach L only through those readers, so
#
# **∂L/∂x = Σⱼ ∂L/∂uⱼ · ∂uⱼ/∂x**, the sum running over the readers uⱼ of x.
#
# The first factor is the reader's own gradient, already final when the sweep reaches x, because the sweep visits readers first. The second is the local slope along the edge from x to uⱼ. Each term is one contribution of the sweep, and the sum is the adding at a fan-out. On L = (a·b + c)²:
#
# - z has one reader, L = z², with slope 2z = 14: ∂L/∂z = 1 · 14 = **14**, the upstream gradient;
# - p and c each have one reader, z = p + c, with slope 1: ∂L/∂p = ∂L/∂c = 14 · 1 = **14**;
# - a and b each have one reader, p = a·b, whose slope is the other factor: ∂L/∂a = 14 · 3 = **42** and ∂L/∂b = 14 · 2 = **28**.
#
# **The sum over paths.** Apply the rule again to ∂L/∂uⱼ, and again, until you reach L, and a second picture appears: ∂L/∂x is the sum, over every path of edges that leads from x to L, of the product of the local slopes along that path. From a, one path leads to L, a → p → z → L, with slopes 3, 1 and 14: 3 · 1 · 14 = 42. From b, 2 · 1 · 14 = 28; from c, 1 · 14 = 14. The diamond has more paths: two edges run from x to a, two from a to t and two from t to L, so 2 · 2 · 2 = 8 paths lead from x to L, each with the product 2 · 1 · 8 = 16, and 8 · 16 = 128. On a large graph the paths can be far too many to list, yet the sweep never lists them: each node sums what arrives along its edges once and passes the total on, which covers every path with one visit per edge.
#
# Here is the graph with the values and the gradients of the hand sweep:

# %%
from exercises.draw import draw

draw([("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"]), ("L", "sq", ["z"])],
     values={"a": 2, "b": 3, "c": 1, "p": 6, "z": 7, "L": 49},
     grads={"L": 1, "z": 14, "p": 14, "c": 14, "a": 42, "b": 28})

# %% [markdown]
# Once your `backward` works, draw your own sweep: `draw(graph, values, backward(graph, values))` shows every gradient where it belongs, and a wrong one is easy to spot on the picture. The cell below (not graded) compares your `backward` with central differences of the same formula.

# %%
g_abc = [("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"]), ("L", "sq", ["z"])]


def abc_values(a, b, c):
    """The values dict of L = (a*b + c)**2, computed by hand."""
    p = a * b
    z = p + c
    return {"a": a, "b": b, "c": c, "p": p, "z": z, "L": z * z}


grads_abc = backward(g_abc, abc_values(2.0, 3.0, 1.0))
h = 1e-5
for leaf, moved in (("a", lambda d: abc_values(2.0 + d, 3.0, 1.0)), ("b", lambda d: abc_values(2.0, 3.0 + d, 1.0)),
                    ("c", lambda d: abc_values(2.0, 3.0, 1.0 + d))):
    central = (moved(h)["L"] - moved(-h)["L"]) / (2 * h)
    print(f"dL/d{leaf}: backward {grads_abc[leaf]:.6f}, central difference {central:.6f}")

# %% [markdown]
# ## Your turn: three common mistakes
#
# **Question 1.** In the worked example above, `values["z"]` is 7. Set `GRAD_Z` to dL/dz, the gradient that arrives at z.

# %% answer grade_id="gradient_of_z_solution"
# GRAD_Z: a number
### BEGIN SOLUTION
GRAD_Z = 14
### END SOLUTION

# %% tests grade_id="answer_gradient_of_z" points=1 judge="gradient_of_z"
assert isinstance(GRAD_Z, (int, float)) and not isinstance(GRAD_Z, bool), "GRAD_Z should be a number"

# %% [markdown]
# **Question 2.** A value x is read by two nodes, and the backward sweep brings one contribution back along each edge: 3 along one, 5 along the other. What is dL/dx?
#
# - **A.** 5: the larger contribution wins.
# - **B.** 8: the contributions of all edges add up.
# - **C.** Whichever contribution arrives last, since the sweep overwrites the entry.
#
# Set `CHOICE_SHARED` to `"A"`, `"B"` or `"C"`.

# %% answer grade_id="shared_branches_solution"
# CHOICE_SHARED: "A", "B" or "C"
### BEGIN SOLUTION
CHOICE_SHARED = "B"
### END SOLUTION

# %% tests grade_id="answer_shared_branches" points=1 judge="choice" explain={"A": "x moves L through both readers at once, so both effects count: neither contribution can be dropped.", "C": "Keeping only the last contribution is exactly the assign-instead-of-add mistake from the diamond: the other edge's effect is lost."}
assert CHOICE_SHARED in {"A", "B", "C"}, "CHOICE_SHARED should be one of the strings \"A\", \"B\" or \"C\""

# %% [markdown]
# **Question 3.** `backward` returns dL/da = 42 in the worked example. What happens to the value of a?
#
# - **A.** backward sets a to 42.
# - **B.** Nothing: backward only computes dL/da. An optimizer may later change a, for example to a − η · 42 with a step size η it chooses.
# - **C.** backward subtracts 42 from a, since the gradient points uphill.
#
# Set `CHOICE_STEP` to `"A"`, `"B"` or `"C"`.

# %% answer grade_id="backprop_is_not_a_step_solution"
# CHOICE_STEP: "A", "B" or "C"
### BEGIN SOLUTION
CHOICE_STEP = "B"
### END SOLUTION

# %% tests grade_id="answer_backprop_is_not_a_step" points=1 judge="choice" explain={"A": "42 is a sensitivity, how fast L moves per unit move of a; it is not a new value for a.", "C": "Changing a is the optimizer's job, and it needs a step size: backpropagation computes derivatives and changes nothing."}
assert CHOICE_STEP in {"A", "B", "C"}, "CHOICE_STEP should be one of the strings \"A\", \"B\" or \"C\""

# %% [markdown]
# ## Key points
#
# - A trace lists the operations that ran and the values each took in; a computation graph is that list drawn as boxes and arrows.
# - The sweep seeds dL/dL = 1 and visits the nodes from last to first, the reverse of a topological order, sending one contribution along every edge.
# - Each step is the chain rule, ∂L/∂x = Σⱼ ∂L/∂uⱼ · ∂uⱼ/∂x over the readers uⱼ of x; unrolled, ∂L/∂x is the sum over all paths from x to L of the product of the slopes along each.
# - Contributions meeting at a fan-out are **added**; overwriting keeps one of them and gives a wrong gradient without any error.
# - The work is one multiplication and one addition per edge: linear in the size of the graph.
# - The trace can be trusted only while its stored values are still the ones the run used: change one after it was saved and the sweep computes something else, silently (Lesson 5).
# - A gradient is not a forward value, and computing one changes no parameter: moving the parameters is the optimizer's job.
