# %% lesson notebook="computation_graphs.ipynb"
# Lesson 1, computation graphs: the source of notebooks/source/lesson1_graphs/computation_graphs.ipynb.
# `make notebooks` builds the notebook from this file and solutions/graph.py; never edit the notebook.
# Open this file as a notebook (jupytext, VS Code) to preview it. Each cell's settings sit on its
# `# %%` line; the format is described in autograder/course/lessons.py.

# %% [markdown]
# # Lesson 1 · Computation graphs
#
# A model improves by moving each of its weights a little in the direction that lowers its loss, so for every weight it needs one number: how strongly the loss responds to that weight. With millions of weights, nobody derives those numbers as one giant formula. The computation is cut instead into elementary steps, an addition here, a product or a square there, and the program notes which step consumed which earlier result. Those notes form a **computation graph**, and backpropagation is an orderly walk over it. This lesson builds graphs and evaluates them from the given numbers onwards; Lesson 2 walks them the other way to get derivatives.
#
# **How to work through this notebook**
#
# - Run the cells from top to bottom with <kbd>Shift</kbd>+<kbd>Enter</kbd>.
# - Cells containing `# YOUR CODE HERE` and `raise NotImplementedError(...)` are yours; the error names the task, for example `task evaluate: not written yet`. Delete the `raise` line and put your answer or your code in its place.
# - The cell right after each of yours checks it. Run it: no error means the visible checks pass. More checks run when the notebook is graded.
# - Before you submit, use *Kernel → Restart Kernel and Run All Cells…* to be sure everything works from a clean start.

# %% [markdown]
# ## Nodes, leaves and edges
#
# Take z = a·b + c. Computing it takes two steps: first multiply a by b, then add c to that product. Each step is a **node**. A node holds one value, produced by one operation from the values it reads. The values a node reads directly are its **immediate inputs**: only those with an arrow straight into it, not everything further back.
#
# The numbers we start from, here a, b and c, are **leaves**. Nothing computes them; they are given, so they have no inputs of their own.
#
# Every arrow from a value to a node that reads it is an **edge**. A value may be read by more than one node, and then more than one arrow leaves it. That is a **fan-out**. It looks harmless now, but in Lesson 2 it is exactly where the contributions coming back along each arrow have to be added up.
#
# ```
# a ──┐
#     ├── mul ──► p ──┐
# b ──┘               ├── add ──► z
# c ──────────────────┘
# ```
#
# ## Why an order always exists: topological order
#
# A node can be computed only once each of its inputs has a value. Follow the arrows from any node and you never come back to it: no value depends, directly or through other nodes, on itself, so the graph has no cycles. Such a graph can always be listed so that each node appears after every node it reads, and computing the nodes in that listing finds every input ready in time.
#
# A listing with this property, every node after all the nodes it reads, is a **topological order** of the graph. The forward pass runs in a topological order, Lesson 2's backward sweep runs through one from the end, and Lesson 4 puts records that arrive in no useful order back into one.
#
# A graph may have more than one topological order: two nodes that do not depend on each other may come in either order. For z = a·b + c there is only one, p then z, since z reads p.

# %% [markdown]
# ## The graph as data
#
# In code, a graph is a plain Python list of `(name, op, inputs)` tuples, listed in an order in which it can be computed:
#
# - `name`: the node's name, a string;
# - `op`: the name of its operation, one of the keys of `OPS` below;
# - `inputs`: the list of names the node reads, in order.
#
# The leaves are not in the list. Their values come separately, in a dict such as `{"a": 2, "b": 3, "c": 1}`.
#
# **Worked example.** z = a·b + c is the graph
#
# ```python
# graph = [("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"])]
# ```
#
# With a = 2, b = 3 and c = 1, node p is 2 · 3 = 6 and node z is 6 + 1 = **7**.
#
# The table `OPS` maps each op name to its forward rule, a function that takes the input values and returns the node's value. For example `OPS["mul"](2, 3)` is 6 and `OPS["sq"](4)` is 16. Run the next cell to define it (it is read-only).
#
# Two of its entries are not arithmetic you will meet in Lessons 1 to 5: `one` reads no input at all and always gives 1.0, and `step` gives 1.0 for a positive input and 0.0 otherwise. They are there for Lesson 6, where derivatives themselves become nodes: a derivative graph starts from a node of value 1 (`one`), and the slope of `relu` is a `step`. Until then, no graph uses them.

