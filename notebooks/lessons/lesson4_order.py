# %% lesson notebook="order.ipynb"
# Lesson 4, order: the source of notebooks/source/lesson4_order/order.ipynb.
# `make notebooks` builds the notebook from this file and solutions/order.py; never edit the notebook.
# Open this file as a notebook (jupytext, VS Code) to preview it. Each cell's settings sit on its
# `# %%` line; the format is described in autograder/course/lessons.py.
# The traces of the while loop are written out by hand, so neither lesson 3's tape nor lesson 2's
# backward is given away; the cell that runs the learner's own versions is optional and never raises.

# %% [markdown]
# # Lesson 4 · Order: when the record is not a list, and what one run can tell
#
# In Lesson 3 a running program wrote its own trace, and the tape came out in an order the backward sweep could use as it was: every entry was appended after the entries it read. That is a property of programs that run **one operation at a time**. This lesson is about what happens without it, and about a limit that no recorder can lift: a trace is the record of **one** run.
#
# **How to work through this notebook:** as before, run the cells from top to bottom with <kbd>Shift</kbd>+<kbd>Enter</kbd>, replace each `raise NotImplementedError(...)` with your answer or code, run the check cell after it, and finish with *Kernel → Restart Kernel and Run All Cells…* before you submit.

# %% [markdown]
# ## Records with no total order
#
# A sequential program's tape is topological for a simple reason: an operation can only run once its operands exist, so it is recorded after them. Every edge points back in time.
#
# Now let two workers compute parts of one function at the same time, each writing its own log, and gather the logs afterwards:
#
# - worker A computes u = x · y, then, once v has arrived from worker B, w = u + v;
# - worker B computes v = x², then, once w has arrived, L = tanh(w).
#
# Each log is in order on its own. Put together one log after the other, they read u, w, v, L, and w reads v before v is listed. Lesson 1's `evaluate` would stop at w with a `ValueError`. Nothing was recorded wrongly; there was simply no single clock that put all four operations in one sequence. Threads, a parallel runtime, or records collected from several machines all leave records like these.
#
# So we keep them as what they are, a dict from each node's name to its `(op, inputs)`, in no particular order:
#
# ```python
# records = {"u": ("mul", ["x", "y"]), "w": ("add", ["u", "v"]), "v": ("sq", ["x"]), "L": ("tanh", ["w"])}
# ```
#
# Names that are not keys (x and y) are leaves. Before the forward pass or the sweep can run, an **ordering pass** has to turn the dict into a graph in the form of Lesson 1: a list in which every node comes after the nodes it reads. Drawn, the records are an ordinary graph:

# %%
from exercises.draw import draw

draw([("u", "mul", ["x", "y"]), ("v", "sq", ["x"]), ("w", "add", ["u", "v"]), ("L", "tanh", ["w"])])

# %% [markdown]
# **Question 1.** Set `ORDER_WORKERS` to a list of the four nodes u, v, w and L in an order in which they can be computed.

# %% [markdown]
# In JupyterLab you can also order the records by clicking. The next cell shows them, built from the dict in its own order, as a graph at x = 1 and y = 2: a blue outline marks a node whose inputs all have values, a click computes it, and a click on any other node says which input is missing. Once all four have values, the order you clicked is your `ORDER_WORKERS`: the widget sets it, and JupyterLab keeps it in the notebook when you save. Then delete the line that raises in the answer cell below, or type your own list there, which counts instead.

# %%
from exercises.graph_widget import forward_graph
from math import tanh

records = {"u": ("mul", ["x", "y"]), "w": ("add", ["u", "v"]), "v": ("sq", ["x"]), "L": ("tanh", ["w"])}
forward_graph([(name, op, inputs) for name, (op, inputs) in records.items()], {"x": 1, "y": 2},
              {"mul": lambda a, b: a * b, "add": lambda a, b: a + b, "sq": lambda a: a * a, "tanh": tanh},
              title="the two workers' records", answers={"order": "ORDER_WORKERS"})

# %% answer grade_id="order_workers_solution"
# ORDER_WORKERS: a list of node names, for example ["x", "y"]
# Ordered them in the widget above? Delete the line below that raises: ORDER_WORKERS is what you clicked.
### BEGIN SOLUTION
ORDER_WORKERS = ["u", "v", "w", "L"]
### END SOLUTION

