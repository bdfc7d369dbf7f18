# %% lesson notebook="tape.ipynb"
# Lesson 3, the tape: the source of notebooks/source/lesson3_tape/tape.ipynb.
# `make notebooks` builds the notebook from this file and solutions/tape.py; never edit the notebook.
# Open this file as a notebook (jupytext, VS Code) to preview it. Each cell's settings sit on its
# `# %%` line; the format is described in autograder/course/lessons.py.
# The worked examples write their traces out by hand, so no working tape is given away.

# %% [markdown]
# # Lesson 3 · The tape: a program that records itself
#
# In Lessons 1 and 2 you wrote every graph by hand, as a list of `(name, op, inputs)`. Nobody trains a network that way. The program that computes the loss is ordinary Python, full of loops, function calls and `if`s, and the graph has to come out of *running* it.
#
# Lesson 2 called the record of one run its **trace**: each operation executed, in execution order, with the values it took in. Here the running program writes that trace itself, into a plain list called the **tape**: each operation adds one entry at the end, and no entry is edited once written. When the run is over, the tape is a graph in exactly the form of Lesson 1, so your `evaluate` and `backward` work on it unchanged.
#
# **How to work through this notebook:** as before, run the cells from top to bottom with <kbd>Shift</kbd>+<kbd>Enter</kbd>, replace each `raise NotImplementedError(...)` with your answer or code, run the check cell after it, and finish with *Kernel → Restart Kernel and Run All Cells…* before you submit.

# %% [markdown]
# ## How a program can record itself
#
# When Python meets `a * b`, it does not multiply anything itself. It asks the left operand: it calls `a.__mul__(b)`. If `a` is a number and `b` is an object of a class of ours, the number does not know how to multiply by it (its `__mul__` returns `NotImplemented`), so Python asks the right operand instead, calling its **reflected** method `b.__rmul__(a)`. Every operator has such a pair: `__add__`/`__radd__`, `__sub__`/`__rsub__`, `__truediv__`/`__rtruediv__`, and `-a` calls `a.__neg__()`.
#
# This is **operator overloading**, and it is all a tape needs. We wrap each value in an object whose operator methods do two things: compute the result, and append one entry saying which operation ran and what it read. The program's code does not change at all: `a * b + c` still reads `a * b + c`, but running it writes the graph.
#
# The class below does not record anything; it only reports which method Python calls. Run it and look at the order of the calls, and at which side is asked in `2 * x`.

# %%
class Loud:
    """A value that prints every operator method Python calls on it (nothing is recorded)."""

    def __init__(self, label):
        self.label = label

    def __mul__(self, other):
        print(f"{self.label}.__mul__({other!r})")
        return Loud(f"({self.label} * {other!r})")

    def __rmul__(self, other):
        print(f"{self.label}.__rmul__({other!r})")
        return Loud(f"({other!r} * {self.label})")

    def __add__(self, other):
        print(f"{self.label}.__add__({other!r})")
        return Loud(f"({self.label} + {other!r})")

    def __repr__(self):
        return self.label


x = Loud("x")
print("x * 3 + 1  ->", x * 3 + 1)
print("2 * x      ->", 2 * x)

# %% [markdown]
# In `2 * x` the method that runs belongs to `x`, but the 2 is still the **left** operand. A tape must record it that way round: for a product it makes no difference, but `2 - x` is not `x - 2`. A class without the reflected methods works for `x * 2` and fails for `2 * x` with a `TypeError`.