# %% reference grade_id="ops_table" module="graph" names=["math", "OPS"]

# %% [markdown]
# ### Drawing a graph
#
# `draw` (from `exercises/draw.py`, which comes with this course) turns such a list into a picture: the leaves in the left column, every node one column to the right of its furthest input, each box with its name, its op and, when you give them, its value. Run the cell to see the worked example with a = 2, b = 3 and c = 1.

# %%
from exercises.draw import draw

worked_example = [("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"])]
draw(worked_example, values={"a": 2, "b": 3, "c": 1, "p": 6, "z": 7})

# %% [markdown]
# ### The graph of this chapter: L = (a·b + c)²
#
# Square the worked example and you have the graph the next lessons keep returning to: p = a·b, z = p + c, and a third node L = z², the `sq` of z. With a = 2, b = 3 and c = 1 its nodes are p = 6, z = 7 and L = 49. In Lesson 2 the backward sweep starts at this L and works out how much each of a, b and c moves it.

# %%
from exercises.draw import draw

squared = [("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"]), ("L", "sq", ["z"])]
draw(squared, values={"a": 2, "b": 3, "c": 1, "p": 6, "z": 7, "L": 49}, title="L = (a·b + c)²")

# %% [markdown]
# Call `draw(graph)` on any graph of your own to check that it has the shape you meant, and `draw(graph, evaluate(graph, leaves))` once your `evaluate` below works.

# %% [markdown]
# ### Compute a graph yourself
#
# The next cell shows L = (a·b + c)², the worked example with its result squared, at a = 2, b = 3 and c = 1, as a graph you can click in JupyterLab. A blue outline marks a node that is ready: each of its inputs already has a value. Click a ready node and it gets its value. Click one that is not ready and you are told which input still has none. The line "order so far" lists the nodes in the order you computed them, and Reset starts over. Where no widget can run (a page converted from the notebook), the plain picture stands in.

# %%
from exercises.graph_widget import forward_graph

forward_graph([("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"]), ("L", "sq", ["z"])], {"a": 2, "b": 3, "c": 1}, OPS,
              title="L = (a·b + c)²")

# %% [markdown]
# ## Your turn: questions on one small graph
#
# Every question in this part is about L = (a·b + a)², written as the graph
#
# ```python
# graph = [("p", "mul", ["a", "b"]), ("q", "add", ["p", "a"]), ("L", "sq", ["q"])]
# ```
#
# Sketch it on paper first: the leaves a and b at the left, then the nodes p, q and L. Note that `sq` squares a single value, so L reads q only once.
#
# Each answer goes into a variable in the cell under its question. The check after it only looks at the *form* of your answer (the right type, names that exist in this graph). Whether the answer is right is decided when the notebook is graded.
#
# **Question 1.** Set `ORDER` to a list of the graph's three nodes (not the leaves), in an order in which they can be computed.

# %% [markdown]
# **Answer by clicking.** Questions 1 to 4 can all be answered in the graph below, with a = 2 and b = 3. Compute every node, one click at a time (your order is the answer to Question 1); tick the immediate inputs of q; pick the value read by two nodes; give the number of edges. Each answer is marked right or wrong as soon as you give it, with the reason.
#
# What you click is your answer. The widget sets `ORDER` (once every node has a value), `INPUTS_OF_Q`, `FAN_OUT_NODE` and `EDGE_COUNT` for the check cells below, and JupyterLab keeps the widget's state in the notebook when you save it, which is what the grader reads. In the answer cell of a question you answered by clicking, delete the line that raises `NotImplementedError` and leave the cell without code. To type an answer instead, write it in its answer cell as before: a typed answer counts over a clicked one. After a restart of the kernel, running the widget's cell again brings back what you had clicked when you last saved.

# %%
from exercises.graph_widget import forward_graph