# %% tests grade_id="answer_order_workers" points=1 judge="one_of" accept={"ORDER_WORKERS": [["u", "v", "w", "L"], ["v", "u", "w", "L"]]} explain={"['u', 'w', 'v', 'L']": "That is the logs put one after the other: w reads v, so v has to come before w."}
assert isinstance(ORDER_WORKERS, list), "ORDER_WORKERS should be a list"
assert all(name in {"u", "v", "w", "L"} for name in ORDER_WORKERS), "list only the nodes u, v, w and L"

# %% [markdown]
# More than one answer is right here: u and v read only leaves, so either may come first. An ordering pass may return **any** valid order, and every one of them gives the same values forwards and the same gradients backwards.
#
# ## Kahn's algorithm
#
# One way to find such an order is to keep, for every node, the number of its inputs that are nodes not listed yet.
#
# 1. **Count.** For each node, count its reads of other nodes; leaves do not count. A node that reads the same node twice (`mul t t`) counts it twice, because it has two edges from it. For each node, also remember which nodes read it.
# 2. **Start from the ready nodes.** Those whose count is 0 read only leaves; put them in a queue.
# 3. **List one and count down.** Take a node from the queue and append it to the result. For every edge out of it, lower the reader's count by one; a reader whose count reaches 0 has all its inputs listed, so it joins the queue.
# 4. **Repeat** until the queue is empty.
#
# On the workers' records the counts start at u: 0, w: 2, v: 0, L: 1, so u and v are ready. Listing u brings w down to 1, listing v brings it to 0 and w joins the queue, and listing w makes L ready. The result is u, v, w, L.
#
# Every node joins the queue once and every edge is counted down once, so the pass takes time proportional to nodes plus edges. Scanning the records again and again for "some node whose inputs are all listed" gives the same order, but its work grows with the **square** of the number of nodes: hopeless on a graph of a million.
#
# **Question 2.** Take these records, shaped like the diamond but with one change: t = a + x, so t reads a once and the leaf x once (in the diamond, t = a + a reads a twice): `{"L": ("mul", ["t", "t"]), "t": ("add", ["a", "x"]), "a": ("mul", ["x", "x"])}`. Set `WAITING` to a dict giving each node's count at the start of Kahn's algorithm (step 1).

# %% answer grade_id="kahn_counts_solution"
# WAITING: a dict of node name -> whole number, for example {"p": 1}
### BEGIN SOLUTION
WAITING = {"L": 2, "t": 1, "a": 0}
### END SOLUTION

# %% tests grade_id="answer_kahn_counts" points=1 judge="equals"
assert isinstance(WAITING, dict), "WAITING should be a dict"
assert set(WAITING) <= {"L", "t", "a"}, "give a count for the nodes L, t and a only (x is a leaf)"

# %% [markdown]
# ## Depth first, and why recursion fails deep
#
# There is a second classic way: **depth-first post-order**. To place a node, first place each of its inputs (and theirs, and so on), then append the node itself, skipping nodes already placed. It is often written as a recursive function, `visit(name)`, that calls itself on every input before appending `name`.
#
# The recursion is the trouble. Each nested call takes a frame on Python's call stack, and on a chain the nesting is as deep as the chain is long. Python stops at its recursion limit, about 1,000 frames by default, with a `RecursionError`. Raising the limit only moves the failure further out: some graph is always deeper, and every waiting call holds memory until the whole chain below it is done. A network with a few thousand operations in a row is nothing unusual. Depth first works well when it keeps its own stack in a list, and Kahn's algorithm never needs one.
#
# **Question 3.** A recursive depth-first post-order runs on a chain of 100,000 nodes, each reading the one before. What happens?
#
# - **A.** It is slow, because depth first visits every node many times, but it finishes.
# - **B.** It fails with a `RecursionError`: placing the last node needs 100,000 nested calls, one per node of the chain, far past the limit.
# - **C.** It works: depth first needs recursion only at a fan-out, and a chain has none.
#
# Set `CHOICE_DFS` to `"A"`, `"B"` or `"C"`.

# %% answer grade_id="deep_recursion_solution"
# CHOICE_DFS: "A", "B" or "C"
### BEGIN SOLUTION
CHOICE_DFS = "B"
### END SOLUTION

# %% tests grade_id="answer_deep_recursion" points=1 judge="choice" explain={"A": "With a set of placed nodes, depth first visits each node once. The problem is not the number of visits but how deeply the calls nest.", "C": "The recursive call happens at every input, fan-out or not. On a chain, each node's call waits for the call on the node before it."}
assert CHOICE_DFS in {"A", "B", "C"}, "CHOICE_DFS should be one of the strings \"A\", \"B\" or \"C\""