# %% [markdown]
# ## The tape we build
#
# Two classes share the work.
#
# - A **`Tape`** holds the record: `graph`, the list of entries in the order the operations ran, and `values`, a dict with the value of every name on the tape. `tape.leaf("x", 2)` puts a leaf on it and returns its `Var`.
# - A **`Var`** is one value on one tape. It has a `name` and a `value`, and its operators record: `a + b`, `a - b`, `a * b`, `a / b` (with another `Var`, or with a plain `int` or `float` on either side), `-a`, and the methods `a.sq()`, `a.tanh()` and `a.relu()`. The ops are the eight of Lessons 1 and 2.
#
# The rules of the record:
#
# - Every operation appends **exactly one** entry and returns a **new** `Var`.
# - The k-th entry of a tape is named `"t<k>"`: `t0`, `t1`, `t2`, …
# - Inputs are listed left operand first.
# - A number used as an operand becomes a new leaf `"k<j>"` holding it: `k0`, `k1`, … numbered per tape, **one per use**. So `2 * x` records `("t0", "mul", ["k0", "x"])`, and the tape's `values` gains `"k0": 2`.
# - A `Var` records on its own tape only: an operation on `Var`s of two different tapes raises `ValueError`.
#
# **Worked example: the diamond again.** Take x = 2 and run
#
# ```python
# a = x * x
# t = a + a
# L = t * t
# ```
#
# with x a leaf `Var`. Three operations run, so the tape gets three entries:
#
# ```python
# graph == [("t0", "mul", ["x", "x"]), ("t1", "add", ["t0", "t0"]), ("t2", "mul", ["t1", "t1"])]
# values == {"x": 2, "t0": 4, "t1": 8, "t2": 64}
# ```
#
# The Python names `a`, `t` and `L` appear nowhere on the tape: they are labels the program uses for its `Var`s, and one label can be given to a new `Var` at any time. The tape names entries by the order in which they ran.
#
# Here is that record drawn, with the values the run computed. (The cell writes the tape out by hand; once your `trace` works you will draw it from the run itself.)

# %%
from exercises.draw import draw

diamond_tape = [("t0", "mul", ["x", "x"]), ("t1", "add", ["t0", "t0"]), ("t2", "mul", ["t1", "t1"])]
draw(diamond_tape, values={"x": 2, "t0": 4, "t1": 8, "t2": 64})

# %% [markdown]
# ## A value used twice: one entry, two readers
#
# In `a + a` the program reads `a` twice, but `a` was computed once, so the tape holds it once: `("t1", "add", ["t0", "t0"])` is one entry with two edges from `t0`. That is **sharing**. A value read by several later operations has one entry and several readers; the record grows by one entry per operation that ran, however often each result is used.
#
# Write the same computation out as an **expression tree** instead, with no sharing, and every read needs its own copy of the subexpression. Take f(u) = u · u and apply it three times, f(f(f(w))):
#
# - **The tape** has 3 entries: `t0 = w·w`, `t1 = t0·t0`, `t2 = t1·t1`.
# - **The tree** copies the inner expression at each read: f(w) is a product of two copies of w, 3 nodes; f(f(w)) is a product of two copies of that, 1 + 3 + 3 = 7 nodes; and f(f(f(w))) is 1 + 7 + 7 = **15** nodes, with w written out 8 times.
#
# Each further f adds one entry to the tape and doubles the tree: after 20 applications the tape has 20 entries and the tree more than two million nodes. The cell below writes the tree out as text, so you can count it.

# %%
tree = "w"
for applications in range(1, 4):
    tree = f"({tree} * {tree})"
    print(f"{applications} application(s): {tree}")
print("leaves:", tree.count("w"), " products:", tree.count("*"), " tree nodes:", tree.count("w") + tree.count("*"))

# %% [markdown]
# The tree is not only wasteful to store. A backward sweep over it would redo the same slopes once per copy, where the sweep over the tape visits each edge once.
#
# There is a real choice hidden here, though. Sharing means a stored value has to be *kept* until the backward sweep reads it. Recomputing a shared value at each use, as the tree does, costs time but frees the memory in between. Trading the two against each other, storing some values and recomputing the rest, is called **checkpointing**, and it is how very deep models fit in memory.

# %% [markdown]
# Run the next cell: it defines the read-only `OPS` table of Lesson 1, which the tape uses to compute each value. Using the same table is what makes `evaluate` on a finished tape give back exactly the values the run recorded.

# %% reference grade_id="ops_table" module="tape" names=["math", "OPS"]

