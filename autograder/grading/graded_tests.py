"""One test of a results.json: a name for people, and its parts as data for the kit.

A test's name ("family/variant (function)", "grade_id (answer)") is only shown. What the kit reads
back from results (the visibility of a test, the functions a hand-in was graded on) it reads from
the test's ``extra_data``, which Gradescope keeps as given:

    a check       {"check": check id, "family": its family, "function": its function}
    an answer     {"answer": grade id}
"""


def _test(name, score, most, passed, output, parts):
    return {
        "name": name,
        "score": score,
        "max_score": most,
        "status": "passed" if passed else "failed",
        "output": output,
        "visibility": "visible",
        "extra_data": parts,
    }


def check_test(check, score, most, passed, output):
    """The test of one hidden check (most is 0 for a check this machine could not measure: not graded)."""
    parts = {"check": check.id, "family": check.family, "function": check.function}
    return _test(f"{check.id} ({check.function})", score, most, passed, output, parts)


def answer_test(grade_id, score, most, passed, output):
    """The test of one answer cell."""
    return _test(f"{grade_id} (answer)", score, most, passed, output, {"answer": grade_id})


def parts_of(test):
    """A test's parts ({} for a test the kit did not build)."""
    extra = test.get("extra_data") if isinstance(test, dict) else None
    return extra if isinstance(extra, dict) else {}


def functions_of(tests):
    """The functions the checks among ``tests`` grade, in their order, each once."""
    return list(dict.fromkeys(f for f in (parts_of(t).get("function") for t in tests) if f))