# %% [markdown]
# ## Cycles
#
# If a node depends, through any number of steps, on itself, no order exists: it would have to come after itself. Kahn's algorithm notices without any extra work. The nodes on a cycle never reach a count of 0, so the queue runs dry with nodes still unlisted. Follow unlisted inputs from any of them and you come back to a node already seen: that node is on a cycle.
#
# A real trace can never contain a cycle: an entry can only read names that were already on the tape when it was appended. A buggy recorder can, though. Suppose it named each entry after the Python variable that receives the result, and the program runs
#
# ```python
# a = x * x
# b = a + 1
# a = b * x
# out = a.tanh()
# ```
#
# The second record named `a` replaces the first, and the records are now `{"a": ("mul", ["b", "x"]), "b": ("add", ["a", "k0"]), "out": ("tanh", ["a"])}`: `a` reads `b`, and `b` reads `a`. A recorder that wrote `y = y * 2` as `("y", "mul", ["y", "k0"])` would even have a node reading itself, the shortest cycle there is. An ordering pass must not loop forever on such records, nor quietly return the nodes it managed to place: it raises an error that names a node on the cycle, so the recorder's author can find the bug.
#
# **Question 4.** Set `CYCLE_NODE` to the name of one node on the cycle of these records.

# %% answer grade_id="cycle_node_solution"
# CYCLE_NODE: one name, as a string
### BEGIN SOLUTION
CYCLE_NODE = "a"
### END SOLUTION

# %% tests grade_id="answer_cycle_node" points=1 judge="one_of" accept={"CYCLE_NODE": ["a", "b"]} explain={"out": "out reads a, but nothing reads out: it waits on the cycle without being on it.", "x": "x is a leaf: it reads nothing, so it cannot be on a cycle.", "k0": "k0 is a constant, a leaf: it reads nothing, so it cannot be on a cycle."}
assert isinstance(CYCLE_NODE, str), "CYCLE_NODE should be a string such as \"p\""

# %% [markdown]
# ## Your turn: `topological_order(nodes)`
#
# Write the ordering pass.
#
# - `nodes` is a dict `name -> (op, inputs)`, in any order. Names that are not keys are leaves.
# - Return a graph in the form of Lesson 1: a list of `(name, op, inputs)` with **every node exactly once**, each after every input of it that is a node. Leaves are not listed. Each `inputs` is a **new** list, in the node's own order.
# - Any valid order is right. The checks look at whether your order is valid, never at which one you chose.
# - If the records have a cycle (a node reading itself included), raise `ValueError` with a message that names a node on the cycle.
# - Take time proportional to nodes plus edges, use no recursion (a chain of 100,000 nodes must work), and do not modify `nodes`.
#
# `collections.deque` is a good queue: `popleft()` takes from the front in constant time. Lesson 2's `backward` runs on your result, and gives the same gradients as on any other valid order.

# %% reference grade_id="topological_order_solution" module="order" names=["deque", "topological_order"]

# %% tests grade_id="topological_order_correct" grades="topological_order"
def is_valid_order(graph, nodes):
    """Every node once, with its own op and inputs, each after the nodes it reads; no leaves."""
    position = {name: k for k, (name, _op, _inputs) in enumerate(graph)}
    return (len(graph) == len(position) == len(nodes) and set(position) == set(nodes)
            and all((op, list(inputs)) == (nodes[name][0], list(nodes[name][1])) for name, op, inputs in graph)
            and all(position[i] < position[name] for name, _op, inputs in graph for i in inputs if i in nodes))


records = {"u": ("mul", ["x", "y"]), "w": ("add", ["u", "v"]), "v": ("sq", ["x"]), "L": ("tanh", ["w"])}
got = topological_order(records)
assert is_valid_order(got, records), got

# The diamond given last node first: each node listed once, though t and L read a node twice.
diamond = {"L": ("mul", ["t", "t"]), "t": ("add", ["a", "a"]), "a": ("mul", ["x", "x"])}
got = topological_order(diamond)
assert [entry[0] for entry in got] == ["a", "t", "L"], got

# A node reading itself is a cycle: ValueError, naming the node.
try:
    topological_order({"looped": ("mul", ["looped", "k0"])})
except ValueError as error:
    assert "looped" in str(error), f"the message should name the node on the cycle, 'looped': {error}"
