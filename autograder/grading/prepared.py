"""What no submission changes, worked out once and kept beside the course: verified on load, never trusted.

Grading a first submission in a process used to start with work that is the same for every
submission: each property check's examples drawn by Hypothesis, the large inputs built, the
reference timed on every timed case. The store keeps that work in one file beside the course,
``<course package>/.prepared.json``, written by ``python -m autograder.tools.prepare``
(``make prepare``; ``make gradescope`` ships it in the zip and Gradescope's setup.sh writes it
again on the image). For the course's own checks it holds:

    examples   {check id: [examples asked for, [Case, ...]]}: a property check's examples, in Hypothesis's order
    inputs     {check id: [Case, ...]}: the cases of a check whose inputs are built at run time
    seconds    [[function, label, seconds], ...]: the reference's CPU time on each timed case

The file is JSON (data, never code): a first line, the header, then one JSON list of cases per
entry. The header names the format, a digest of everything the contents follow from
(``made_from``: the kit's and the course's files, Hypothesis's version, Python's), the machine
the times were measured on, the times, each entry's place and sha256, and ``digest``, the sha256
of all of that (the times included). A stale store (a source changed since it was written) is
ignored whole, and so is one whose header does not match its digest (damaged, or its times
edited); an entry whose bytes do not match its sha256 is ignored alone, and what it held is
worked out as without a store. Entries are read and decoded only when a check asks for them. The
times are used only on the machine that measured them.

Only `make prepare` writes it, in a process that has run no learner code (tools/prepare.py
refuses otherwise). Learner code never writes there: in full isolation the sandbox child sees
neither the kit's folder nor the course's, and with limits only it may write nowhere but its own
folder (Landlock, autograder/sandbox/landlock.py), where the kernel allows.
"""

import dataclasses
import hashlib
import importlib.util
import json
import math
import mmap
import os
import platform
import sys
from pathlib import Path

from autograder.course import active
from autograder.grading.engine import Case
from autograder.grading.sources_digest import of_grade_sources
from autograder.sandbox.channel import quiet_gc

FORMAT = 2
NAME = ".prepared.json"
TUPLE, DICT = "\u0000tuple", "\u0000dict"  # tags of the body's encoding: a tuple; a dict whose keys need escaping
FIELDS = tuple(field.name for field in dataclasses.fields(Case))


class StoreError(ValueError):
    """A store cannot be used; the message says why (missing, stale, damaged, made elsewhere)."""


class Unencodable(TypeError):
    """A value the store cannot hold exactly (a set, a non-string key, an object): it is worked out each time."""


def path(course_dir=None):
    """Where the active course's store lives: beside its package's files."""
    return Path(course_dir or Path(active.course().__file__).parent) / NAME


# ---------------------------------------------------------------- what the contents follow from


def _hypothesis_version():
    """The text of Hypothesis's version file, found without importing Hypothesis (the examples follow from it)."""
    spec = importlib.util.find_spec("hypothesis")
    if spec is None or not spec.origin:
        return "none"
    version = Path(spec.origin).with_name("version.py")
    return version.read_text(encoding="utf-8") if version.is_file() else spec.origin


def made_from():
    """A digest of everything the contents follow from: the course's name, Hypothesis, Python, and the source files
    (the digest the record cache keys its records by: sources_digest.of_grade_sources)."""
    digest = hashlib.sha256()
    for part in (
        active.name(),
        _hypothesis_version(),
        platform.python_implementation(),
        ".".join(map(str, sys.version_info[:2])),
        of_grade_sources()[0],
    ):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()


def machine():
    """The machine the reference's times are measured on: architecture, cores, processor, Python."""
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            model = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), "")
    except OSError:
        pass
    python = sys.version.split()[0]
    return f"{platform.machine()}; {os.cpu_count()} cores; {model or platform.processor()}; Python {python}"


# ---------------------------------------------------------------- the body's encoding: exact, or not at all


