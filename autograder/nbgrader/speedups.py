"""Work nbgrader repeats for every hand-in, done once per process; nothing it writes changes.

Measured with cProfile on the demo cohort's 23 hand-ins, three costs came back on every
hand-in although their result never changes within a batch:

- nbgrader's cell-metadata check (CheckCellMetadata) calls ``jsonschema.validate`` for
  every grade cell, which checks the schema itself each time before the cell: a fifth of
  autograde's CPU time. ``validate`` below checks each schema once and then the cells
  against it, raising the same first error jsonschema's ``best_match`` would. nbgrader
  reads its schema file again for every hand-in, so a schema is known by its content,
  not by its object: one validator per distinct schema, however many hand-ins (keyed by
  the object, the cache would keep every hand-in's copy of the schema and its validator).
- nbgrader's ``Gradebook`` creates a new SQLAlchemy engine each time it is opened, about
  ten times per hand-in, so SQLAlchemy compiles the same queries again and again, and opens
  a new database connection for each, a fifth of autograde's time.
  ``install`` makes the engines of one process one per database URL, each keeping the
  connections its sessions are done with: every ``Gradebook`` still opens its own session,
  which takes a kept connection (reset when it was given back) or opens one more, never
  waiting for another's. A kept connection to a SQLite file is used only while that path
  still names the file it opened; a gradebook replaced since gets a new one. Engines are
  per process, never shared across a fork.
- Each ``Gradebook`` asks SQLAlchemy to create any missing table, which looks each of the
  thirteen tables up with a query of its own: about 140 queries per hand-in, a ninth of
  autograde's time. ``create_all`` below first reads the names of the database's tables in one
  query (SQLite's or PostgreSQL's) and, when every table is there, has nothing to create;
  otherwise SQLAlchemy's own runs.
- A new gradebook records nbgrader's database version, which nbgrader learns by running the
  ``alembic heads`` command: a new Python that imports nbgrader again, about 3 s of every cold
  batch. ``alembic_head`` reads the same version from nbgrader's migration scripts in this
  process (alembic's own ScriptDirectory, what that command reads), once per process; should
  the scripts ever have more than one head, nbgrader's own way decides.
- The feedback step builds a new Jinja environment per hand-in and compiles nbconvert's
  templates again each time. ``CachedHTMLExporter`` keeps the compiled templates in a
  bytecode cache of this process, checked against each template's source.
- The same code and Markdown cells are rendered again on every page: page_memo.py keeps each rendering.
- HTMLExporter then parses the whole page with BeautifulSoup and writes it out again, to add
  tab stops and images' alternative text: half of the feedback step. ``accessible`` adds the
  same attributes to the template's own tags without a parse.

Loading this module also keeps ``jsonschema`` (imported by nbformat) from loading the
optional ``rfc3987_syntax``, which builds dozens of parsers at import for the ``iri`` formats
that no notebook or nbgrader schema uses: about a second of every batch's start-up.
"""

import functools
import json
import os
import re
import sys

if "jsonschema" not in sys.modules:
    sys.modules.setdefault("rfc3987_syntax", None)  # an import of it now raises ImportError, as if not installed

_engines = {}  # (process id, database URL, options): the SQLAlchemy engine
_validators = {}  # the schema as JSON text: its validator
_last_schema = []  # (schema object, its validator): the one nbgrader's current validator holds
_installed = []


def validate(instance, schema):
    """``jsonschema.validate(instance, schema)``, with the schema checked once per process."""
    from jsonschema import exceptions, validators

    if _last_schema and _last_schema[0][0] is schema:
        validator = _last_schema[0][1]
    else:
        text = json.dumps(schema)  # in its own key order, which can decide the error reported first
        validator = _validators.get(text)
        if validator is None:
            cls = validators.validator_for(schema)
            cls.check_schema(schema)
            validator = _validators[text] = cls(schema)  # this first copy, kept with its validator
        _last_schema[:] = [(schema, validator)]
    error = exceptions.best_match(validator.iter_errors(instance))
    if error is not None:
        raise error


class _Jsonschema:
    """What nbgrader's metadata validator uses of the jsonschema module."""

    validate = staticmethod(validate)


def _engine_factory(create_engine):
    from sqlalchemy.pool import QueuePool

    def engine(url, **options):
        key = (os.getpid(), str(url), tuple(sorted(options.items())))
        if key not in _engines:
            # One connection kept, and as many more opened as sessions need at once (no overflow limit):
            # a Gradebook left open never holds one up for another.
            made = create_engine(url, **{"poolclass": QueuePool, "pool_size": 1, "max_overflow": -1, **options})
            if made.dialect.name == "sqlite" and made.url.database not in (None, "", ":memory:"):
                _same_file_only(made, made.url.database)
            # Gradebook.close disposes of its engine, closing the connections kept; this one is the process's own
            made.dispose = lambda close=True: None
            _engines[key] = made
        return _engines[key]

    return engine


def _file_of(path):
    """(device, inode) of the file at ``path``, or None when there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _same_file_only(engine, path):
    """Give out a kept SQLite connection only while ``path`` names the file it opened: a connection holds its
    file open, so that file's inode cannot name another; a gradebook replaced or removed since gets a new one."""
    from sqlalchemy import event, exc

    @event.listens_for(engine, "connect")
    def opened(connection, record):
        record.info["file"] = _file_of(path)

    @event.listens_for(engine, "checkout")
    def taken(connection, record, proxy):
        if record.info.get("file") != _file_of(path):
            raise exc.DisconnectionError(f"{path} is not the file this connection opened")


