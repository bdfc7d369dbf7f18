"""Lesson 3's public programs: short Python functions of Vars, run on the learner's Tape, Var and trace.

Each driver returns plain values (lists, dicts, names and numbers) copied out of what the learner's
classes hold, and lets any exception of theirs propagate: the sandbox child reports it as raised.
The grader runs the same drivers on the reference (judges.driven_answer) to know what to expect.
A driver's reply may hold little more than its call's own names (autograder/sandbox/reply_bounds.py),
so the deep trace is sent as a summary.
"""


def tape_every_binary_op(x, y):
    x + y
    x - y
    x * y
    return y / x


def tape_every_unary_op(x, y):
    _ = -x
    x.sq()
    y.tanh()
    return x.relu()


def tape_three_leaves(a, b, c):
    a * b
    b - c
    return c / a


def tape_f_of_f_of_f(w):  # f(u) = u * u, three times: three entries, each reading the one before twice
    u = w * w
    u = u * u
    return u * u


def tape_shared_sum(x, y):  # u is read by v twice and by the output once
    u = x + y
    v = u + u
    return v + u


def tape_in_run_order(x, y, z):
    y.tanh()
    x * z
    z - y
    return -x


def tape_added_numbers(x, y):  # a number on either side, one constant per use
    x + 0.5
    2 + y
    return 3 + x


def tape_subtracted_numbers(x):
    x - 1
    return 4 - x


def tape_multiplied_numbers(x):
    2 * x
    return x * 2


def tape_divided_numbers(x):
    1 / x
    return x / 4


def tape_diamond(x):
    a = x * x
    t = a + a
    return t * t


def tape_plus_one(y):
    return y + 1


def tape_absolute(x):  # a branch on a value: each side of 0 records its own trace
    if x.value >= 0:
        return x * 1
    return -x


def tape_lesson_one(*, c, a, b):  # L = (a*b + c)**2, its leaves asked for by name, in another order
    p = a * b
    z = p + c
    return z.sq()


def tape_quotient(b, a):
    return (b - a) / (a * 2 + 1)


def tape_smooth(x, y):
    t = (x * y).tanh()
    return t * x - 3 / y + (x + 1).relu()


def tape_returns_earlier(x):  # returns a Var that is not the last entry
    y = x * x
    y + 1
    return y


def tape_returns_leaf(x, y):
    x * y
    return y


def tape_returns_number(x):
    x * 2
    return 3.0


def tape_negations(x):  # 10,000 operations in a chain
    for _ in range(9_999):
        x = -x
    return x * 2


TAPE_PROGRAMS = {
    name[len("tape_") :]: fn for name, fn in dict(globals()).items() if name.startswith("tape_") and callable(fn)
}


def _tape_graph(graph):
    return [[name, op, list(inputs)] for name, op, inputs in list(graph)]


def tape_run(module, program, leaves):
    """A program run on a Tape of the learner's: [its graph, its values, the result's name, the result's value]."""
    tape = module.Tape()
    variables = {name: tape.leaf(name, value) for name, value in leaves.items()}
    out = TAPE_PROGRAMS[program](**variables)
    return [_tape_graph(tape.graph), dict(tape.values), out.name, out.value]


def tape_mixed(module, same_tape):
    """x + y with x and y on one tape (its graph), or on two tapes (which should raise ValueError)."""
    first = module.Tape()
    second = first if same_tape else module.Tape()
    first.leaf("x", 1.0) + second.leaf("y", 2.0)
    return _tape_graph(first.graph)


def tape_operator_across(module, method):
    """One operator of Var (``method``, e.g. "__rsub__") between x of one tape and y of another; both tapes hold a
    leaf named y, so an operator that looks the other Var up by name on its own tape finds a value there. It should
    raise ValueError; the first tape's graph is returned if it does not."""
    first, second = module.Tape(), module.Tape()
    x = first.leaf("x", 4.0)
    first.leaf("y", 6.0)
    y = second.leaf("y", 2.5)
    if not hasattr(
        x, method
    ):  # no reflected form: Python calls y's own operator instead, which a case of its own tries
        raise ValueError(f"Var has no {method}, so {method} never meets a Var of another tape")
    getattr(x, method)(y)
    return _tape_graph(first.graph)


def tape_leaves(module, pairs):
    """A new tape's graph and values, then each leaf's [name, value] and the tape's graph and values after them."""
    tape = module.Tape()
    start = [_tape_graph(tape.graph), dict(tape.values)]
    made = [tape.leaf(name, value) for name, value in pairs]
    return [start, [[v.name, v.value] for v in made], _tape_graph(tape.graph), dict(tape.values)]


def tape_two_tapes(module, first, second):
    """Two tapes given leaves in turn: each one's values."""
    tapes = module.Tape(), module.Tape()
    for (name, value), (other, number) in zip(first, second):
        tapes[0].leaf(name, value)
        tapes[1].leaf(other, number)
    return [dict(tape.values) for tape in tapes]


def tape_trace(module, program, leaves):
    """trace(program, leaves): [graph, values, output]."""
    graph, values, output = module.trace(TAPE_PROGRAMS[program], leaves)
    return [_tape_graph(graph), dict(values), output]


def tape_trace_foreign(module, leaves):
    """trace of a function that returns a Var of another tape (which should raise ValueError)."""
    elsewhere = module.Tape().leaf("elsewhere", 1.0)
    return tape_trace_result(module.trace(lambda **_leaves: elsewhere, leaves))


def tape_trace_result(result):
    graph, values, output = result
    return [_tape_graph(graph), dict(values), output]


def tape_trace_twice(module, first, first_leaves, second, second_leaves):
    """Two traces: the first as it came back, the second, then the first's graph and values read again."""
    one = module.trace(TAPE_PROGRAMS[first], first_leaves)
    seen = tape_trace_result(one)
    two = tape_trace_result(module.trace(TAPE_PROGRAMS[second], second_leaves))
    return [seen, two, tape_trace_result(one)]


def tape_trace_summary(module, program, leaves):
    """trace(program, leaves) in brief: [entries, the first, the last, output, its value, names with a value]."""
    graph, values, output = module.trace(TAPE_PROGRAMS[program], leaves)
    graph, values = _tape_graph(graph), dict(values)
    return [
        len(graph),
        graph[0] if graph else None,
        graph[-1] if graph else None,
        output,
        values.get(output),
        len(values),
    ]


DRIVERS = {
    **globals().get("DRIVERS", {}),
    **{
        fn.__name__: fn
        for fn in (
            tape_run,
            tape_mixed,
            tape_operator_across,
            tape_leaves,
            tape_two_tapes,
            tape_trace,
            tape_trace_foreign,
            tape_trace_twice,
            tape_trace_summary,
        )
    },
}
