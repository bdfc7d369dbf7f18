"""The sandboxed side: load the learner's code, then answer calls with plain JSON values.

This file runs as a standalone script (python -I -S child.py REQUEST_FD REPLY_FD) in a
throwaway folder, so it imports nothing but the standard library and never sees the
grader's files. The script is the course's child parts followed by this file's text
(program.child_script): they may define

    CODECS    {name: decode(json value) -> argument}: a request's "decode" lists [position, name]
              pairs, and each such argument is decoded before the call (the graph course: a graph)
    DRIVERS   {name: driver(module, *args, **kwargs) -> plain value}: a request naming a "driver"
              runs that short public program against the learner's module instead of calling
              "fn" directly (it still needs "fn" defined: a class the driver uses, say)
    build     build(description) -> args: a large input the child builds itself (a request's "build")

A message on either fd is a frame: a 40-byte header
(the body's length, 8 bytes big-endian, then the 32-byte nonce of the request it belongs to),
then the body, UTF-8 JSON. Every reply carries the nonce of the request it answers. A reply
whose answer is one float per name of the call (a value per name) may instead have the
body FLOATS_MARK, the JSON part's length (8 bytes big-endian), the JSON part, then the floats
as native 8-byte doubles: a 200,000-name answer is sent and read thirty times faster than as
JSON text. A driver's list of answers whose last one is such a dict is sent the same way, the
list's other answers as the JSON part's "value" and "last" true. Everything it sends is checked again by the parent,
which trusts none of it.
"""

import array
import gc
import os
import struct
import sys
import time
import types

REQUEST_FD, REPLY_FD = int(sys.argv[1]), int(sys.argv[2])
_readv, _write, _clock = os.readv, os.write, time.perf_counter


def _json_codec():
    """(dumps, loads): json.dumps(message, allow_nan=True) and json.loads, from the codec's C parts where there are.

    Importing the json package brings re, enum and collections with it: a third of a child's start. Its C parts
    (the _json module) are the very encoder and scanner json.dumps and json.loads use, so they are used directly.
    """
    try:
        from _json import encode_basestring_ascii, make_encoder, make_scanner
    except ImportError:  # an interpreter without them
        return _json_package()

    def unsendable(value):
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")

    class Options:  # what json.JSONDecoder gives its scanner
        strict, object_hook, object_pairs_hook, parse_float, parse_int = True, None, None, float, int
        parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__
        memo = {}

    scan = make_scanner(Options())

    def dumps(message):
        encode = make_encoder({}, unsendable, encode_basestring_ascii, None, ": ", ", ", False, False, True)
        return "".join(encode(message, 0))

    def loads(data):
        return scan(data.decode(), 0)[0]  # the grader's own compact JSON: no space before the value

    try:  # an interpreter whose C parts take other arguments answers as the package would, or not at all
        if dumps({"a": [1.5, "\u00e9", None, True]}) != '{"a": [1.5, "\\u00e9", null, true]}' or loads(
            b'{"a":[1]}'
        ) != {"a": [1]}:
            return _json_package()
    except Exception:  # noqa: BLE001
        return _json_package()
    return dumps, loads


def _json_package():
    import json

    return (lambda message: json.dumps(message, allow_nan=True)), json.loads


_dumps, _loads = _json_codec()


HEADER = struct.Struct(">Q32s")  # body length, nonce
NUMBERS = {int, float}  # exact types: a bool is not a number here
FLOATS_MARK = b"F"  # a body that is not JSON text alone: JSON, then the answer's doubles (see above)
RECURSION_LIMIT = 1000  # Python's default, and the most learner code gets: see capped_recursion_limit
_set_recursion_limit = sys.setrecursionlimit
CODECS = globals().get("CODECS", {})  # from the course's child parts, if they define them (above)
DRIVERS = globals().get("DRIVERS", {})


def read_exactly(size):
    buffer, got = bytearray(size), 0
    while got < size:
        got_now = _readv(REQUEST_FD, [memoryview(buffer)[got:]])
        if not got_now:
            os._exit(0)  # the parent is gone
        got += got_now
    return buffer


def receive():
    """(nonce, message): the parent's next request."""
    size, nonce = HEADER.unpack(read_exactly(HEADER.size))
    return nonce, _loads(read_exactly(size))


def send(message, nonce):
    floats = message.pop("floats", None)  # an array of doubles: sent after the JSON part, as they are in memory
    try:
        data = _dumps(message).encode()
    except (TypeError, ValueError, RecursionError) as err:  # a value JSON cannot hold
        error = {"type": type(err).__name__, "message": str(err)[:300]}
        data, floats = _dumps({"status": "unsendable", "error": error}).encode(), None
    if floats is not None:
        data = FLOATS_MARK + len(data).to_bytes(8, "big") + data + floats.tobytes()
    view = memoryview(HEADER.pack(len(data), nonce) + data)
    while view:
        view = view[_write(REPLY_FD, view) :]


