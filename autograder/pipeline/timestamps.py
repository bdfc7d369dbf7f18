"""A hand-in's timestamp.txt, read as a time or refused: what the kit gives nbgrader in its place.

nbgrader reads ``<student>/<assignment>/timestamp.txt`` with dateutil, and a value it
cannot read stops autograde for that hand-in, so the batch stopped for everyone. Its
zone may also be a file path that dateutil opens as a zone file. Here the file's bytes
(read once, capped at ``MAX_BYTES``: nbgrader writes about 30) are parsed strictly:

    YYYY-MM-DD[ T]HH:MM[:SS[.ffffff]][ ][zone]

where the zone is ``UTC``, ``GMT``, ``Z`` or a numeric offset (``+01:00``, ``+0100``,
``+01``), and a time without one is UTC, as nbgrader takes it. What is mirrored is the
same instant in nbgrader's own format, ``YYYY-MM-DD HH:MM:SS.ffffff UTC``, so nbgrader
never parses a learner's text. Anything else is a ``BadTimestamp`` whose message says
what was found and the fix; the caller names the file.
"""

import datetime
import re

TIMESTAMP = "timestamp.txt"  # the file of a hand-in's time, beside its notebook (nbgrader's name)
MAX_BYTES = 1000
FORMAT = "%Y-%m-%d %H:%M:%S.%f UTC"
WRITTEN = "2025-03-14 08:00:00.000000 UTC"  # an example of nbgrader's own format, for the messages
FIX = (
    f"it must hold one time, as nbgrader writes it ({WRITTEN}); collect the hand-in again, or write the time "
    "it was handed in that way, and hand in again"
)
TIME = re.compile(
    r"(?P<year>[0-9]{4})-(?P<month>[0-9]{2})-(?P<day>[0-9]{2})[ T]"
    r"(?P<hour>[0-9]{2}):(?P<minute>[0-9]{2})(?::(?P<second>[0-9]{2})(?:\.(?P<fraction>[0-9]{1,6}))?)?"
    r" ?(?P<zone>UTC|GMT|Z|[+-][0-9]{2}(?::?[0-9]{2})?)?"
)


class BadTimestamp(ValueError):
    """timestamp.txt holds no time the kit reads; the message says what was found and the fix."""


def canonical(data):
    """nbgrader's text (with a newline) for the time in ``data``, the bytes of a timestamp.txt; BadTimestamp
    otherwise."""
    if len(data) > MAX_BYTES:
        raise BadTimestamp(f"{len(data):,} bytes, more than the cap of {MAX_BYTES:,} bytes; {FIX}")
    try:
        text = data.decode("utf-8-sig").strip()
    except UnicodeDecodeError:
        raise BadTimestamp(f"not UTF-8 text; {FIX}") from None
    if not text:
        raise BadTimestamp(f"empty; {FIX}")
    match = TIME.fullmatch(text)
    if not match:
        raise BadTimestamp(f"{_shown(text)} is not a time the grader reads; {FIX}")
    fields = {k: int(v) for k, v in match.groupdict().items() if k not in ("fraction", "zone") and v is not None}
    fraction = (match["fraction"] or "").ljust(6, "0")
    try:
        when = datetime.datetime(microsecond=int(fraction), **fields)
        when -= _offset(match["zone"])
    except (ValueError, OverflowError):
        raise BadTimestamp(f"{_shown(text)} is no day and time there is; {FIX}") from None
    return when.strftime(FORMAT) + "\n"


def _offset(zone):
    if zone in (None, "UTC", "GMT", "Z"):
        return datetime.timedelta(0)
    digits = zone[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:] or 0)
    if hours > 23 or minutes > 59:
        raise ValueError(zone)
    offset = datetime.timedelta(hours=hours, minutes=minutes)
    return -offset if zone[0] == "-" else offset


def _shown(text):
    """The text as a message shows it: quoted, escaped, cut short."""
    return repr(text[:60] + ("..." if len(text) > 60 else ""))


def duration(seconds):
    """A span of time as a person reads it: "2 d 3 h", "5 h 20 min", "40 min", "30 s" (never thousands of hours).

    Days and hours when it is a day or more, hours and minutes under a day, minutes under
    an hour; a part that is 0 is left out (except the only one), and the last part is rounded.
    """
    seconds = max(0, round(seconds))
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3_600)
    minutes, secs = divmod(rest, 60)
    if days:
        hours = round((seconds - days * 86_400) / 3_600)
        if hours == 24:
            days, hours = days + 1, 0
        parts = [(days, "d"), (hours, "h")]
    elif hours:
        minutes = round((seconds - hours * 3_600) / 60)
        if minutes == 60:
            hours, minutes = hours + 1, 0
        parts = [(hours, "h"), (minutes, "min")] if hours < 24 else [(1, "d"), (0, "h")]
    elif minutes:
        parts = [(minutes + (secs >= 30), "min")] if minutes + (secs >= 30) < 60 else [(1, "h")]
    else:
        parts = [(secs, "s")]
    shown = [f"{count} {unit}" for count, unit in parts if count] or [f"{parts[0][0]} {parts[0][1]}"]
    return " ".join(shown)
