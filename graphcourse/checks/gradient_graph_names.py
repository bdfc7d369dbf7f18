"""gradient_graph's grads names every name the graph reads or produces: L's node holds 1.0, and what L does not depend
on gets a node of value 0.0."""

from autograder.grading.compare import Failure, no_answer, short
from graphcourse.checks import Check
from graphcourse.checks.gradient_graph_first import (
    derivatives_failure,
    is_close,
    names_of,
    output_of,
    points,
    reached,
    read_answer,
    symbolic_call,
    values_at,
)

RULE = (
    "grads maps exactly the names the graph reads or produces: L (output, default the last node) to a node of value "
    "1.0, every name L does not depend on to a node of value 0.0, and every other name to its derivative's node."
)


def judge_names(check, case, reply):
    failure = no_answer(case, reply)
    if failure:
        return failure
    graph, output = case.args[0], case.args[1]
    graph2, grads, failure = read_answer(case, reply.get("value"), graph)
    if failure:
        return failure
    names = names_of(graph)
    missing = [name for name in names if name not in grads]
    if missing:
        return Failure(
            case,
            f"grads has no entry for {missing[0]!r}: every name the graph reads or produces gets one "
            "(L's node holds 1.0, and a name L does not depend on gets a node of value 0.0)",
        )
    extra = [name for name in grads if name not in names]
    if extra:
        return Failure(case, f"grads has an entry for {short(extra[0])}, which the graph neither reads nor produces")
    out = output_of(graph, output)
    depends = reached(graph, out)
    for point in points(graph, output):
        values, failure = values_at(case, graph2, len(graph), point)
        if failure:
            return failure
        if not is_close(values[grads[out]], 1.0):
            return Failure(
                case,
                f"grads gives L = {out!r} the node {grads[out]!r}, which holds "
                f"{short(values[grads[out]])} at {short(point)}: dL/dL is 1.0",
            )
        wrong = next((name for name in names if name not in depends and not is_close(values[grads[name]], 0.0)), None)
        if wrong is not None:
            return Failure(
                case,
                f"L = {out!r} does not depend on {wrong!r}, so its node should hold 0.0, but "
                f"{grads[wrong]!r} holds {short(values[grads[wrong]])} at {short(point)}",
            )
    judged = [name for name in names if name in depends and name != out]
    return derivatives_failure(case, graph, output, graph2, grads, judged)


# Sums, differences and negations only, no name read twice: the slopes of other ops and fan-out are other families'.
CHECKS = [
    Check(
        "gradient_graph_names/every_name",
        "gradient_graph",
        2,
        RULE,
        "gradient_graph_names",
        cases=(
            symbolic_call(
                [("p", "neg", ["a"]), ("q", "add", ["p", "b"]), ("z", "sub", ["q", "c"])],
                label="p = -a, q = p + b, z = q - c, output='q': c and z do not count",
                output="q",
            ),
            symbolic_call(
                [("u", "neg", ["x"]), ("dead", "add", ["u", "y"]), ("L", "sub", ["u", "w"])],
                label="u = -x, dead = u + y, L = u - w: dead and y do not count",
            ),
        ),
    ),
]

JUDGES = {"gradient_graph_names": judge_names}
