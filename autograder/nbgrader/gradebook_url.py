"""Where a course folder's gradebook lives: nbgrader's ``CourseDirectory.db_url``, checked before anything uses it.

By default the gradebook is OUT/gradebook.db, an SQLite file, as nbgrader makes it. Several
graders working at once want a database server instead (nbgrader's FAQ warns that SQLite
does not take writers at the same time well): ``make grade DB_URL=postgresql://...`` gives
one, and the folder remembers it. The URL is written into OUT's copy of the course config
(``c.CourseDirectory.db_url``), where nbgrader itself looks, so the formgrader, ``make roster``,
``make export-canvas`` and nbgrader commands run by hand in OUT all open the same gradebook.

Because the URL lands in a file, it may carry no password: PostgreSQL's client reads one from
``~/.pgpass`` or the ``PGPASSWORD`` variable. Only the two kinds the kit is tested with are
taken, SQLite and PostgreSQL (``postgresql://`` uses the ``psycopg`` driver, the ``postgres`` extra).
"""

import json

SETTING = """
# Added by autograder.pipeline.batch (make grade DB_URL=...): the gradebook of this folder, for every command run here.
c.CourseDirectory.db_url = {url}
"""
KINDS = ("sqlite", "postgresql")


class GradebookUrlError(ValueError):
    """The URL cannot be used; the message says why and what to give instead."""


def check(url):
    """``url`` if the kit can use it as a gradebook; GradebookUrlError otherwise."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    if not isinstance(url, str) or not url.strip() or len(url) > 2000 or any(ord(c) < 32 for c in url):
        raise GradebookUrlError("a gradebook URL is one line of text, e.g. postgresql://grader@dbhost/course")
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise GradebookUrlError(
            f"{url!r} is not a database URL; write it as postgresql://USER@HOST[:PORT]/DATABASE "
            "or sqlite:////absolute/path/gradebook.db"
        ) from None
    if parsed.get_backend_name() not in KINDS:
        raise GradebookUrlError(
            f"{parsed.get_backend_name()!r}: the kit keeps its gradebook in {' or '.join(KINDS)} only"
        )
    if parsed.password is not None:
        raise GradebookUrlError(
            "the URL holds a password, and it would be written into OUT/nbgrader_config.py; "
            "leave it out of the URL and give it in ~/.pgpass or PGPASSWORD instead"
        )
    if parsed.get_backend_name() == "postgresql":
        try:
            parsed.get_dialect().import_dbapi()
        except ImportError:
            raise GradebookUrlError(
                "the PostgreSQL driver is not installed: .venv/bin/python -m pip install --editable '.[postgres]'"
            ) from None
    elif parsed.database and not parsed.database.startswith("/"):
        raise GradebookUrlError(f"{url!r}: give an SQLite gradebook's absolute path, sqlite:////path/to/gradebook.db")
    return url


def folder_default(root):
    """The gradebook nbgrader uses in course folder ``root`` when nothing is configured."""
    return f"sqlite:///{root / 'gradebook.db'}"


def setting(url):
    """The lines of OUT's config that name ``url`` as the gradebook (a Python string literal: json quotes it safely)."""
    return SETTING.format(url=json.dumps(url))


def is_file(url):
    return url.startswith("sqlite:")