def encode(value):
    """``value`` as JSON data that decode() gives back exactly (tuples stay tuples); Unencodable otherwise."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        return value  # JSON keeps every float's digits; NaN and infinities as Python's json writes them
    if kind is list:
        return [encode(item) for item in value]
    if kind is tuple:
        return {TUPLE: [encode(item) for item in value]}
    if kind is dict:
        if not all(type(key) is str for key in value):
            raise Unencodable("a dict with a key that is not a string")
        if any(key.startswith("\u0000") for key in value):
            return {DICT: [[key, encode(item)] for key, item in value.items()]}
        return {key: encode(item) for key, item in value.items()}
    raise Unencodable(f"a value of type {kind.__name__}")


def _tagged(obj):
    if len(obj) == 1:
        if TUPLE in obj:
            return tuple(obj[TUPLE])
        if DICT in obj:
            return {key: item for key, item in obj[DICT]}
    return obj


def decode(data):
    """The values of JSON text written from encode()'s output: tuples are tuples again."""
    return quiet_gc(json.loads, data, object_hook=_tagged)


def encode_case(case):
    if type(case) is not Case:
        raise Unencodable(f"a {type(case).__name__}, not a Case")
    return {name: encode(getattr(case, name)) for name in FIELDS}


class Exact(list):
    """Cases that come back from the store equal to themselves, with the store's text of each (``texts``)."""

    def __init__(self, cases, texts):
        super().__init__(cases)
        self.texts = texts


def _text(case):
    return quiet_gc(json.dumps, encode_case(case), separators=(",", ":"))


def exact(cases):
    """``cases`` (an Exact) if each comes back from the store equal to itself, else Unencodable (a NaN, for one)."""
    texts = []
    for case in cases:
        texts.append(_text(case))
        if decode_case(decode(texts[-1])) != case:
            raise Unencodable(f"a case that does not come back equal to itself ({case.label or case.fn})")
    return Exact(cases, texts)


def decode_case(data):
    if type(data) is not dict or set(data) != set(FIELDS):
        raise StoreError("a case with other fields than the engine's Case")
    return Case(**data)


# ---------------------------------------------------------------- the contents, written and read


class Prepared:
    """A store's contents for the checks of the course loaded in this process (``checks``: {id: Check}).

    Each entry is read, verified against its digest and decoded when first asked for, so a grader
    that grades one lesson's checks reads only theirs. An entry that does not verify is ignored.
    """

    def __init__(self, entries=None, body=b"", seconds=None, checks=None, reason=""):
        self.entries = entries or {}  # "examples/<id>" or "inputs/<id>" -> (offset, length, sha256, examples)
        self.body = body  # the bytes after the header (a memory map of the file)
        self.seconds = seconds or {}  # (function, label) -> the reference's seconds, measured on this machine
        self.checks = checks or {}  # check id -> the course's Check the entries are for
        self.reason = reason  # why nothing is held, when nothing is
        self.refused = []  # entries that did not verify, and why

    def _ours(self, check):
        return self.checks.get(check.id) is check  # a check made elsewhere with the same id gets nothing

    def _cases(self, key):
        offset, length, digest, _count = self.entries[key]
        data = bytes(self.body[offset : offset + length])
        if len(data) != length or hashlib.sha256(data).hexdigest() != digest:
            raise StoreError(f"{key}: its bytes are not those the header was written for (damaged or edited)")
        try:
            cases = decode(data)
            return [decode_case(case) for case in cases]
        except (TypeError, ValueError) as err:
            raise StoreError(f"{key}: not a list of cases ({type(err).__name__})") from None

    def _held(self, key):
        try:
            return self._cases(key)
        except StoreError as err:
            self.refused.append(str(err))
            del self.entries[key]
            return None

    def examples_of(self, check):
        """The stored examples of the course's property check ``check``, or None."""
        key = f"examples/{check.id}"
        if key not in self.entries or not self._ours(check) or self.entries[key][3] != check.examples:
            return None
        return self._held(key)

    def stored_inputs(self, check):
        """The stored cases of the course's check ``check`` (one whose inputs are built at run time), or None."""
        key = f"inputs/{check.id}"
        if key not in self.entries or not self._ours(check) or not callable(check.cases):
            return None
        return self._held(key)


