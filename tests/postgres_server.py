"""A PostgreSQL server of a test's own: Debian's initdb and pg_ctl, a data folder in a fresh temporary folder.

The server listens on a Unix socket in that folder only (no TCP port), trusts whoever can reach the socket,
and is stopped and its folder removed when the test is done. initdb refuses to run as root, so under root
the server runs as Debian's ``postgres`` user, in a folder handed over to it and left open to root.

``unavailable()`` says why no server can be started here (no PostgreSQL, no driver, no user to run it as),
for the tests to skip with that reason.
"""

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

USER = "graphkit"  # the database's superuser, made by initdb
ROOT_RUNS_AS = "postgres"  # Debian's postgresql package makes this system user
INSTALL = "install Debian's postgresql (as root: apt-get install postgresql; make test-postgres does it)"


def binaries():
    """The folder of the newest PostgreSQL's initdb and pg_ctl (Debian's layout, then PATH), or None."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda f: int(f.split("/")[-2]), reverse=True):
        if os.access(os.path.join(folder, "initdb"), os.X_OK):
            return Path(folder)
    found = shutil.which("initdb")
    return Path(found).resolve().parent if found and shutil.which("pg_ctl") else None


def unavailable():
    """Why no server can be started here, or '' when one can."""
    if binaries() is None:
        return f"PostgreSQL's initdb and pg_ctl are not installed: {INSTALL}"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return (
            "psycopg (the PostgreSQL driver) is not installed: .venv/bin/python -m pip install --editable '.[postgres]'"
        )
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(ROOT_RUNS_AS)
        except KeyError:
            return f"initdb refuses root and there is no {ROOT_RUNS_AS!r} user to run it as: {INSTALL}"
    return ""


class Server:
    """One running server; ``url(name)`` is an SQLAlchemy URL of database ``name`` (made by ``create``)."""

    def __init__(self):
        self.bin = binaries()
        self.folder = Path(tempfile.mkdtemp(prefix="graphkit-pg-"))
        self.data = self.folder / "data"
        self.user = None
        if os.geteuid() == 0:
            account = pwd.getpwnam(ROOT_RUNS_AS)
            os.chown(self.folder, account.pw_uid, account.pw_gid)
            self.user = ROOT_RUNS_AS
        self.folder.chmod(0o755)
        self._run(
            "initdb",
            "--pgdata",
            str(self.data),
            "--username",
            USER,
            "--auth",
            "trust",
            "--no-sync",
            "--encoding",
            "UTF8",
            "--locale",
            "C",
        )
        options = f"-k {self.folder} -c listen_addresses='' -c fsync=off -c full_page_writes=off"
        self._run(
            "pg_ctl",
            "start",
            "--pgdata",
            str(self.data),
            "--wait",
            "--log",
            str(self.folder / "server.log"),
            "-o",
            options,
        )

    def _run(self, program, *args):
        done = subprocess.run(
            [str(self.bin / program), *args],
            cwd=self.folder,
            user=self.user,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=120,
        )
        if done.returncode:
            raise RuntimeError(f"{program} exited {done.returncode}:\n{done.stdout}")

    def url(self, name):
        return f"postgresql://{USER}@/{name}?host={self.folder}"

    def create(self, name):
        """Make an empty database ``name``; return its URL."""
        import psycopg

        connection = psycopg.connect(dbname="postgres", user=USER, host=str(self.folder), autocommit=True)
        try:
            with connection.cursor() as cursor:
                cursor.execute(f'CREATE DATABASE "{name}"')
        finally:
            connection.close()
        return self.url(name)

    def stop(self):
        try:
            self._run("pg_ctl", "stop", "--pgdata", str(self.data), "--mode", "fast", "--wait")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
