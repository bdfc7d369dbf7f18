"""Makes each contribution a name's gradient node in place of the one before, instead of adding them."""

FUNCTION = "gradient_graph"
FAILS = ["gradient_graph_first", "gradient_graph_fan_out", "gradient_graph_second"]
PATCH = [('node("add", grad[read], term) if read in grad else term', "term  # the latest contribution")]
