"""Writes each factor's slope as a node reading that factor itself: mul(g, a) along a's edge, not the other factor."""

FUNCTION = "gradient_graph"
FAILS = ["gradient_graph_first", "gradient_graph_second"]
PATCH = [('inputs[1]), node("mul", g, inputs[0])]', 'inputs[0]), node("mul", g, inputs[1])]')]
