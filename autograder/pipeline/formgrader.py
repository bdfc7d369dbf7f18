"""Open a graded cohort (OUT, as `make grade` leaves it) in nbgrader's formgrader.

    make formgrader [OUT=out] [PORT=8888]
    python -m autograder.pipeline.formgrader [--out OUT] [--port PORT] [--ip 127.0.0.1]

JupyterLab starts in OUT, which is an nbgrader course folder, with nbgrader's server
extensions; the formgrader reads the course config there (OUT/nbgrader_config.py) and so
the same gradebook that `make grade` wrote (OUT/gradebook.db, or the database
`make grade DB_URL=...` named, which OUT's config remembers). It prints the address to open, token
included, then becomes the Jupyter server, which serves until one Ctrl+C stops it (no
question asked). It listens on 127.0.0.1 only: on a remote machine, tunnel the port over
SSH (the printed hint says how). JUPYTER_TOKEN, when set, is the token; otherwise a fresh
one is drawn.

It is quiet: nbgrader's exchange (where its release and collect buttons move files
between instructor and learners on one machine) is a folder of OUT's own,
OUT/cache/exchange, so no page warns that it is missing and no request logs that it is
unwritable; the server logs warnings and errors only. Learners show by id until a roster
names them (`make roster CSV=...`, or nbgrader's own `nbgrader db student import` in OUT).

The pages say what the kit uses (autograder/nbgrader/formgrader_pages.py, a server extension):
every lesson shows as released, with no Release or Collect button, and the assignments page
opens with a note that hand-ins come in through `make grade` or `make collect`.
"""

import argparse
import os
import secrets
import sys
from pathlib import Path

from autograder.nbgrader import env

EXIT_CANNOT_START = 2


PAGES = (
    "autograder.nbgrader.formgrader_pages"  # a Jupyter server extension: the formgrader's pages as the kit uses them
)
NAMES_ESCAPED = "autograder.nbgrader.formgrader_names.EscapedNames"  # the submission page's exporter escapes names
EXCHANGE = Path("cache") / "exchange"  # under OUT: nbgrader's exchange folder, made when the formgrader starts


def command(out: Path, ip: str, port: int, token: str):
    """The JupyterLab command line that serves ``out`` with the formgrader as its start page."""
    args = [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        "--no-browser",
        f"--ServerApp.root_dir={out}",
        f"--ServerApp.ip={ip}",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        "--ServerApp.default_url=/formgrader",
        "--ServerApp.answer_yes=True",  # one Ctrl+C stops the server: no "Shutdown this server (y/[n])?"
        "--ServerApp.log_level=WARN",  # the address is printed above; Jupyter's start-up chatter is not
        "--LabApp.log_level=WARN",
        # an exchange that exists: no banner, no "Unwritable directory" per request
        f"--Exchange.root={out / EXCHANGE}",
        "--FormgradeExtension.debug=False",  # no dump of the loaded config on the assignments page (nor its warning)
        # the pages as the kit uses them: no draft, no Release or Collect
        f"--ServerApp.jpserver_extensions={PAGES}=True",
        # a submission page shows the learner's name as text, never markup
        f"--HTMLExporter.preprocessors={NAMES_ESCAPED}",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--allow-root")  # Jupyter refuses root otherwise; containers often run as root
    return args


def banner(ip: str, port: int, token: str, unnamed=0, out="out"):
    """What the terminal shows: the address, how to reach it from elsewhere, how to stop, and how to name learners."""
    url = f"http://{ip}:{port}/formgrader?token={token}"
    lines = [
        f"formgrader: {url}",
        f"  on another machine: ssh -N -L {port}:127.0.0.1:{port} USER@THIS_HOST, then open the address above there",
        "  stop it with Ctrl+C",
    ]
    if unnamed:
        lines.append(
            f"  {unnamed} learner(s) have no name and show by id; to name them: make roster CSV=roster.csv OUT={out}"
        )
    return "\n".join(lines)


def unnamed(out: Path):
    """How many learners of OUT's gradebook have neither a first nor a last name."""
    from autograder.nbgrader.course_folder import Course

    try:
        with Course(out).gradebook() as gradebook:
            return sum(1 for student in gradebook.students if not (student.first_name or student.last_name))
    except Exception:  # noqa: BLE001 -- a hint only: the formgrader itself says what is wrong with the gradebook
        return 0


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m autograder.pipeline.formgrader", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--out", default="out", help="the graded cohort's folder (default: out)")
    parser.add_argument("--ip", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8888, help="port to listen on (default: 8888)")
    args = parser.parse_args(argv)
    out = Path(args.out).resolve()
    from autograder.nbgrader.course_folder import Course

    if not Course(out).has_gradebook():
        print(
            f"formgrader: {out} holds no graded course (its nbgrader_config.py and gradebook): grade first with "
            f"`make grade` (`make grade OUT={args.out}` for this folder)",
            file=sys.stderr,
        )
        return EXIT_CANNOT_START
    token = os.environ.get("JUPYTER_TOKEN") or secrets.token_hex(24)
    (out / EXCHANGE).mkdir(parents=True, exist_ok=True)
    print(banner(args.ip, args.port, token, unnamed(out), args.out), flush=True)
    # Jupyter takes this process's place, so Ctrl+C and signals reach it directly.
    os.chdir(out)
    line = command(out, args.ip, args.port, token)
    os.execve(line[0], line, env.environment(out / "cache" / "jupyter_config"))


if __name__ == "__main__":
    sys.exit(main())
