"""A submitted notebook's nbgrader metadata, restored from the release notebook by grade id.

The learner's own code is never touched; edited points, flags, schema versions and
copied grade cells are undone before nbgrader sees the notebook.
"""

import copy
import re

KEPT_METADATA = ("nbgrader", "deletable", "editable")  # what the release decides about a cell


def _set_cell_type(cell, cell_type):
    if cell.get("cell_type") == cell_type:
        return
    cell["cell_type"] = cell_type
    if cell_type == "code":
        cell.setdefault("outputs", [])
        cell.setdefault("execution_count", None)
    else:
        cell.pop("outputs", None)
        cell.pop("execution_count", None)


def _is_locked(meta):
    return bool(meta.get("locked") or (meta.get("grade") and not meta.get("solution")))


def restore_metadata(nb, release):
    """A copy of a submitted notebook (nbformat 4 dict) whose nbgrader metadata is the release's.

    Matching is by grade id. As nbgrader's DeduplicateIds does, the last cell carrying a
    grade id keeps it; every other cell that carries nbgrader metadata loses it and is an
    ordinary code cell of the learner. A matched cell gets the release cell's metadata,
    cell type and, if it is read-only (a test cell or a locked cell), its source. A test
    cell the learner deleted is put back after the cell that precedes it in the release.
    The learner's own code is never touched.
    """
    nb = copy.deepcopy(nb)
    wanted = {}
    for cell in release["cells"]:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if grade_id:
            wanted[grade_id] = cell
    seen = set()
    for cell in reversed(nb["cells"]):
        meta = cell.get("metadata")
        if not isinstance(meta, dict):
            cell["metadata"] = meta = {}
        nbgrader = meta.get("nbgrader")
        grade_id = nbgrader.get("grade_id") if isinstance(nbgrader, dict) else None
        if not isinstance(grade_id, str) or grade_id not in wanted or grade_id in seen:
            for key in KEPT_METADATA:
                meta.pop(key, None)
            continue
        seen.add(grade_id)
        model = wanted[grade_id]
        for key in KEPT_METADATA:
            meta.pop(key, None)
            if key in model["metadata"]:
                meta[key] = copy.deepcopy(model["metadata"][key])
        _set_cell_type(cell, model["cell_type"])
        if _is_locked(meta["nbgrader"]):
            cell["source"] = copy.deepcopy(model["source"])
    order = list(wanted)
    for index, grade_id in enumerate(order):
        meta = wanted[grade_id]["metadata"]["nbgrader"]
        if grade_id in seen or not meta.get("grade") or meta.get("solution"):
            continue
        present = [
            i for i, c in enumerate(nb["cells"]) if c["metadata"].get("nbgrader", {}).get("grade_id") in order[:index]
        ]
        nb["cells"].insert(present[-1] + 1 if present else 0, copy.deepcopy(wanted[grade_id]))
        seen.add(grade_id)
    _unique_ids(nb)
    return nb


def _unique_ids(nb):
    """Give every cell an id no other cell has (nbformat 4.5 requires them)."""
    nb["nbformat_minor"] = max(5, int(nb.get("nbformat_minor", 0)))
    taken = set()
    for index, cell in enumerate(nb["cells"]):
        base = cell.get("id")
        if not isinstance(base, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,56}", base):
            base = f"cell-{index}"
        candidate, n = base, 1
        while candidate in taken:
            n += 1
            candidate = f"{base}-{n}"
        cell["id"] = candidate
        taken.add(candidate)
