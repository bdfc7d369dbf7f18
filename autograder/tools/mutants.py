"""Mutation testing of the hidden checks: small changes to the reference that the checks must catch.

    python -m autograder.tools.mutants             # grade every mutant, two at a time; list the survivors
    python -m autograder.tools.mutants --list      # only list the mutants, grade nothing
    python -m autograder.tools.mutants --verbose   # also say which checks killed each mutant

A mutant is the full text of solutions/graph.py with one small change, made
only inside a solution region (between ``### BEGIN SOLUTION`` and
``### END SOLUTION``) or inside the entries of the OPS table: an arithmetic
operator swapped, a comparison flipped, a constant changed, a call such as
``reversed(x)`` replaced by ``x``, ``+=`` turned into ``=``, a return value or a
whole statement dropped, ValueError swapped for KeyError, the two slopes of an
op swapped, ``graph[-1]`` turned into ``graph[0]``, and so on (see OPERATORS).

Every mutant is graded on every hidden check, the slow deep_graph and
linear_time families included. It is killed when it scores below full marks.
A mutant that survives is either equivalent (no input the contract allows
tells it apart from the reference), listed in EQUIVALENT with the reason, or a
known gap, listed in GAPS with the check that would kill it. The run exits
with status 1 when a survivor is in neither table, or when the reference
itself does not earn full marks. A passing run over every mutant writes what it printed
into docs/mutation.md (its "mutants" block).
"""

import argparse
import ast
import copy
import re
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from multiprocessing import get_context

from autograder.course.markers import region_spans
from autograder.course import active
from autograder.course.lessons import module_of
from autograder.course.paths import REFERENCE, ROOT
from autograder.tools import marked

TABLES = ("OPS",)  # module-level tables whose entries are mutated too
JOBS = 2
PAGE = ROOT / "docs" / "mutation.md"  # its "mutants" block holds the last passing full run's report

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
ONE_AND_STEP = ("no check of lessons 1 and 2 reads one or step: lesson 6's gradient graphs use them, checked "
                "through its own module (solutions/symbolic.py)")
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


@dataclass(frozen=True)
class Mutant:
    key: str  # "where: before -> after", with " #2", " #3" for repeats: stable while the reference keeps its shape
    where: str  # "evaluate", "OPS['relu']", "backward slopes['div']"
    line: int  # the first line of the reference the change touches
    kind: str  # the operator that made it, a key of OPERATORS
    before: str  # the reference's text that was replaced
    after: str  # what replaced it
    source: str  # the whole mutated module


# ---------------------------------------------------------------- where mutants may go


def solution_lines(text):
    """[(first, last)] line numbers strictly between each BEGIN/END SOLUTION marker pair."""
    return [(begin + 1, end - 1) for begin, end in region_spans(text)]


def table_lines(tree):
    """[(first, last)] line numbers of each module-level table in TABLES."""
    found = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in TABLES for t in node.targets):
            found.append((node.lineno, node.end_lineno))
    return found


def allowed_lines(text):
    """The set of reference line numbers a mutant may change."""
    tree = ast.parse(text)
    return {n for first, last in solution_lines(text) + table_lines(tree) for n in range(first, last + 1)}


# ---------------------------------------------------------------- mutation operators
# Each operator takes an AST node and yields replacement nodes (or the text "pass" for a statement).

