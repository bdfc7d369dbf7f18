"""Keeps every contribution a name receives and adds them all up again at each new one: a name read k times costs k*k/2 add nodes."""

FUNCTION = "gradient_graph"
FAILS = ["gradient_graph_size"]
PATCH = [
    (
        'one = node("one")',
        'one = node("one")\n'
        "    terms_of = {}  # name -> every contribution so far",
    ),
    (
        'grad[read] = node("add", grad[read], term) if read in grad else term',
        "terms_of.setdefault(read, []).append(term)\n"
        "            total = terms_of[read][0]\n"
        "            for more in terms_of[read][1:]:  # the sum of them all, built again\n"
        '                total = node("add", total, more)\n'
        "            grad[read] = total",
    ),
]
