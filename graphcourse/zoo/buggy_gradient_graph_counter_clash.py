"""Names the new nodes d0, d1, ... without looking at the graph's names: a graph with a leaf d0 gets d0 twice."""

FUNCTION = "gradient_graph"
FAILS = ["gradient_graph_fresh"]
ALSO = {"gradient_graph_second": "differentiating graph2 again meets the names d0, d1, ... that the first call made, "
                                  "and the counter hands them out again"}
PATCH = [
    (
        "while fresh in names:\n"
        "            fresh = next(candidates)\n"
        "        graph2.append((fresh, op, list(inputs)))",
        "graph2.append((fresh, op, list(inputs)))",
    ),
]
