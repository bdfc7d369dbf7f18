"""Writes tanh's slope as 1 - a**2 from the node's input, as if tanh's slope were 1 - u**2: it is 1 - out**2."""

FUNCTION = "gradient_graph"
FAILS = ["gradient_graph_first"]
PATCH = [("name)))]", "inputs[0])))]")]