# %% [markdown]
# ## Your turn: `Tape` and `Var`
#
# Write the two classes in the cell below. They use each other (`leaf` returns a `Var`, and a `Var`'s operators record on its tape), so they share one cell. Keep the names and signatures; what is already written in `Var` (its `tape`, `name` and `value`) is yours to keep or change.
#
# **`Tape`**
#
# - `Tape()` starts with an empty `graph` list and an empty `values` dict.
# - `leaf(name, value)` adds `name` to `values` and returns a `Var` named `name`. A name already on this tape raises `ValueError`. A leaf is not an operation: the graph does not change.
# - `record(op, operands)` is a helper for the operators: given the op's name and its operands (`Var`s of this tape or numbers, left first), it turns each number into a new constant `k<j>`, computes the value with `OPS`, appends `("t<k>", op, inputs)` and returns the new `Var`. A `Var` of another tape raises `ValueError`. It is a suggestion: only the operators' results are checked, so organise it as you like.
#
# **`Var`**
#
# - `__add__`, `__sub__`, `__mul__` and `__truediv__`, and their reflected twins `__radd__`, `__rsub__`, `__rmul__` and `__rtruediv__` for a number on the left; `__neg__`; and the methods `sq`, `tanh` and `relu`.
# - Each records one entry on the `Var`'s tape, inputs left operand first, and returns the new `Var`.
#
# Leaf names of the form `t<k>` or `k<j>` are left undefined: no check uses them, so you need not guard against them.

# %% reference grade_id="tape_solution" module="tape" names=["Tape", "Var"]

# %% tests grade_id="tape_correct" grades="Tape"
tape = Tape()
assert tape.graph == [] and tape.values == {}, "a new tape has an empty graph and no values"
x = tape.leaf("x", 2)
assert (x.name, x.value) == ("x", 2), (x.name, x.value)
assert tape.values == {"x": 2} and tape.graph == [], "a leaf goes into values, not into the graph"
try:
    tape.leaf("x", 3)
except ValueError:
    pass
else:
    raise AssertionError("a second leaf named 'x' on the same tape should raise ValueError")

# %% [markdown]
# The next cell checks the operators on the diamond, on constants on either side, and on two tapes.

# %% tests grade_id="var_correct" grades="Var"
# The diamond: three entries, each reading one value twice.
tape = Tape()
x = tape.leaf("x", 2)
a = x * x
t = a + a
L = t * t
assert tape.graph == [("t0", "mul", ["x", "x"]), ("t1", "add", ["t0", "t0"]), ("t2", "mul", ["t1", "t1"])], tape.graph
assert tape.values == {"x": 2, "t0": 4, "t1": 8, "t2": 64}, tape.values
assert (L.name, L.value) == ("t2", 64), (L.name, L.value)

# Numbers become constants k0, k1, ..., one per use, and keep their side.
tape = Tape()
y = 2 * tape.leaf("y", 5) - 1
assert tape.graph == [("t0", "mul", ["k0", "y"]), ("t1", "sub", ["t0", "k1"])], tape.graph
assert tape.values == {"y": 5, "k0": 2, "t0": 10, "k1": 1, "t1": 9}, tape.values
tape = Tape()
z = 1 / (3 - tape.leaf("z", 1.0))
assert tape.graph == [("t0", "sub", ["k0", "z"]), ("t1", "div", ["k1", "t0"])], tape.graph
assert z.value == 0.5, z.value

# The unary ops.
tape = Tape()
u = tape.leaf("u", -0.5)
results = [-u, u.sq(), u.tanh(), u.relu()]
assert [entry[1] for entry in tape.graph] == ["neg", "sq", "tanh", "relu"], tape.graph
assert [r.value for r in results] == [0.5, 0.25, OPS["tanh"](-0.5), 0.0], [r.value for r in results]

# Two tapes do not mix.
try:
    Tape().leaf("p", 1.0) + Tape().leaf("q", 2.0)
except ValueError:
    pass
else:
    raise AssertionError("an operation on Vars of two different tapes should raise ValueError")

