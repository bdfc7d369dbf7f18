"""What every judge shares: the Failure it returns, exact plain types, and sentences that quote learner data.

A judge (a course's, see autograder/course/active.py) takes (check, case, reply) and returns
None when the reply is right, or a Failure that says what was expected and what came back.
Replies are checked for exact plain types first (a number is an int or a float and never a
bool; names are str), then compared, in the trusted process.
"""

import copy
import functools
import math
import sys
from dataclasses import dataclass

from autograder.sandbox.channel import quiet_gc

REL_TOL, ABS_TOL = 1e-6, 1e-9  # answers the reference computes exactly
FLOAT_MAX = sys.float_info.max  # an int beyond this cannot be compared as a float
MESSAGE_CHARS = 600  # the most any one sentence about a learner's answer may quote


@dataclass
class Failure:
    case: object  # the Case that showed the problem
    summary: str  # one sentence: what was expected and what came back
    got: object = None  # the learner's answer, as plain values (None if there was none)
    first_wrong: str = ""  # the first name of the answer the judge found wrong (the course's picture may mark it)
    details: tuple = ()  # lines the course's judge writes about the failure, shown under its input
    status: str = "ok"  # the reply's status: ok, raised, timeout, died, ...
    error_type: str = ""

    def __post_init__(self):
        self.summary = clip(self.summary)  # the one place every sentence about a failure passes


class NotPlain(Exception):
    """The reply holds something other than the plain values the function must return."""


def is_number(value):
    """An int or a float, never a bool, and never an int too large to compare with a float."""
    return type(value) is float or (type(value) is int and -FLOAT_MAX <= value <= FLOAT_MAX)


def as_number_dict(value):
    if type(value) is not dict:
        raise NotPlain(f"should return a dict, but returned {_kind(value)}")
    kinds = set(map(type, value.values()))  # type sets run at C speed: a 200,000-entry answer is common
    if (
        set(map(type, value)) <= {str}
        and kinds <= {int, float}
        and (int not in kinds or all(is_number(v) for v in value.values() if type(v) is int))
    ):
        return value
    key, number = next((k, v) for k, v in value.items() if type(k) is not str or not is_number(v))
    raise NotPlain(f"returned a dict whose entry {short(key)}: {short(number)} is not a name mapped to a number")


def as_name_list(value):
    if type(value) is not list or not all(type(v) is str for v in value):
        raise NotPlain(f"should return a list of names, but returned {_kind(value)}: {short(value)}")
    return value


def _kind(value):
    return {dict: "a dict", list: "a list", str: "a string", type(None): "None", bool: "a bool"}.get(
        type(value), type(value).__name__
    )


def short(value, limit=160):
    """repr(value), cut to ``limit`` characters: learner data is never quoted in full."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int with too many digits to print, or lists nested too deeply
        return f"a {type(value).__name__} too large to show"
    return clip(text, limit)


def clip(text, limit=MESSAGE_CHARS):
    """text cut to ``limit`` characters, for sentences that may carry learner data."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def close(got, want, rel=REL_TOL, abs_=ABS_TOL):
    """Whether two numbers agree within the tolerances; NaN agrees with nothing, itself included."""
    return math.isclose(got, want, rel_tol=rel, abs_tol=abs_)


def first_not_finite(numbers):
    """The first key of a dict of numbers whose value is NaN or infinite, or None (one pass at C speed when none is)."""
    if all(map(math.isfinite, numbers.values())):
        return None
    return next(key for key, value in numbers.items() if not math.isfinite(value))


def fresh(value):
    """A copy of a plain value: a dict of numbers or strings (a long graph's values) is copied flat."""
    if type(value) is dict and all(type(v) in (int, float, str) for v in value.values()):
        return dict(value)
    return copy.deepcopy(value)


def per_case(compute, keep=4096):
    """``compute(case)``, worked out once for each of the ``keep`` cases used latest (the result is shared: never change
    it)."""
    cache = {}  # id(case) -> (case, result), least recently used first

    def remembered(case):
        cached = cache.pop(id(case), None)
        if cached is None or cached[0] is not case:
            cached = (case, quiet_gc(compute, case))
            while len(cache) >= keep:
                del cache[next(iter(cache))]  # the one used longest ago
        cache[id(case)] = cached  # the latest used last
        return cached[1]

    remembered.__doc__ = compute.__doc__
    return remembered


def no_answer(case, reply):
    """A Failure for a reply that carries no return value, or None if it does."""
    status = reply.get("status")
    if status == "ok":
        return None
    fn = case.fn
    if status == "raised":
        error = reply.get("error") if isinstance(reply.get("error"), dict) else {}
        kind = error.get("type") if isinstance(error.get("type"), str) else "an exception"
        where = f" ({error['where'][:120]})" if isinstance(error.get("where"), str) and error["where"] else ""
        message = error.get("message") if isinstance(error.get("message"), str) else ""
        said = f": {message[:200]}" if message.strip() else ""
        return Failure(case, f"{fn} raised {kind[:60]}{said}{where}", status=status, error_type=kind[:60])
    text = {
        "missing": f"your code defines no function {fn}",
        "timeout": f"{fn} did not return within {reply.get('seconds', 0):.0f} s (an endless loop, or far too slow)",
        "died": f"the process running {fn} stopped during the call (exit status {reply.get('exit')})",
        "invalid": f"the process running {fn} sent an unreadable reply ({reply.get('reason', '')})",
        "unsendable": f"{fn} returned something that is not plain numbers, names, lists and dicts",
        "unloadable": "your code could not be loaded, so nothing could be called",
    }.get(status, f"{fn} gave no answer ({status})")
    return Failure(case, text, status=str(status))


def never_raises(judge):
    """``judge``, made total: an answer shaped like nothing it foresaw fails that check instead of stopping grading."""

    @functools.wraps(judge)
    def judged(check, case, reply):
        try:
            return judge(check, case, reply)
        except Exception as err:  # noqa: BLE001 - whatever the learner's answer made the judge trip over
            return Failure(
                case,
                f"{case.fn}'s answer could not be judged ({type(err).__name__}); it should hold "
                "plain numbers and names, in the lists and dicts the instructions describe",
            )

    return judged
