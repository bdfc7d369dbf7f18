"""Mutation testing of the hidden checks: small changes to the reference that the checks must catch.

    python -m autograder.tools.mutants             # grade every mutant, two at a time; list the survivors
    python -m autograder.tools.mutants --list      # only list the mutants, grade nothing
    python -m autograder.tools.mutants --verbose   # also say which checks killed each mutant

A mutant is the full text of the first lesson module's reference with one small change,
made only inside a solution region (between ``### BEGIN SOLUTION`` and
``### END SOLUTION``) or inside the entries of a table the course names (its mutants
part's TABLES): an arithmetic operator swapped, a comparison flipped, a constant changed,
a call such as ``reversed(x)`` replaced by ``x``, ``+=`` turned into ``=``, a return value
or a whole statement dropped, ValueError swapped for KeyError, the two items of a pair
swapped, ``xs[-1]`` turned into ``xs[0]``, and so on (autograder/tools/mutation_operators.py).

Every mutant is graded on every hidden check of that module, the slow families included.
It is killed when it scores below full marks.
A mutant that survives is either equivalent (no input the contract allows
tells it apart from the reference), listed in the course's EQUIVALENT with the reason,
or a known gap, listed in its GAPS with the check that would kill it. The run exits
with status 1 when a survivor is in neither table, or when the reference
itself does not earn full marks. A passing run over every mutant writes what it printed
into docs/mutation.md (its "mutants" block).
"""

import argparse
import ast
import re
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from multiprocessing import get_context

from autograder.course import active
from autograder.course.lessons import module_of
from autograder.course.markers import region_spans
from autograder.course.paths import REFERENCE, ROOT
from autograder.grading.engine import family_of
from autograder.tools import marked
from autograder.tools.mutation_operators import OPERATORS, STATEMENT_ONLY, parent_map, replacement_text

JOBS = 2
PAGE = ROOT / "docs" / "mutation.md"  # its "mutants" block holds the last passing full run's report

# What the course says of its reference (its optional mutants part): TABLES, the module-level tables whose
# entries are mutated too; EQUIVALENT, the survivors no input the contract allows can tell apart from the
# reference, and GAPS, those no check can judge yet, each {Mutant.key: the reason}.
_COURSE = active.optional_part("mutants")
TABLES = tuple(getattr(_COURSE, "TABLES", ()))
EQUIVALENT = dict(getattr(_COURSE, "EQUIVALENT", {}))
GAPS = dict(getattr(_COURSE, "GAPS", {}))


@dataclass(frozen=True)
class Mutant:
    key: str  # "where: before -> after", with " #2", " #3" for repeats: stable while the reference keeps its shape
    where: str  # the function, a table's entry ("TABLE['key']"), or both
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


# ---------------------------------------------------------------- making mutants


def describe_where(node, parents):
    """The function or table entry a node sits in: "name", "TABLE['key']", or "name table['key']"."""
    entry, function = "", ""
    child, parent = node, parents.get(node)
    while parent is not None:
        if isinstance(parent, ast.Dict) and not entry and child in parent.values:
            key = parent.keys[parent.values.index(child)]
            owner = parents.get(parent)
            if (
                isinstance(key, ast.Constant)
                and isinstance(owner, ast.Assign)
                and isinstance(owner.targets[0], ast.Name)
            ):
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
            return isinstance(owner, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in TABLES for t in owner.targets
            )
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
        print(
            f"the reference scores {score:g}/{most:g} (failed {', '.join(failed)}): mutation results mean nothing",
            file=out,
        )
        return 1
    killed = [m for m in all_mutants if outcome[m][0] < outcome[m][1]]
    survivors = [m for m in all_mutants if outcome[m][0] >= outcome[m][1]]
    kills = Counter(family for m in killed for family in {family_of(check) for check in outcome[m][2]})
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