# %% [markdown]
# ## Your turn: `trace(fn, leaves)`
#
# `trace` runs a function once and returns its record.
#
# - Make a **fresh** `Tape`, put one leaf on it per entry of the dict `leaves`, and call `fn` with those `Var`s as **keyword arguments**: for `leaves = {"x": 2}` that is `fn(x=<the Var x>)`.
# - Return `(graph, values, output)`: the tape's graph, its values, and the **name** of the `Var` that `fn` returned.
# - If `fn` returns anything that is not a `Var` of that tape (a plain number, or a `Var` left over from another tape), raise `ValueError`.
# - Two calls share nothing, and `leaves` is not modified.
#
# The result is a trace in the form of Lessons 1 and 2: `evaluate(graph, leaves_and_constants)` gives back `values`, and `backward(graph, values, output)` runs on it.

# %% reference grade_id="trace_solution" module="tape" names=["trace"]

# %% tests grade_id="trace_correct" grades="trace"
def diamond(x):
    a = x * x
    t = a + a
    return t * t


graph, values, output = trace(diamond, {"x": 2})
assert graph == [("t0", "mul", ["x", "x"]), ("t1", "add", ["t0", "t0"]), ("t2", "mul", ["t1", "t1"])], graph
assert values == {"x": 2, "t0": 4, "t1": 8, "t2": 64}, values
assert output == "t2", output

# A fresh tape per call: the second trace starts again at t0 and knows nothing of x.
graph2, values2, output2 = trace(lambda a, b: a * b + 1, {"a": 3, "b": 4})
assert graph2 == [("t0", "mul", ["a", "b"]), ("t1", "add", ["t0", "k0"])], graph2
assert values2 == {"a": 3, "b": 4, "t0": 12, "k0": 1, "t1": 13}, values2

try:
    trace(lambda x: 42, {"x": 1})
except ValueError:
    pass
else:
    raise AssertionError("a function that returns a number, not a Var, should make trace raise ValueError")

# %% [markdown]
# Once `trace` works, draw what a run records. The cell below traces L = (a·b + c)² from Lessons 1 and 2; change the function or the leaves and run it again.

# %%
def square_of_z(a, b, c):
    return (a * b + c).sq()


graph, values, output = trace(square_of_z, {"a": 2, "b": 3, "c": 1})
print(graph)
from exercises.draw import draw

draw(graph, values)

# %% [markdown]
# **Question 1.** Trace `lambda x: 3 - x * 2`. Python computes `x * 2` first, then subtracts it from 3. Set `INPUTS_T1` to the inputs list of the entry `t1`, as the tape records it.

# %% answer grade_id="inputs_of_t1_solution"
# INPUTS_T1: a list of names, for example ["a", "b"]
### BEGIN SOLUTION
INPUTS_T1 = ["k1", "t0"]
### END SOLUTION

# %% tests grade_id="answer_inputs_of_t1" points=1 judge="equals" explain={"['t0', 'k1']": "In 3 - (x * 2) the 3 is the left operand, and the tape lists inputs left operand first, even when Python called the right operand's reflected method.", "['k0', 't0']": "Constants are numbered in the order they are used, and x * 2 runs before the subtraction, so the 2 is k0 and the 3 comes after it."}
assert isinstance(INPUTS_T1, list) and all(isinstance(name, str) for name in INPUTS_T1), "INPUTS_T1 should be a list of names"

# %% [markdown]
# ## A loop is unrolled
#
# A program is more than a straight line of operations. Take
#
# ```python
# def poly(x):
#     y = x
#     for _ in range(3):
#         y = y * x + 1
#     return y
# ```
#
# The loop body is written once, yet the tape never hears of the loop: it only sees operations as they execute. Each pass multiplies and adds, so each pass appends two new entries, and the `y` of the next pass is a new `Var` reading the entries of the pass before. The run **unrolls** the loop into a chain. The loop lives in the source code, not in the record: every entry reads values computed before it, so however many times a body repeats, the graph it leaves has no cycle.
#
# **Question 2.** Set `ENTRIES_POLY` to the number of entries on the tape of `trace(poly, {"x": 2.0})`, and `CONSTANTS_POLY` to the number of constants (`k<j>` names) in its values. Try it with your `trace` afterwards.

