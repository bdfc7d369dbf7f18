"""Replaces the json encoder the child replies with, so backward's replies become bogus statuses and malformed fields."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": 0}


import itertools
import json


REAL_ENCODER = json._default_encoder
BOGUS = itertools.cycle(
    [
        {"status": "timeout", "seconds": "forever"},
        {"status": "raised", "error": ["not", "a", "dict"]},
        {"status": "raised", "error": {"type": {"x": 1}, "value_error": "yes", "message": 5, "where": None}},
        {"status": "died", "exit": {"code": [0]}},
        {"status": "ok"},
        {"status": "ok", "value": {"L": True}, "seconds": "fast", "wall_seconds": -1},
        {"status": "ok", "value": {"L": 1.0}, "seconds": 10**400},
        {"status": "raised", "seconds": float("nan"), "error": {"type": "ValueError", "value_error": 1}},
        {"status": "unloadable", "errors": "everything"},
        {"status": "invalid", "reason": ["x"]},
        {"status": "missing", "extra": "x" * 1000},
        {"status": "loaded", "errors": []},
        {"status": ["ok"]},
        {"status": None},
        {"value": {"L": 1.0}},
    ]
)
FORGE_NEXT = []


class Forger(json.JSONEncoder):
    """Turns the child's next reply into a bogus one once backward has run."""

    def encode(self, o):
        if FORGE_NEXT and isinstance(o, dict) and o.get("status") in ("ok", "raised"):
            FORGE_NEXT.clear()
            bogus = dict(next(BOGUS))
            for key, value in o.items():  # keep whatever ties the reply to its request
                if key not in ("status", "value", "error", "seconds", "args_after"):
                    bogus.setdefault(key, value)
            return REAL_ENCODER.encode(bogus)
        if isinstance(o, dict) and o.get("status") == "loaded":
            o = dict(o, errors=[{"label": ["x"], "type": None, "message": {"a": 1}}, 5, "text", None])
        return REAL_ENCODER.encode(o)


json._default_encoder = Forger()


def backward(graph, values, output=None):
    FORGE_NEXT.append(True)
    return {name: 0.0 for name in values}