forward_graph([("p", "mul", ["a", "b"]), ("q", "add", ["p", "a"]), ("L", "sq", ["q"])], {"a": 2, "b": 3}, OPS,
              title="L = (a·b + a)²", question="q",
              answers={"order": "ORDER", "inputs": "INPUTS_OF_Q", "fan_out": "FAN_OUT_NODE", "edges": "EDGE_COUNT"})

# %% answer grade_id="order_solution"
# ORDER: a list of node names, for example ["x", "y"]
# Answered in the widget above? Delete the line below that raises: ORDER is what you clicked.
### BEGIN SOLUTION
ORDER = ["p", "q", "L"]
### END SOLUTION

# %% tests grade_id="answer_order" points=1 judge="order"
assert isinstance(ORDER, list), "ORDER should be a list"
assert all(name in {"p", "q", "L"} for name in ORDER), "list only the nodes p, q and L"

# %% [markdown]
# **Question 2.** Set `INPUTS_OF_Q` to the list of the immediate inputs of node q.

# %% answer grade_id="inputs_of_q_solution"
# INPUTS_OF_Q: a list of names
# Answered in the widget above? Delete the line below that raises: INPUTS_OF_Q is what you clicked.
### BEGIN SOLUTION
INPUTS_OF_Q = ["p", "a"]
### END SOLUTION

# %% tests grade_id="answer_inputs_of_q" points=1 judge="inputs_of_q"
assert isinstance(INPUTS_OF_Q, list), "INPUTS_OF_Q should be a list"
assert all(name in {"a", "b", "p", "q", "L"} for name in INPUTS_OF_Q), "use names from the graph"

# %% [markdown]
# **Question 3.** One value in this graph is read by two different nodes. Set `FAN_OUT_NODE` to its name.

# %% answer grade_id="fan_out_node_solution"
# FAN_OUT_NODE: one name, as a string
# Answered in the widget above? Delete the line below that raises: FAN_OUT_NODE is what you clicked.
### BEGIN SOLUTION
FAN_OUT_NODE = "a"
### END SOLUTION

# %% tests grade_id="answer_fan_out_node" points=1 judge="fan_out_node"
assert isinstance(FAN_OUT_NODE, str), "FAN_OUT_NODE should be a string such as \"x\""
assert FAN_OUT_NODE in {"a", "b", "p", "q", "L"}, "use a name from the graph"

# %% [markdown]
# **Question 4.** Set `EDGE_COUNT` to the number of edges (arrows) in the whole graph.

# %% answer grade_id="edge_count_solution"
# EDGE_COUNT: a whole number
# Answered in the widget above? Delete the line below that raises: EDGE_COUNT is what you clicked.
### BEGIN SOLUTION
EDGE_COUNT = 5
### END SOLUTION

# %% tests grade_id="answer_edge_count" points=1 judge="edge_count"
assert isinstance(EDGE_COUNT, int) and not isinstance(EDGE_COUNT, bool), "EDGE_COUNT should be an int"
assert EDGE_COUNT >= 0, "a count cannot be negative"

# %% [markdown]
# **Question 5.** Back to the worked example z = a·b + c. Which values are z's immediate inputs?
#
# - **A.** a and b: changing either of them changes z.
# - **B.** Only the product a·b; c is a fixed number, so it does not count as an input.
# - **C.** The product node (a·b) and the leaf c: z is the sum of exactly these two.
#
# Set `CHOICE` to `"A"`, `"B"` or `"C"`.

# %% answer grade_id="multiple_choice_solution"
# CHOICE: "A", "B" or "C"
### BEGIN SOLUTION
CHOICE = "C"
### END SOLUTION

# %% tests grade_id="answer_multiple_choice" points=1 judge="choice" explain={"A": "a and b are read by the product node, not by z; a node's inputs are the values with an arrow straight into it, nothing further back.", "B": "c is a leaf, and a leaf that a node reads is one of that node's inputs like any other value."}
assert CHOICE in {"A", "B", "C"}, "CHOICE should be one of the strings \"A\", \"B\" or \"C\""

