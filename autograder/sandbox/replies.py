"""A child's reply, rebuilt field by field from plain values: a forged reply says no more than the learner's function
could have returned."""

STATUSES = {"ok", "raised", "missing", "unsendable"}  # what a child may answer a call with
READY = {"ready"}  # what a fresh child answers before it loads anything, when its memory is to be measured
NUMBERS = {int, float}  # exact types


def _text(value, limit):
    return value[:limit] if type(value) is str else ""


def clean(message, statuses, keys=None):
    """Rebuild a child's message from the fields its status allows, each of the right plain type.

    An answer comes as "value", or, when it is a dict of numbers keyed by the names of the call's
    second argument (`keys`, the parent's own copy) in their order, as "values": just the numbers,
    one per name, each an exact int or float. With "last", a driver's list of answers is "value"
    followed by the dict that "values" gives.
    """
    status = message.get("status")
    if type(status) is not str or status not in statuses:
        return {"status": "invalid", "reason": f"unknown status {_text(str(status), 40)!r}"}
    reply = {"status": status}
    seconds = message.get("seconds")
    if type(seconds) in (int, float) and 0 <= seconds < 1e9:  # exact comparisons: no overflow, NaN fails
        reply["seconds"] = float(seconds)
    if status == "loaded":
        reply["errors"] = plain_errors(message.get("errors"))
    elif status == "ok":
        last = message.get("last") is True  # a driver's list of answers, "value", then one more given as "values"
        if "value" in message and not last:
            reply["value"] = message["value"]
        elif "values" in message and keys is not None:
            values = message["values"]
            if type(values) is not list or len(values) != len(keys):
                return {"status": "invalid", "reason": "a list of values that does not match the call's names"}
            if not set(map(type, values)) <= NUMBERS:
                return {"status": "invalid", "reason": "a list of values that are not all numbers"}
            reply["value"] = dict(zip(keys, values))
            if last:
                if type(message.get("value")) is not list:
                    return {"status": "invalid", "reason": "a driver's answers that are not a list"}
                reply["value"] = [*message["value"], reply["value"]]
        else:
            return {"status": "invalid", "reason": "an answer without a value"}
    elif status in ("raised", "unsendable"):
        error = message.get("error")
        error = error if type(error) is dict else {}
        reply["error"] = {
            "type": _text(error.get("type"), 100),
            "value_error": error.get("value_error") is True,
            "message": _text(error.get("message"), 500),
            "where": _text(error.get("where"), 200),
        }
    if status in ("ok", "raised") and "args_after" in message:
        reply["args_after"] = message["args_after"]
    return reply


def explain(reply):
    status = reply.get("status")
    if status == "timeout":
        return f"running your code took longer than {reply['seconds']:.0f} s before any function was called"
    if status == "died":
        return f"the process running your code exited while loading it (exit status {reply.get('exit')})"
    if status == "out_of_time":
        return (
            f"the {reply['seconds']:.0f} s all of this submission's code may run for together ran out while loading it"
        )
    return f"the process running your code sent an unreadable reply ({reply.get('reason', status)})"


def plain_errors(errors):
    """Keep only well-formed load errors: dicts of short strings."""
    kept = []
    for error in errors if isinstance(errors, list) else []:
        if isinstance(error, dict):
            error = {k: _text(error.get(k), 500) for k in ("label", "type", "message", "where")}
            if any(error.values()):
                kept.append(error)
    return kept[:50]
