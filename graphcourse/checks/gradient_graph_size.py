"""graph2 stays linear: at most 8 new nodes per edge of the graph, plus 3, even where a name is read a hundred times."""

from autograder.grading.compare import Failure, no_answer
from graphcourse.checks import Check
from graphcourse.checks.gradient_graph_first import derivatives_failure, output_of, read_answer, symbolic_call

RULE = "gradient_graph appends at most 8 new nodes per edge of graph (an edge: one input of one node), plus 3."
READERS = 100


def judge_size(check, case, reply):
    """The bound, and the derivative of the output's first input right (so that no answer that ignores the graph
    passes); the other derivatives are the value families' business."""
    failure = no_answer(case, reply)
    if failure:
        return failure
    graph, output = case.args[0], case.args[1]
    graph2, grads, failure = read_answer(case, reply.get("value"), graph)
    if failure:
        return failure
    edges = sum(len(inputs) for _name, _op, inputs in graph)
    new = len(graph2) - len(graph)
    if new > 8 * edges + 3:
        return Failure(
            case,
            f"graph2 has {new:,} new nodes for the {edges:,} edges of graph: more than 8 per edge "
            f"plus 3 ({8 * edges + 3:,}); does a name's gradient get rebuilt each time a contribution "
            "arrives?",
        )
    out = output_of(graph, output)
    anchor = next(inputs[0] for name, _op, inputs in graph if name == out)
    return derivatives_failure(case, graph, output, graph2, grads, [anchor])


def fan_out():
    """x read by READERS negations, summed in a chain, the sum negated."""
    graph = [(f"h{k}", "neg", ["x"]) for k in range(READERS)]
    graph.append(("s1", "add", ["h0", "h1"]))
    graph += [(f"s{k}", "add", [f"s{k - 1}", f"h{k}"]) for k in range(2, READERS)]
    return graph + [("L", "neg", [f"s{READERS - 1}"])]


CHECKS = [
    Check(
        "gradient_graph_size/fan_out",
        "gradient_graph",
        2,
        RULE,
        "gradient_graph_size",
        cases=(
            symbolic_call(
                fan_out(), label=f"{READERS} negations of x, summed, the sum negated: x read {READERS} times"
            ),
            symbolic_call(
                [("q", "div", ["x", "y"]), ("r", "div", ["q", "y"]), ("L", "div", ["r", "x"])],
                label="q = x/y, r = q/y, L = r/x: div's slopes, the most nodes per edge",
            ),
        ),
    ),
]

JUDGES = {"gradient_graph_size": judge_size}
