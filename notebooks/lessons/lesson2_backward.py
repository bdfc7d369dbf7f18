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
# A program runs once and returns 64. Only afterwards does the training step ask: how does that 64 change when the input changes? By then the run is over, and some of the numbers it used may already have been overwritten. So a program that is to be differentiated has to decide, *while it runs*, what to keep.
#
# The record it keeps is called a **trace**: the operations that actually ran, in the order they ran, together with the values each one read. When the trace is stored as a list that only ever grows at the end, it is called a **tape**. Drawn with nodes and arrows instead, the very same record is the computation graph of Lesson 1. In our representation the graph list plus the `values` dict that `evaluate` returns *is* the trace.
#
# **How to work through this notebook:** as in Lesson 1, run the cells from top to bottom with <kbd>Shift</kbd>+<kbd>Enter</kbd>, replace each `raise NotImplementedError(...)` with your answer or code, run the check cell that follows it, and finish with *Kernel → Restart Kernel and Run All Cells…* before you submit.

# %% [markdown]
# ## What the record has to keep
#
# Computing a derivative backwards needs, for every operation, its **local slope**: how much its output moves per unit move of each input. The slopes are what decide what must be stored.
#
# - **Which operation read which values.** Without the links between entries nobody can tell where a contribution has to go. That is the `(name, op, inputs)` part of the graph.
# - **The inputs' values, not only the outputs.** For a product u·v, the slope with respect to u is v, the *other factor*, so the record must still hold the inputs of the product.
# - **Sometimes the node's own output.** For tanh, the slope is 1 − tanh(u)², which is cheapest to get from the value the node produced. The exponential is the same: its slope is its own output.
#
# A bare column of results, without the links, cannot drive the backward sweep: it tells you neither which operation read which value nor what the other factor of a product was.
#
# A value that is used twice is stored **once**, with two readers. Writing the computation out as a tree instead would copy a shared subexpression once for every use; sharing keeps the record proportional to the number of operations that ran. Each stored value still costs memory until the sweep has used it, which is the main price of reverse mode on large models.
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
# Three operations, four values, and six edges, because x, a and t are each read twice.
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
# **Check with algebra.** L = (x² + x²)² = 4x⁴, so dL/dx = 16x³, which is 16 · 8 = 128 at x = 2. The graph and the formula describe the same function, and the sweep agrees with the formula.
#
# The cell below draws the diamond with `draw` (from `exercises/draw.py`, as in Lesson 1): each box shows the value and the gradient the sweep above worked out, and "x2" marks an arrow that is read twice.

# %%
from exercises.draw import draw

g_diamond = [("a", "mul", ["x", "x"]), ("t", "add", ["a", "a"]), ("L", "mul", ["t", "t"])]
draw(g_diamond, values={"x": 2, "a": 4, "t": 8, "L": 64}, grads={"L": 1, "t": 16, "a": 32, "x": 128})

# %% [markdown]
# ## Fan-out means adding
#
# In a plain chain every value has a single reader, so exactly one contribution comes back to it and there is nothing to add. At a fan-out each reader sends its own contribution, and the derivative is the **sum** of all of them. (Reading the same value twice, as in x · x, counts as two edges and so as two contributions.)
#
# Those additions are the whole cost of sharing a value. Leaving one out does not crash anything: the sweep still returns a number, and it even looks reasonable. That is what makes this mistake hard to spot.
#
# ## Why the sweep runs in reverse
#
# A node can pass its gradient on only once that gradient is complete, which means after **every** reader of the node has sent its contribution. Readers always come later in the listed order, since each node comes after what it reads. So going through the list **backwards** visits every node after all of its readers. The listed order is already a valid forward order, so no sorting is needed; we simply read it from the end.
#
# Go through the same list in the forward order and see what happens. The first step handles a = x · x while a's gradient is still 0, so x receives 0 · 2 + 0 · 2 = 0, and x is never visited again. The sweep reports **0** for x instead of 128. Each step does the same arithmetic as before; only the order changed.
#
# ## The cost is linear
#
# The sweep visits every edge exactly once and does one local multiplication there (node gradient × local slope), plus one addition. The diamond has six edges, so it takes six multiplications. In general the work grows in proportion to the number of edges, the same order as the forward pass itself. That is why one backward sweep can give the derivative with respect to millions of weights at once, and it is the reason deep models can be trained at all.

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
# With algebra: L = (ab + c)², so dL/da = 2(ab + c)·b, dL/db = 2(ab + c)·a and dL/dc = 2(ab + c), which at a = 2, b = 3, c = 1 are 42, 28 and 14. Here is the graph with the values and the gradients of the hand sweep:

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
# - The trace records each operation together with the values it read; the computation graph draws the same record with nodes and arrows.
# - The backward sweep visits the nodes in reverse of the order they were computed, starting from a seed of 1, and sends one contribution along every edge.
# - At a fan-out the contributions are **added**; assigning instead keeps only one of them and silently gives a wrong gradient.
# - The cost is one local multiplication per edge, linear in the size of the graph.
# - The record is only correct while the stored values are the ones the run really used: overwrite one after it was saved and the gradient goes wrong with no error at all.
# - A gradient is not a forward value, and computing it changes nothing: backpropagation gives derivatives, and an optimizer decides how to change the parameters.