else:
    raise AssertionError("records with a cycle should raise ValueError")

# %% [markdown]
# ## One run, and the path it took
#
# Ordering fixes records that lost their order. Nothing fixes the next limit, because it is not a fault of the recorder: a trace records one run. Take a program with a `while` loop whose number of trips depends on its input:
#
# ```python
# def halve_then_square(x):
#     while x.value >= 1:
#         x = x / 2
#     return x * x
# ```
#
# For 1 ≤ x < 2 the loop halves once; for 2 ≤ x < 4 it halves twice. Here are the two traces, written out as Lesson 3's `trace` records them, at x = 1.5 and at x = 2.5 (each number used is a constant k0, k1, …):

# %%
below = [("t0", "div", ["x", "k0"]), ("t1", "mul", ["t0", "t0"])]
above = [("t0", "div", ["x", "k0"]), ("t1", "div", ["t0", "k1"]), ("t2", "mul", ["t1", "t1"])]
from exercises.draw import draw

draw(below, values={"x": 1.5, "k0": 2, "t0": 0.75, "t1": 0.5625}, title="x = 1.5: one halving")

# %%
from exercises.draw import draw

draw(above, values={"x": 2.5, "k0": 2, "t0": 1.25, "k1": 2, "t1": 0.625, "t2": 0.390625}, title="x = 2.5: two halvings")

# %% [markdown]
# Same program, two graphs of different shapes. On the first, L = (x/2)², whose slope is x/2; on the second, L = (x/4)², whose slope is x/8. The backward sweep on a trace returns the derivative of **the path that ran**.
#
# **Question 5.** Set `ENTRIES_BELOW` and `ENTRIES_ABOVE` to the number of entries in the trace at x = 1.5 and at x = 2.5.

# %% answer grade_id="trip_count_entries_solution"
# ENTRIES_BELOW, ENTRIES_ABOVE: whole numbers
### BEGIN SOLUTION
ENTRIES_BELOW = 2
ENTRIES_ABOVE = 3
### END SOLUTION

# %% tests grade_id="answer_trip_count_entries" points=1 judge="equals"
assert isinstance(ENTRIES_BELOW, int) and isinstance(ENTRIES_ABOVE, int), "both answers should be whole numbers (ints)"

# %% [markdown]
# ## Where the trip count changes
#
# At x = 2 exactly the first halving gives 1, which is not below 1, so the loop halves again: x = 2 runs the two-halving path, L = (2/4)² = 0.25. Just below 2 the program takes the other path, and L = (1.999/2)² is almost 1. So L **jumps** at x = 2.
#
# Compare two ways of measuring the slope there. The program below runs on plain numbers as well as on `Var`s (it reads `.value` when there is one), so central differences need no tape at all. Run it, then change the inputs to x0 = 2.0.

# %%
def halve_then_square(x):
    """Halve x until it is below 1, then square what is left. Runs on plain numbers and on Vars alike."""
    while getattr(x, "value", x) >= 1:
        x = x / 2
    return x * x


h = 1e-3
for x0 in (1.5, 2.5):
    central = (halve_then_square(x0 + h) - halve_then_square(x0 - h)) / (2 * h)
    print(f"x0 = {x0}: L = {halve_then_square(x0)}, central difference {central:.6f}")

# %% [markdown]
# Away from x = 2, the central difference agrees with the slope of the path: 0.75 at x = 1.5 and 0.3125 at x = 2.5. At x = 2 the two nudged runs, at 2.001 and at 1.999, take **different paths**.
#
# **Question 6.** At x0 = 2.0 with h = 0.001:
#
# - set `SWEEP_AT_2` to dL/dx as the backward sweep over the trace at x = 2 returns it (sweep the two-halving trace by hand, as in Lesson 2: each `div` by 2 has slope 1/2 along the edge from its first input);
# - set `CENTRAL_AT_2` to the central difference (L(2.001) − L(1.999)) / 0.002.

# %% answer grade_id="sweep_and_central_solution"
# SWEEP_AT_2, CENTRAL_AT_2: numbers
### BEGIN SOLUTION
SWEEP_AT_2 = 0.25
CENTRAL_AT_2 = -374.375
### END SOLUTION

# %% tests grade_id="answer_sweep_and_central" points=1 judge="equals" tolerance=0.001
assert isinstance(SWEEP_AT_2, (int, float)) and isinstance(CENTRAL_AT_2, (int, float)), "both answers should be numbers"