def _create_all_factory(metadata):
    create_all = metadata.create_all

    def create_missing(bind, tables=None, checkfirst=True):
        if tables is None and checkfirst:
            with bind.connect() as connection:
                if bind.dialect.name == "sqlite":
                    names = {
                        row[0]
                        for row in connection.exec_driver_sql("SELECT name FROM sqlite_master WHERE type = 'table'")
                    }
                else:  # a database server (PostgreSQL): its tables' names in one query too
                    from sqlalchemy import inspect

                    names = set(inspect(connection).get_table_names())
            if names >= set(metadata.tables):
                return
        create_all(bind=bind, tables=tables, checkfirst=checkfirst)

    return create_missing


def _alembic_head_factory(get_alembic_version):
    @functools.cache
    def alembic_head():
        from alembic.config import Config
        from alembic.script import ScriptDirectory
        from nbgrader.dbutil import _temp_alembic_ini

        with _temp_alembic_ini("sqlite:////tmp/gradebook.db") as ini:  # the file nbgrader's command reads
            heads = ScriptDirectory.from_config(Config(ini)).get_heads()
        return heads[0] if len(heads) == 1 else get_alembic_version()

    return alembic_head


def install():
    """Apply the measures above to nbgrader in this process (once)."""
    if _installed:
        return
    import nbgrader.api
    import nbgrader.nbgraderformat.common

    nbgrader.nbgraderformat.common.jsonschema = _Jsonschema
    nbgrader.api.create_engine = _engine_factory(nbgrader.api.create_engine)
    nbgrader.api.Base.metadata.create_all = _create_all_factory(nbgrader.api.Base.metadata)
    nbgrader.api.get_alembic_version = _alembic_head_factory(nbgrader.api.get_alembic_version)
    _installed.append(True)


def _bytecode_cache():
    from jinja2.bccache import BytecodeCache

    class MemoryBytecodeCache(BytecodeCache):
        """Compiled templates held by this process, by template name and source checksum."""

        def __init__(self):
            self.store = {}

        def load_bytecode(self, bucket):
            code = self.store.get(bucket.key)
            if code is not None:
                bucket.bytecode_from_string(code)

        def dump_bytecode(self, bucket):
            self.store[bucket.key] = bucket.bytecode_to_string()

    return MemoryBytecodeCache()


_templates = []  # the process's one bytecode cache, made on first use


NO_ALT = "No description has been provided for this image"
_FOCUSABLE = re.compile(r'<div class="((?:[^"]* )?(?:jp-Cell-inputWrapper|jp-OutputArea-output)(?: [^"]*)?)"')
_IMAGE_WITHOUT_ALT = re.compile(r"<img(?![^>]*\salt=)")


def accessible(html):
    """What HTMLExporter's BeautifulSoup pass adds to a page, without parsing it: a tab stop on every cell's input and
    output, and alternative text on every image that has none.

    The page's markup is nbconvert's template around content already cleaned to a fixed set of tags and
    attributes (sanitize/), in which no learner class survives: the two classes are the template's.
    Parsing and writing the page again took half of the feedback step's time.
    """
    html = _FOCUSABLE.sub(r'<div tabindex="0" class="\1"', html)
    return _IMAGE_WITHOUT_ALT.sub(f'<img alt="{NO_ALT}"', html)


@functools.lru_cache(maxsize=1)
def exporter_class():
    """nbconvert's HTMLExporter, whose Jinja environment shares this process's compiled templates, and which adds
    its accessibility attributes without re-parsing the page (accessible)."""
    from jinja2 import pass_context
    from nbconvert.exporters import HTMLExporter, TemplateExporter
    from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter

    from autograder.nbgrader import page_memo

    highlighter = page_memo.highlight_class()

    class CachedHTMLExporter(HTMLExporter):
        def _create_environment(self):
            environment = super()._create_environment()
            if not _templates:
                _templates.append(_bytecode_cache())
            environment.bytecode_cache = _templates[0]
            return environment

        def from_notebook_node(self, nb, resources=None, **kw):
            # HTMLExporter.from_notebook_node's filters, then the page as its template writes it
            langinfo = nb.metadata.get("language_info", {})
            lexer = langinfo.get("pygments_lexer", langinfo.get("name", None))
            self.register_filter(
                "highlight_code", self.filters.get("highlight_code", highlighter(pygments_lexer=lexer, parent=self))
            )
            resources = self._init_resources(resources)
            self.register_filter(
                "filter_data_type",
                WidgetsDataTypeFilter(notebook_metadata=self._nb_metadata, parent=self, resources=resources),
            )
            html, resources = TemplateExporter.from_notebook_node(self, nb, resources, **kw)
            return accessible(html), resources

        @pass_context
        def markdown2html(self, context, source):
            key = page_memo.markdown_key(self, context, source)
            return page_memo.MARKDOWN.rendered(key, lambda: HTMLExporter.markdown2html(self, context, source))

    return CachedHTMLExporter
