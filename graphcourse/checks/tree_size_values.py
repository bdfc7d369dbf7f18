"""tree_size counts the nodes of the expression tree with no sharing: every read copies its input's tree, exactly as an
int."""

from autograder.grading import properties
from graphcourse.checks import Check, call

RULE = (
    "tree_size(graph, output) is the number of nodes of the tree that writes output out with no sharing: a leaf or "
    "constant counts 1, a node 1 plus the tree size of each input, once per read; an exact int, however large."
)
F3 = [("t0", "mul", ["w", "w"]), ("t1", "mul", ["t0", "t0"]), ("t2", "mul", ["t1", "t1"])]
ABA = [("p", "mul", ["a", "b"]), ("q", "add", ["p", "a"]), ("L", "sq", ["q"])]
LATE = [("u", "neg", ["x"]), ("v", "mul", ["u", "u"]), ("late", "add", ["v", "v"])]
# Sizes past 2**53, where a float can no longer count one by one; 100 levels deep, so recursion is not the issue.
PRODUCTS = [("t0", "mul", ["w", "w"])] + [(f"t{k}", "mul", [f"t{k - 1}", f"t{k - 1}"]) for k in range(1, 100)]
FIBONACCI = [("f0", "add", ["x", "y"]), ("f1", "add", ["f0", "x"])] + [
    (f"f{k}", "add", [f"f{k - 1}", f"f{k - 2}"]) for k in range(2, 120)
]


def judge_size(check, case, reply):
    from graphcourse.judges import reference_answer  # here, not at import: judges.py imports the families

    return properties.equal(case, reply, reference_answer(case))


CHECKS = [
    Check(
        "tree_size_values/small",
        "tree_size",
        3,
        RULE,
        "tree_size",
        cases=(
            call("tree_size", F3, "t2", label="f(f(f(w))) with f(u) = u*u, output t2"),
            call("tree_size", ABA, "L", label="L = (a*b + a)**2"),
            call("tree_size", LATE, "v", label="v = u*u, with a node after it"),
            call("tree_size", F3, "w", label="the leaf w"),
        ),
    ),
    Check(
        "tree_size_values/big",
        "tree_size",
        2,
        RULE,
        "tree_size",
        cases=(
            call("tree_size", PRODUCTS, "t99", label="100 products u*u in a chain: 2**101 - 1 nodes"),
            call("tree_size", FIBONACCI, "f119", label="120 sums, each reading the two before it"),
        ),
    ),
]

JUDGES = {"tree_size": judge_size}