# %% [markdown]
# ## Your turn: code
#
# Now write three functions that work on this representation. Each cell below gives you a function's signature and docstring; keep both, and replace the `raise NotImplementedError(...)` line with your code. Every function cell is followed by a test cell: run both.
#
# ### `evaluate(graph, leaves)`: the forward pass
#
# Return a **new** dict holding the value of every leaf and of every node.
#
# - Start from a copy of `leaves`, then go through `graph` in the order it is listed. For each node, look up its op in `OPS` and apply it to the values of its inputs, in the order the inputs are listed.
# - If a node reads a name that has no value yet (the graph is listed in the wrong order, or a leaf is missing), raise `ValueError` with a message that names both the node and the missing name.
# - Change neither argument.
#
# For the worked example, `evaluate(graph, {"a": 2, "b": 3, "c": 1})["z"]` is 7.

# %% reference grade_id="evaluate_solution" module="graph" names=["evaluate"]

# %% tests grade_id="evaluate_correct" grades="evaluate"
# The worked example: z = a*b + c with a = 2, b = 3, c = 1.
g = [("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"])]
values = evaluate(g, {"a": 2, "b": 3, "c": 1})
assert values == {"a": 2, "b": 3, "c": 1, "p": 6, "z": 7}, values

# L = (a*b + a)**2 with a = 2, b = 3: p = 6, q = 8, L = 64.
g_sq = [("p", "mul", ["a", "b"]), ("q", "add", ["p", "a"]), ("L", "sq", ["q"])]
assert evaluate(g_sq, {"a": 2, "b": 3})["L"] == 64

# The same two nodes listed the wrong way round: z reads p before p has a value.
try:
    evaluate([("z", "add", ["p", "c"]), ("p", "mul", ["a", "b"])], {"a": 2, "b": 3, "c": 1})
except ValueError:
    pass
else:
    raise AssertionError("a graph listed in the wrong order should raise ValueError")

# %% [markdown]
# ### `inputs_of(graph, name)`: immediate inputs
#
# Return the immediate inputs of node `name` as a **new** list.
#
# - Keep the order in which the graph lists them, and keep duplicates: `("s", "mul", ["x", "x"])` reads x twice, along two edges, so `inputs_of` gives `["x", "x"]`.
# - A leaf, or a name that is not in the graph at all, gives `[]`.

# %% reference grade_id="inputs_of_solution" module="graph" names=["inputs_of"]

# %% tests grade_id="inputs_of_correct" grades="inputs_of"
g_sq = [("p", "mul", ["a", "b"]), ("q", "add", ["p", "a"]), ("L", "sq", ["q"])]
assert inputs_of(g_sq, "q") == ["p", "a"]
assert inputs_of(g_sq, "L") == ["q"]
assert inputs_of(g_sq, "a") == [], "a leaf has no inputs"

# One entry per edge: a value read twice appears twice.
assert inputs_of([("s", "mul", ["x", "x"])], "s") == ["x", "x"]

# %% [markdown]
# ### `users_of(graph, name)`: who reads a value
#
# Return the names of the nodes that read `name`, in the order the graph lists them.
#
# - A node that reads `name` twice is listed only once.
# - If nothing reads `name`, return `[]`.
#
# `users_of` looks along the arrows in the direction opposite to `inputs_of`. A name with two or more users is a fan-out.

# %% reference grade_id="users_of_solution" module="graph" names=["users_of"]

# %% tests grade_id="users_of_correct" grades="users_of"
g_sq = [("p", "mul", ["a", "b"]), ("q", "add", ["p", "a"]), ("L", "sq", ["q"])]
assert users_of(g_sq, "a") == ["p", "q"], "a feeds two nodes"
assert users_of(g_sq, "b") == ["p"]
assert users_of(g_sq, "L") == [], "nothing reads the final node"

# s reads x twice but is listed once.
assert users_of([("s", "mul", ["x", "x"]), ("y", "neg", ["x"])], "x") == ["s", "y"]

# %% [markdown]
# ## What you have built
#
# - In code, a graph is a Python list of `(name, op, inputs)` entries, listed in a topological order: each node after everything it reads. Such an order exists because no value depends on itself.
# - `evaluate` runs that list forwards and fills in every value.
# - `inputs_of` follows the arrows into a node; `users_of` follows them out of a value. A value with several users is a fan-out.
#
# In Lesson 2 the `values` dict that `evaluate` returns becomes the record the backward sweep reads, and the fan-outs are where its contributions are added up.