# %% answer grade_id="loop_unrolled_solution"
# ENTRIES_POLY, CONSTANTS_POLY: whole numbers
### BEGIN SOLUTION
ENTRIES_POLY = 6
CONSTANTS_POLY = 3
### END SOLUTION

# %% tests grade_id="answer_loop_unrolled" points=1 judge="equals" explain={"1": "One pass of the loop body records two entries and uses one constant. The run goes through the body three times, and every pass records anew: a number used again is a new constant.", "2": "One pass of the loop body records two entries and uses one constant. The run goes through the body three times, and every pass records anew: a number used again is a new constant."}
assert isinstance(ENTRIES_POLY, int) and isinstance(CONSTANTS_POLY, int), "both answers should be whole numbers (ints)"

# %% [markdown]
# ## A branch: each run records its own path
#
# A Python `if` can look at a value while the program runs. Take
#
# ```python
# def bump(x):
#     if x.value > 0:
#         return x.sq()
#     return -x
# ```
#
# **Question 3.** Which is true of `trace(bump, {"x": 2})` and `trace(bump, {"x": -2})`?
#
# - **A.** Both traces hold both branches, a `sq` entry and a `neg` entry, and the sweep later picks the one that applies.
# - **B.** Each trace holds only the branch that ran: one `sq` entry at x = 2, one `neg` entry at x = −2. The two runs give two different graphs.
# - **C.** Tracing fails: a tape can record arithmetic, but not an `if`.
#
# Set `CHOICE_BRANCH` to `"A"`, `"B"` or `"C"`.

# %% answer grade_id="branch_solution"
# CHOICE_BRANCH: "A", "B" or "C"
### BEGIN SOLUTION
CHOICE_BRANCH = "B"
### END SOLUTION

# %% tests grade_id="answer_branch" points=1 judge="choice" explain={"A": "The tape records only operations that ran. The branch not taken never ran, so nothing of it is on the tape.", "C": "The if runs as ordinary Python, outside the tape: it reads x.value and decides. The tape simply records whichever operations follow."}
assert CHOICE_BRANCH in {"A", "B", "C"}, "CHOICE_BRANCH should be one of the strings \"A\", \"B\" or \"C\""

# %% [markdown]
# A trace describes one run at one input, not the program as a whole. Two inputs that take different branches give graphs of different shapes, and each graph is right about its own run. Lesson 4 looks at what that means for derivatives.
#
# ## The tape is already in order
#
# In Lesson 2 the backward sweep needed the graph in an order where every node comes after the nodes it reads, and it walked that order in reverse.
#
# **Question 4.** Why can the sweep use the tape's order as it is, with no sorting step?
#
# - **A.** Because the names t0, t1, t2, … are in alphabetical order.
# - **B.** Because an operation can only run once its operands exist, so every entry is appended after the entries it reads.
# - **C.** Because Python evaluates the left operand first, so the tape lists the left input before the right one.
#
# Set `CHOICE_ORDER` to `"A"`, `"B"` or `"C"`.

# %% answer grade_id="recorded_order_solution"
# CHOICE_ORDER: "A", "B" or "C"
### BEGIN SOLUTION
CHOICE_ORDER = "B"
### END SOLUTION

# %% tests grade_id="answer_recorded_order" points=1 judge="choice" explain={"A": "Alphabetically \"t10\" comes before \"t2\", and nothing sorts the tape anyway. The order is valid because of when each entry is appended, not because of its name.", "C": "That fixes the order of the inputs inside one entry. The question is about the order of the entries, and whether each comes after the ones it reads."}
assert CHOICE_ORDER in {"A", "B", "C"}, "CHOICE_ORDER should be one of the strings \"A\", \"B\" or \"C\""