def dumps(examples, inputs, seconds, source_digest=None, measured_on=None):
    """The store's bytes. examples: {id: (count, [Case])}; inputs: {id: [Case]}; seconds: {(fn, label): s}."""
    parts, entries, offset = [], {}, 0
    named = [(f"examples/{cid}", count, cases) for cid, (count, cases) in examples.items()]
    named += [(f"inputs/{cid}", 0, cases) for cid, cases in inputs.items()]
    for key, count, cases in named:
        texts = cases.texts if isinstance(cases, Exact) else [_text(c) for c in cases]  # written once by exact()
        data = f"[{','.join(texts)}]".encode("ascii")
        entries[key] = [offset, len(data), hashlib.sha256(data).hexdigest(), count]
        parts.append(data)
        offset += len(data)
    header = {
        "format": FORMAT,
        "made_from": source_digest or made_from(),
        "machine": measured_on or machine(),
        "seconds": [[fn, label, float(s)] for (fn, label), s in seconds.items()],
        "entries": entries,
    }
    header["digest"] = header_digest(header)
    return json.dumps(header, sort_keys=True).encode("ascii") + b"\n" + b"".join(parts)


def header_digest(header):
    """The sha256 of a header's every field but ``digest`` itself: its times, machine and entries' places included."""
    fields = {key: value for key, value in header.items() if key != "digest"}
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode("ascii")).hexdigest()


def loads(data, checks, source_digest=None):
    """The Prepared of a store's bytes (or a memory map of them) for ``checks``; StoreError when it cannot be used."""
    end = data.find(b"\n")
    if end < 0:
        raise StoreError("it has no header line")
    try:
        header = json.loads(bytes(data[:end]))
    except ValueError:
        raise StoreError("its first line is not the store's header") from None
    if type(header) is not dict or header.get("format") != FORMAT:
        raise StoreError(f"not a store of format {FORMAT}")
    if header.get("made_from") != (source_digest or made_from()):
        raise StoreError("stale: the kit's or the course's files changed since it was written")
    if type(header.get("digest")) is not str or header["digest"] != header_digest(header):
        raise StoreError("its header is not the one written with it (damaged, or its times or entries edited)")
    by_id = {check.id: check for check in checks}
    body = memoryview(data)[end + 1 :]
    try:
        entries = {}
        for key, (offset, length, digest, count) in header["entries"].items():
            if not (
                type(offset) is int
                and type(length) is int
                and 0 <= offset
                and offset + length <= len(body)
                and type(digest) is str
                and type(count) is int
            ):
                raise StoreError(f"{key}: an entry outside the file")
            if key.split("/", 1)[-1] in by_id:
                entries[key] = (offset, length, digest, count)
        seconds = {}
        if header.get("machine") == machine():
            for fn, label, value in header["seconds"]:
                if type(value) is not float or not math.isfinite(value) or value < 0:
                    raise StoreError(f"a time that is no time ({value!r})")
                seconds[(fn, label)] = value
    except (KeyError, TypeError, ValueError) as err:
        if isinstance(err, StoreError):
            raise
        raise StoreError(f"its header is not laid out as a store's ({type(err).__name__})") from None
    return Prepared(entries, body, seconds, by_id)


def load(checks, where=None):
    """The store at ``where`` (default: the course's) for ``checks``, or an empty Prepared whose reason says why."""
    where = Path(where) if where is not None else path()
    try:
        with open(where, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
    except FileNotFoundError:
        return Prepared(reason=f"{where.name}: none yet (make prepare writes it)")
    except OSError as err:
        return Prepared(reason=f"{where}: cannot be read ({err.strerror or err})")
    try:
        return loads(data, checks)
    except StoreError as err:
        return Prepared(reason=f"{where.name}: {err}; ignored (make prepare writes it again)")
    except OSError as err:  # a source file went away while its digest was worked out
        return Prepared(reason=f"{where.name}: the sources it follows from cannot be read ({err.strerror or err})")
