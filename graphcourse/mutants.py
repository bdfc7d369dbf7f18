"""What `make mutants` must know of the graph course's reference (solutions/graph.py): the tables it mutates too,
and the survivors already explained (autograder/tools/mutants.py)."""

TABLES = ("OPS",)  # module-level tables whose entries are mutated too

# Survivors that no input the contract allows can tell apart from the reference, keyed by Mutant.key.
EQUIVALENT = {
    "OPS['relu']: a > 0 -> a >= 0": (
        "the two differ only at a == 0, where the reference gives 0.0 and the mutant gives a itself, "
        "which is 0 or 0.0 or -0.0: all equal to 0.0 as numbers, and the contract asks for numbers, not "
        "their type or sign. (The same flip in backward's relu slope is NOT equivalent: the slope at 0 is "
        "1.0 instead of 0.0, and local_slopes/relu kills it.)"
    ),
}

# Survivors that differ from the reference on an input the contract allows, but that no check can
# judge yet, keyed by Mutant.key: what is missing, and the check that would kill them.
ONE_AND_STEP = (
    "no check of lessons 1 and 2 reads one or step: lesson 6's gradient graphs use them, checked "
    "through its own module (solutions/symbolic.py)"
)
GAPS = {
    "OPS['one']: 1.0 -> 0.0": ONE_AND_STEP,
    "OPS['step']: 1.0 if a > 0 else 0.0 -> 0.0 if a > 0 else 1.0": ONE_AND_STEP,
    "OPS['step']: 1.0 -> 0.0": ONE_AND_STEP,
    "OPS['step']: a > 0 -> a >= 0": ONE_AND_STEP,
    "OPS['step']: a > 0 -> a <= 0": ONE_AND_STEP,
    "OPS['step']: 0 -> 1": ONE_AND_STEP,
    "OPS['step']: 0.0 -> 1.0": ONE_AND_STEP,
    "backward slopes['step']: 0.0 -> 1.0": ONE_AND_STEP,
}