# %% [markdown]
# **Question 7.** At x = 2 the sweep says 0.25 and the central difference says about −374. Which is right?
#
# - **A.** The sweep is wrong: it ignores the path the program takes just below 2.
# - **B.** The central difference is wrong: its error shrinks like h², so such a large number means the program is broken.
# - **C.** Both are right about different things. The sweep gives the slope of the path that ran at x = 2, L = (x/4)², whose slope there is 2/8 = 0.25. The central difference compares two runs that took different paths, so it measures the jump in L between them, divided by 2h.
#
# Set `CHOICE_WHICH` to `"A"`, `"B"` or `"C"`.

# %% answer grade_id="executed_path_solution"
# CHOICE_WHICH: "A", "B" or "C"
### BEGIN SOLUTION
CHOICE_WHICH = "C"
### END SOLUTION

# %% tests grade_id="answer_executed_path" points=1 judge="choice" explain={"A": "The sweep only ever sees the trace of the run it is given. At x = 2 that run halved twice, and along that path its answer is exact.", "B": "The h² error bound holds for a smooth function. Across a jump there is no slope for it to approximate: the difference quotient grows like 1/h."}
assert CHOICE_WHICH in {"A", "B", "C"}, "CHOICE_WHICH should be one of the strings \"A\", \"B\" or \"C\""

# %% [markdown]
# Neither number is "the derivative of the program": the function the program computes has no derivative at x = 2, since it is not even continuous there. What a trace gives you is the derivative of the executed path, which is what training uses, and at a point where the path changes, that is all a trace can know.
#
# Optional, not graded: run the same experiment with your own `trace` (Lesson 3) and `backward` (Lesson 2). Copy their cells into this notebook above this one, or import them from the files you wrote them in (`from exercises.tape import trace` and `from exercises.graph import backward`), then run the next cell.

# %%
try:
    for x0 in (1.5, 1.999, 2.0, 2.5):
        graph, values, output = trace(halve_then_square, {"x": x0})
        print(f"x0 = {x0}: {len(graph)} entries, the sweep gives dL/dx = {backward(graph, values, output)['x']}")
except (NameError, NotImplementedError) as missing:
    print(f"Not run ({missing}): bring in your own trace and backward first, as the text above says.")

# %% [markdown]
# ## Two runs, two traces
#
# **Question 8.** You are handed the two traces above, at x = 1.5 and at x = 2.5, and nothing else. What in them shows that they came from the same program?
#
# - **A.** The leaf is called x in both.
# - **B.** Both end with a `mul` entry that reads one value twice.
# - **C.** Nothing. Each records the operations of one run; the program's text, its loop and its condition are not in them, and other programs could leave exactly the same traces.
#
# Set `CHOICE_SAME_SOURCE` to `"A"`, `"B"` or `"C"`.

# %% answer grade_id="same_source_solution"
# CHOICE_SAME_SOURCE: "A", "B" or "C"
### BEGIN SOLUTION
CHOICE_SAME_SOURCE = "C"
### END SOLUTION

# %% tests grade_id="answer_same_source" points=1 judge="choice" explain={"A": "Any program can call its leaf x; a name says nothing about the code that read it.", "B": "A program with no loop at all, y = x / 2 followed by y * y, records exactly the first trace."}
assert CHOICE_SAME_SOURCE in {"A", "B", "C"}, "CHOICE_SAME_SOURCE should be one of the strings \"A\", \"B\" or \"C\""

# %% [markdown]
# A computer that "remembers what it did" remembers one run, not the program. For the same reason a trace cannot catch a bug in the program: if the code computes something other than what its author meant, the trace faithfully records what the code did, and the sweep differentiates that, exactly.
#
# ## Key points
#
# - A sequential run's record is topological because every operation is recorded after its operands. Records with no total order (threads, workers, a parallel runtime) need the graph and an ordering pass.
# - Kahn's algorithm counts each node's unfinished inputs, starts from the nodes that read only leaves, and counts down along every edge: linear time, no recursion. A recursive depth-first post-order nests as deep as the longest chain and fails on deep graphs.
# - A trace cannot have a cycle, since an entry reads only what is already recorded; records from a buggy recorder can, and the ordering pass reports a node on the cycle.
# - A loop in the text is unrolled by the run. When a `while` loop's trip count changes with the input, the graph changes shape, and the derivative of the executed path jumps there: the sweep and central differences then disagree, each right about something different.
# - Two runs of the same text give two traces, and nothing in either says where it came from.
