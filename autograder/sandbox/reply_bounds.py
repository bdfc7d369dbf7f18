"""How large a reply to one request may be: what its call can need, worked out from the call's own names.

The learner's code can write to the reply pipe and can find the request's nonce, so a reply
carrying the right nonce is no more trusted than any other. Decoding JSON costs far more
memory than its text (an empty list is 2 bytes of text and 64 of Python), so a reply is held
to two numbers before it is decoded: its length in bytes, and its items (the commas and
opening brackets in its text, so every list, dict and value it can decode to is counted).

An answer names at most the call's names, each with a number: a dict of values, a list of names
(the course may say which names an argument of its own holds). So a call may be answered with
REPLY_FACTOR times its names as JSON (each name with NUMBER_BYTES for its number and
separators), plus a fixed allowance for the status, the time and an error's fields; a call that
asks for its arguments back may add their whole text again. A call a course driver answers (a
public program run against the learner's module, which may record more names than it was given)
may add DRIVEN. The load reply holds at most LOAD_ERRORS errors of short fields.
"""

import json
from dataclasses import dataclass

from autograder.course import active

REPLY_FACTOR = 2  # an answer may be this many times what the call's names need
NUMBER_BYTES = 32  # a name's number and separators: `: -1.2345678901234567e-308, ` fits
REPLY_ALLOWANCE = 64 << 10  # bytes of any reply beside its names: status, seconds, an error's fields, a short answer
ITEM_ALLOWANCE = 4096  # items of any reply beside its names' (a 500-character error message of commas included)
LOAD_ERRORS = 50  # load errors the child sends at most (autograder/sandbox/child.py)
LOAD_ERROR_BYTES = 8 << 10  # one load error: type, 500-character message and place, as JSON escapes them
LOAD_ERROR_ITEMS = 600


@dataclass(frozen=True)
class Bound:
    bytes: int
    items: int

    def __add__(self, other):
        return Bound(self.bytes + other.bytes, self.items + other.items)


FIXED = Bound(REPLY_ALLOWANCE, ITEM_ALLOWANCE)  # a call without names, such as an answer cell's variable
DRIVEN = Bound(4 << 20, 400_000)  # what a course driver's answer may hold beyond the call's names (a recorded history)


def items_in(text):
    """The items a JSON text can decode to, at most: its commas and opening brackets, plus one."""
    return text.count(b",") + text.count(b"[") + text.count(b"{") + 1


def names_of(args, kwargs=None):
    """The distinct names a right answer to the call can hold, without recursion: the strings of its arguments and
    dict keys, or what the course reads from an argument it knows (its judges part's ``reply_names(value, names)``,
    which adds the names ``value`` holds and says whether it did)."""
    course = getattr(active.part("judges"), "reply_names", None)
    names, todo = set(), [*args, *(kwargs or {}).values()]
    while todo:
        item = todo.pop()
        kind = type(item)
        if kind is str:
            names.add(item)
        elif kind is dict:
            names.update(key for key in item if type(key) is str)
            if not NUMBERS.issuperset(map(type, item.values())):
                todo.extend(value for value in item.values() if type(value) not in NUMBERS)
        elif (kind is list or kind is tuple) and not (course is not None and course(item, names)):
            todo.extend(item)
    return names


NUMBERS = {int, float}


def of_names(names):
    """What an answer naming each of `names` once, with a number, may take, REPLY_FACTOR times, plus FIXED."""
    text = json.dumps(list(names)).encode()
    inner = items_in(text) - len(names)  # commas and brackets inside the names themselves
    need = Bound(len(text) + NUMBER_BYTES * len(names), 2 * len(names) + max(0, inner))
    return Bound(REPLY_FACTOR * need.bytes, REPLY_FACTOR * need.items) + FIXED


def of_echo(args):
    """What giving the call's arguments back (return_args, mutate_result) adds, REPLY_FACTOR times."""
    text = json.dumps(args).encode()
    return Bound(REPLY_FACTOR * len(text), REPLY_FACTOR * items_in(text))


_BUILT = {}  # {a built input's description as JSON: its names' bound}: the child builds the same input every time


def of_call(args, kwargs=None, built=None, echoed=False, driven=False):
    """The bound on a reply to fn(*args, **kwargs); `built` (a description the course's build turns into args) is
    cached; `echoed` when the call gives its arguments back, `driven` when a course driver answers it."""
    if built is not None:
        key = json.dumps([built, kwargs or {}], sort_keys=True)
        if key not in _BUILT:
            _BUILT[key] = of_names(names_of(args, kwargs))
        bound = _BUILT[key]
    else:
        bound = of_names(names_of(args, kwargs))
    if echoed:
        bound += of_echo(args)
    return bound + DRIVEN if driven else bound


def of_load(chunks):
    """The bound on the reply to loading `chunks`: at most LOAD_ERRORS errors, each naming its chunk's label."""
    label = max((len(json.dumps(chunk["label"])) for chunk in chunks), default=0)
    return FIXED + Bound(LOAD_ERRORS * (LOAD_ERROR_BYTES + 2 * label), LOAD_ERRORS * (LOAD_ERROR_ITEMS + 2 * label))