ARITHMETIC = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}
BOUNDARY = {ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Lt: ast.LtE, ast.LtE: ast.Lt}
NEGATION = {
    ast.Gt: ast.LtE, ast.GtE: ast.Lt, ast.Lt: ast.GtE, ast.LtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
FLOATS = {0.0: 1.0, 1.0: 0.0, 2.0: 1.0}
UNWRAPPED = {"reversed", "list", "dict", "sorted", "tuple", "set", "float", "abs"}
SWAPPED_ERRORS = {"ValueError": "KeyError"}


def with_fields(node, **fields):
    clone = copy.deepcopy(node)
    for name, value in fields.items():
        setattr(clone, name, value)
    return clone


def arithmetic(node, parents):
    """a + b <-> a - b, a * b <-> a / b, and += <-> -=."""
    if isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in ARITHMETIC:
        yield with_fields(node, op=ARITHMETIC[type(node.op)]())


def operands(node, parents):
    """a - b -> b - a and a / b -> b / a (the operators whose order matters)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Sub, ast.Div)):
        yield with_fields(node, left=copy.deepcopy(node.right), right=copy.deepcopy(node.left))


def comparison(node, parents):
    """> -> >= (boundary) and > -> <= (negation); == <-> !=, in <-> not in, is <-> is not."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        op = type(node.ops[0])
        for table in (BOUNDARY, NEGATION):
            if op in table:
                yield with_fields(node, ops=[table[op]()])


def constant(node, parents):
    """0.0 -> 1.0, 1.0 -> 0.0, 2.0 -> 1.0 (another float x -> x + 1); an int n -> 1 if n == 0 else n - 1."""
    if not isinstance(node, ast.Constant) or type(node.value) not in (int, float):
        return
    if type(node.value) is float:
        yield with_fields(node, value=FLOATS.get(node.value, node.value + 1.0))
    elif not isinstance(parents.get(node), ast.UnaryOp):  # graph[-1] is the job of `index`
        yield with_fields(node, value=1 if node.value == 0 else node.value - 1)


def sign(node, parents):
    """-x -> x (so -1.0 -> 1.0)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        yield copy.deepcopy(node.operand)


def index(node, parents):
    """graph[-1] -> graph[0]: the last item becomes the first."""
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.UnaryOp)
        and isinstance(node.slice.op, ast.USub)
        and isinstance(node.slice.operand, ast.Constant)
    ):
        yield with_fields(node, slice=ast.Constant(0))


def unwrap(node, parents):
    """reversed(x) -> x, list(x) -> x, dict(x) -> x, math.tanh(x) -> x: a one-argument call becomes its argument."""
    if not isinstance(node, ast.Call) or len(node.args) != 1 or node.keywords or isinstance(node.args[0], ast.Starred):
        return
    func = node.func
    if (isinstance(func, ast.Name) and func.id in UNWRAPPED) or (
        isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "math"
    ):
        yield copy.deepcopy(node.args[0])


def assign(node, parents):
    """x += y -> x = y: the contribution replaces instead of adding up."""
    if isinstance(node, ast.AugAssign):
        yield ast.Assign(targets=[copy.deepcopy(node.target)], value=copy.deepcopy(node.value), lineno=node.lineno)


def no_value(node, parents):
    """return x -> return."""
    if isinstance(node, ast.Return) and node.value is not None:
        yield with_fields(node, value=None)


def delete(node, parents):
    """A statement -> pass."""
    if isinstance(node, ast.stmt) and not isinstance(node, ast.Pass):
        yield "pass"


def exception(node, parents):
    """raise ValueError(...) -> raise KeyError(...)."""
    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and isinstance(node.exc.func, ast.Name):
        other = SWAPPED_ERRORS.get(node.exc.func.id)
        if other:
            yield with_fields(node, exc=with_fields(node.exc, func=ast.Name(other, ast.Load())))


def message(node, parents):
    """raise ValueError(message) -> raise ValueError(): the error says nothing."""
    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
        yield with_fields(node, exc=with_fields(node.exc, args=[], keywords=[]))


def swap(node, parents):
    """(x, y) -> (y, x) for a tuple of two different values (the two slopes of a two-input op)."""
    if isinstance(node, ast.Tuple) and isinstance(node.ctx, ast.Load) and len(node.elts) == 2:
        first, second = node.elts
        if ast.dump(first) != ast.dump(second):
            yield with_fields(node, elts=[copy.deepcopy(second), copy.deepcopy(first)])


def branches(node, parents):
    """x if c else y -> y if c else x."""
    if isinstance(node, ast.IfExp):
        yield with_fields(node, body=copy.deepcopy(node.orelse), orelse=copy.deepcopy(node.body))


def no_filter(node, parents):
    """[x for x in xs if c] -> [x for x in xs]."""
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        for number, generator in enumerate(node.generators):
            if generator.ifs:
                clone = copy.deepcopy(node)
                clone.generators[number].ifs = []
                yield clone


OPERATORS = {
    "arithmetic": arithmetic,
    "operands": operands,
    "comparison": comparison,
    "constant": constant,
    "sign": sign,
    "index": index,
    "unwrap": unwrap,
    "assign": assign,
    "return": no_value,
    "delete": delete,
    "exception": exception,
    "message": message,
    "swap": swap,
    "branches": branches,
    "filter": no_filter,
}
STATEMENT_ONLY = {"delete"}  # operators that make sense only in solution regions, not in a table's entries


# ---------------------------------------------------------------- making mutants


def parent_map(tree):
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def describe_where(node, parents):
    """The function or table entry a node sits in: "evaluate", "OPS['relu']", "backward slopes['div']"."""
    entry, function = "", ""
    child, parent = node, parents.get(node)
    while parent is not None:
        if isinstance(parent, ast.Dict) and not entry and child in parent.values:
            key = parent.keys[parent.values.index(child)]
            owner = parents.get(parent)
            if isinstance(key, ast.Constant) and isinstance(owner, ast.Assign) and isinstance(owner.targets[0], ast.Name):
                entry = f"{owner.targets[0].id}[{key.value!r}]"
        if isinstance(parent, ast.FunctionDef) and isinstance(parents.get(parent), ast.Module):
            function = parent.name
        child, parent = parent, parents.get(parent)
    return " ".join(part for part in (function, entry) if part) or "module"


def in_table_entry(node, parents):
    """True if the node sits inside the value of an entry of a module-level table (not the table itself)."""
    child, parent = node, parents.get(node)
    while parent is not None:
        if isinstance(parent, ast.Dict) and child in parent.values:
            owner = parents.get(parent)
            return isinstance(owner, ast.Assign) and any(isinstance(t, ast.Name) and t.id in TABLES for t in owner.targets)
        child, parent = parent, parents.get(parent)
    return False


def within(node, regions):
    return any(first <= node.lineno and node.end_lineno <= last for first, last in regions)


def line_offsets(data):
    """Byte offset of the start of each line (1-based: offsets[1] is line 1)."""
    offsets, position = [0, 0], 0
    for line in data.splitlines(keepends=True):
        position += len(line)
        offsets.append(position)
    return offsets


NEEDS_PARENS = (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Lambda)


def replacement_text(node, new):
    if isinstance(new, str):
        return new
    text = ast.unparse(new)
    if isinstance(new, NEEDS_PARENS) and type(new) is not type(node) and isinstance(node, ast.expr):
        text = f"({text})"
    return text


def short(text, limit=90):
    """One line of source for a table: whitespace collapsed, a multi-line span cut at its first line."""
    lines = text.strip().splitlines()
    head = " ".join(lines[0].split()) if lines else ""
    if len(lines) > 1:
        head += " ..."
    return head if len(head) <= limit else head[: limit - 3] + "..."


def mutants(text=None):
    """Every distinct mutant of the reference's text, in source order."""
    text = REFERENCE.read_text(encoding="utf-8") if text is None else text
    tree = ast.parse(text)
    parents = parent_map(tree)
    solutions, tables = solution_lines(text), table_lines(tree)
    data = text.encode("utf-8")
    offsets = line_offsets(data)
    found, seen, keys = [], {text}, Counter()
    nodes = sorted(
        (n for n in ast.walk(tree) if hasattr(n, "lineno") and n.end_lineno is not None),
        key=lambda n: (n.lineno, n.col_offset, -n.end_lineno, -n.end_col_offset),
    )
    for node in nodes:
        in_solution = within(node, solutions)
        in_table = within(node, tables) and in_table_entry(node, parents)
        if not (in_solution or in_table):
            continue
        start = offsets[node.lineno] + node.col_offset
        stop = offsets[node.end_lineno] + node.end_col_offset
        before = data[start:stop].decode("utf-8")
        for kind, operator in OPERATORS.items():
            if kind in STATEMENT_ONLY and not in_solution:
                continue
            for new in operator(node, parents):
                after = replacement_text(node, new)
                source = (data[:start] + after.encode("utf-8") + data[stop:]).decode("utf-8")
                if source in seen:
                    continue
                seen.add(source)
                where = describe_where(node, parents)
                key = f"{where}: {short(before)} -> {short(after)}"
                keys[key] += 1
                if keys[key] > 1:
                    key = f"{key} #{keys[key]}"
                found.append(Mutant(key, where, node.lineno, kind, before, after, source))
    return found


# ---------------------------------------------------------------- grading them


def grade_source(source):
    """Grade one version of the reference module on its functions' checks: (score, max score, failed ids, seconds)."""
    from autograder.grading.runner import grade
    from autograder.grading.submission import Chunk, Submission

    checks = [c for c in active.part("checks").all_checks() if module_of(c.function) == REFERENCE.stem]
    result = grade(Submission("mutant", [Chunk(REFERENCE.name, source)]), checks)
    failed = [r.check.id for r in result.results if not r.passed]
    return result.score, result.max_score, failed, result.seconds


def classify(mutant):
    if mutant.key in EQUIVALENT:
        return "equivalent", EQUIVALENT[mutant.key]
    if mutant.key in GAPS:
        return "gap", GAPS[mutant.key]
    return "unclassified", "not equivalent as far as anyone has checked: add a check that kills it, or explain it"


def run(all_mutants, jobs=JOBS, verbose=False, out=sys.stdout):
    """Grade the reference and every mutant; print the results; return the exit status."""
    started = time.perf_counter()
    reference = REFERENCE.read_text(encoding="utf-8")
    outcome = {}
    progress = not verbose and sys.stderr.isatty()
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
        futures = {pool.submit(grade_source, reference): None}
        futures.update({pool.submit(grade_source, m.source): m for m in all_mutants})
        for done, future in enumerate(as_completed(futures), start=1):
            mutant = futures[future]
            outcome[mutant] = future.result()
            score, most, failed, _ = outcome[mutant]
            if verbose and mutant is not None:
                state = "killed  " if score < most else "SURVIVED"
                print(f"[{done}/{len(futures)}] {state} line {mutant.line}: {mutant.key}", file=out)
                if failed:
                    print(f"        by {', '.join(failed)}", file=out)
            elif progress:
                print(f"\r{done}/{len(futures)} graded", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    seconds = time.perf_counter() - started
    return report(all_mutants, outcome, seconds, out)


def report(all_mutants, outcome, seconds, out=sys.stdout):
    score, most, failed, _ = outcome[None]
    status = 0
    if score < most:
        print(f"the reference scores {score:g}/{most:g} (failed {', '.join(failed)}): mutation results mean nothing", file=out)
        return 1
    killed = [m for m in all_mutants if outcome[m][0] < outcome[m][1]]
    survivors = [m for m in all_mutants if outcome[m][0] >= outcome[m][1]]
    kills = Counter(family for m in killed for family in {check.split("/")[0] for check in outcome[m][2]})
    rate = 100.0 * len(killed) / len(all_mutants) if all_mutants else 0.0
    print(f"mutants generated  {len(all_mutants)}", file=out)
    print(f"killed             {len(killed)}  ({rate:.1f}%)", file=out)
    print(f"survived           {len(survivors)}", file=out)
    print(f"seconds            {seconds:.0f}", file=out)
    print("\nmutants each family kills (a mutant may fail several families):", file=out)
    for family, count in kills.most_common():
        print(f"  {family:30} {count}", file=out)
    if survivors:
        print("\nsurvivors:", file=out)
    for m in survivors:
        label, reason = classify(m)
        status = 1 if label == "unclassified" else status
        print(f"  line {m.line} [{m.kind}] {m.key}\n    {label.upper()}: {reason}", file=out)
    alive = {m.key for m in survivors}
    stale = [key for key in list(EQUIVALENT) + list(GAPS) if key not in alive]
    for key in stale:
        print(f"note: {key!r} is classified but no longer survives; remove it from the table", file=out)
    return status


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m autograder.tools.mutants", description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="list the mutants and grade nothing")
    parser.add_argument("--jobs", type=int, default=JOBS, help=f"grading processes (default {JOBS})")
    parser.add_argument("--match", default="", help="grade only mutants whose key matches this regular expression")
    parser.add_argument("--verbose", "-v", action="store_true", help="print every mutant and the checks that killed it")
    args = parser.parse_args(argv)
    chosen = [m for m in mutants() if re.search(args.match, m.key)]
    if args.list:
        for m in chosen:
            print(f"line {m.line:3} {m.kind:10} {m.key}")
        print(f"{len(chosen)} mutants")
        return 0
    if args.match:
        return run(chosen, jobs=args.jobs, verbose=args.verbose)
    tee = marked.Tee(sys.stdout)
    status = run(chosen, jobs=args.jobs, verbose=args.verbose, out=tee)
    if status == 0:
        marked.rewrite(PAGE, "mutants", page_block(tee.copy.getvalue(), time.strftime("%Y-%m-%d")), "make mutants")
        print(f"wrote {PAGE.relative_to(ROOT)}")
    return status


def page_block(output, day):
    """The "mutants" block of docs/mutation.md: the day of a run, then its report."""
    return f"`make mutants`, run on {day}:\n\n```\n{output.strip()}\n```"


if __name__ == "__main__":
    sys.exit(main())