def describe(err):
    """An exception as plain values: its type, whether it is a ValueError, and a short message."""
    import traceback  # only when something raised: importing it would slow every child's start

    frames = traceback.extract_tb(err.__traceback__)
    where = next((f"{f.filename}, line {f.lineno}" for f in reversed(frames) if f.filename.startswith("<")), "")
    return {
        "type": type(err).__name__,
        "value_error": isinstance(err, ValueError),
        "message": str(err)[:500],
        "where": where,
    }


def capped_recursion_limit(limit):
    """sys.setrecursionlimit as learner code sees it: it can lower the limit, never raise it past RECURSION_LIMIT.

    Python 3.11 runs deep Python recursion without using the C stack, so a recursive sweep whose code raises
    the limit would finish deep_graph's 200,000-node chain, and that family is there to tell it from a loop.
    """
    _set_recursion_limit(min(limit, RECURSION_LIMIT))


def load(chunks):
    module = types.ModuleType("submission")
    errors = []
    for chunk in chunks:
        try:
            exec(compile(chunk["code"], "<" + chunk["label"] + ">", "exec"), module.__dict__)
        except BaseException as err:  # noqa: BLE001 - SystemExit and KeyboardInterrupt too: a cell must not stop loading
            errors.append({"label": chunk["label"], **describe(err)})
    return module, errors


def plain(value):
    """Copy containers into plain dicts and lists (a defaultdict or tuple is fine to return)."""
    if isinstance(value, dict):
        if type(value) is dict and all(type(v) in (int, float, str) for v in value.values()):
            return value  # already plain: skip the copy (long graphs give long dicts)
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def numbers_in_order(value, keys):
    """Whether `value` is a dict of exact ints and floats whose keys are `keys`, in that order."""
    return (
        keys is not None
        and type(value) is dict
        and len(value) == len(keys)
        and {*map(type, value.values())} <= NUMBERS
        and list(value) == keys
    )


def answer(module, request):
    if "var" in request:  # an answer cell's variable, e.g. ORDER
        if request["var"] not in module.__dict__:
            return {"status": "missing"}
        return {"status": "ok", "seconds": 0.0, "value": plain(module.__dict__[request["var"]])}
    function = module.__dict__.get(request["fn"])
    if not callable(function):
        return {"status": "missing"}
    if "driver" in request:  # a public program run against the learner's module: it calls what it needs
        function = types.MethodType(DRIVERS[request["driver"]], module)
    if "build" in request:  # a large public input, described rather than sent
        args = list(build(request["build"]))  # noqa: F821 - given before this file, as the docstring says
    else:
        args = list(request["args"])
        for position, codec in request.get("decode", ()):
            args[position] = CODECS[codec](args[position])
    keys = list(args[1]) if len(args) > 1 and type(args[1]) is dict else None  # before the call can change them
    _set_recursion_limit(RECURSION_LIMIT)  # whatever an earlier call or the code's loading set
    gc.freeze()  # the inputs are long-lived: keep the collector from rescanning them during the call
    gc.enable()
    start = _clock()
    try:
        value = function(*args, **request.get("kwargs", {}))
    except BaseException as err:  # noqa: BLE001 - whatever the call raises, SystemExit included, is its reply
        reply = {"status": "raised", "seconds": _clock() - start, "error": describe(err)}
        if request.get("return_args"):
            reply["args_after"] = plain(args)
        return reply
    seconds = _clock() - start
    if numbers_in_order(value, keys):  # e.g. a value per name: the parent has the names already
        values = list(value.values())
        if {*map(type, values)} == {float}:
            reply = {"status": "ok", "seconds": seconds, "floats": array.array("d", values)}
        else:
            reply = {"status": "ok", "seconds": seconds, "values": values}
    elif (
        "driver" in request
        and type(value) is list
        and value
        and numbers_in_order(value[-1], keys)
        and {*map(type, value[-1].values())} == {float}
    ):  # a driver's answers, the last one gradients of the call
        floats = array.array("d", value[-1].values())
        reply = {"status": "ok", "seconds": seconds, "value": plain(value[:-1]), "last": True, "floats": floats}
    else:
        reply_value = plain(value)  # the answer as returned, before the caller touches it
        if request.get("mutate_result") and isinstance(value, list):
            value.append("\x00mutated")  # does changing the answer change the graph?
        reply = {"status": "ok", "seconds": seconds, "value": reply_value}
    if request.get("return_args") or request.get("mutate_result"):
        reply["args_after"] = plain(args)
    return reply


def main():
    nonce, hello = receive()
    if hello.get("ready"):  # the parent measures from here: nothing of the learner's has run yet
        send({"status": "ready"}, nonce)
        nonce, hello = receive()
    sys.setrecursionlimit = capped_recursion_limit  # before any learner code runs
    module, errors = load(hello["chunks"])
    gc.freeze()
    send(
        {"status": "loaded", "errors": errors[:50]}, nonce
    )  # the parent keeps 50, and holds the reply to that (reply_bounds)
    while True:
        gc.disable()  # decoding a long graph makes many objects and no garbage
        nonce, request = receive()
        try:
            reply = answer(module, request)
        except RecursionError as err:  # an answer nested too deeply to copy
            reply = {"status": "unsendable", "error": {"type": "RecursionError", "message": str(err)[:300]}}
        send(reply, nonce)


main()