# %% [markdown]
# The reason holds for any program that runs one operation at a time: a value is recorded only after the values it was computed from, so every edge points back in time, and the recorded order is a valid order for the forward pass and, reversed, for the sweep. A list is enough. Lesson 4 is about records for which this is no longer true.

# %% [markdown]
# ## Your turn: `tree_size(graph, output)`
#
# Count what sharing saves. `tree_size` returns the number of nodes of the expression tree that writes `output` out with no sharing.
#
# - A leaf or a constant counts 1 (also when `output` itself is a leaf).
# - A node counts 1, plus the tree size of each of its inputs, **once per read**: `mul x x` writes x out twice, so it counts 1 + 1 + 1 = 3.
# - The result is exact: a chain of 1,000 products u · u has 2¹⁰⁰¹ − 1 tree nodes, a number with 302 digits. Python's `int` holds it exactly; a `float` would round it.
# - Go through the graph **once**, in its order, with no recursion: a chain 10,000 entries deep must work.
#
# Only the nodes `output` depends on count; nodes listed after it do not.

# %% reference grade_id="tree_size_solution" module="tape" names=["tree_size"]

# %% tests grade_id="tree_size_correct" grades="tree_size"
f3 = [("t0", "mul", ["w", "w"]), ("t1", "mul", ["t0", "t0"]), ("t2", "mul", ["t1", "t1"])]
assert tree_size(f3, "t2") == 15, tree_size(f3, "t2")
assert tree_size(f3, "t0") == 3, tree_size(f3, "t0")
assert tree_size(f3, "w") == 1, "a leaf counts 1"

# L = (a*b + a)**2: p is 3 nodes, q = p + a is 5, and L = sq(q) reads q once: 6.
g_aba = [("p", "mul", ["a", "b"]), ("q", "add", ["p", "a"]), ("L", "sq", ["q"])]
assert tree_size(g_aba, "L") == 6, tree_size(g_aba, "L")

# Exact big integers: 1,000 products u*u in a chain.
chain = [("t0", "mul", ["w", "w"])] + [(f"t{k}", "mul", [f"t{k - 1}", f"t{k - 1}"]) for k in range(1, 1000)]
assert tree_size(chain, "t999") == 2 ** 1001 - 1, "the count should be an exact int"

# %% [markdown]
# **Question 5.** Now take f(u) = u · u + u and trace f(f(w)). Set `TAPE_ENTRIES` to the number of entries on its tape and `TREE_NODES` to its tree size. Work both out by hand first, then check them with `trace` and `tree_size`.

# %% answer grade_id="tape_against_tree_solution"
# TAPE_ENTRIES, TREE_NODES: whole numbers
### BEGIN SOLUTION
TAPE_ENTRIES = 4
TREE_NODES = 17
### END SOLUTION

# %% tests grade_id="answer_tape_against_tree" points=1 judge="equals" explain={"5": "5 counts each value once (w and four entries): that is the record with sharing, not the tree, which writes the inner f(w) out again at every place it is read.", "2": "f runs twice, but each f performs two operations, a product and a sum, and the tape has one entry per operation."}
assert isinstance(TAPE_ENTRIES, int) and isinstance(TREE_NODES, int), "both answers should be whole numbers (ints)"

# %% [markdown]
# ## Key points
#
# - A trace is the record of one run: the operations that ran, in order, with what they read. A tape records it by appending one entry per operation while the program runs.
# - Operator overloading makes ordinary code record itself: Python calls a `Var`'s methods for every operator, and the reflected ones (`__rmul__`, …) when a number is on the left.
# - A value used twice is one entry with two readers. Sharing keeps the tape proportional to the operations that ran; a tree would copy every shared subexpression and can grow exponentially, as 3 entries against 15 nodes for f(f(f(w))) shows.
# - Loops are unrolled by the run, so the graph never has a cycle; a branch records only the side that ran, so different inputs can give different graphs.
# - Because every entry is appended after the entries it reads, the recorded order is already one in which every node follows its inputs: a sequential program needs no sorting before the sweep.
