"""Open a graded cohort (OUT, as `make grade` leaves it) in nbgrader's formgrader.

    make formgrader [OUT=out] [PORT=8888]
    python -m autograder.pipeline.formgrader [--out OUT] [--port PORT] [--ip 127.0.0.1]

JupyterLab starts in OUT, which is an nbgrader course folder, with nbgrader's server
extensions; the formgrader reads the course config there (OUT/nbgrader_config.py) and so
the same OUT/gradebook.db that `make grade` wrote. It prints the address to open, token
included, then becomes the Jupyter server, which serves until Ctrl+C. It listens on 127.0.0.1 only: on a remote machine,
forward the port over SSH (the printed hint says how). JUPYTER_TOKEN, when set, is the
token; otherwise a fresh one is drawn.
"""

import argparse
import os
import secrets
import sys
from pathlib import Path

from autograder.nbgrader import env

EXIT_CANNOT_START = 2


def command(out: Path, ip: str, port: int, token: str):
    """The JupyterLab command line that serves ``out`` with the formgrader as its start page."""
    args = [
        sys.executable, "-m", "jupyter", "lab", "--no-browser",
        f"--ServerApp.root_dir={out}", f"--ServerApp.ip={ip}", f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}", "--ServerApp.default_url=/formgrader",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--allow-root")  # Jupyter refuses root otherwise; containers often run as root
    return args


def banner(ip: str, port: int, token: str):
    url = f"http://{ip}:{port}/formgrader?token={token}"
    return "\n".join([
        f"formgrader: {url}",
        f"  on another machine: ssh -N -L {port}:127.0.0.1:{port} USER@THIS_HOST, then open the address above there",
        "  stop it with Ctrl+C",
    ])


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m autograder.pipeline.formgrader", description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out", help="the graded cohort's folder (default: out)")
    parser.add_argument("--ip", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8888, help="port to listen on (default: 8888)")
    args = parser.parse_args(argv)
    out = Path(args.out).resolve()
    missing = [name for name in ("nbgrader_config.py", "gradebook.db") if not (out / name).is_file()]
    if missing:
        print(f"formgrader: {out} holds no {' or '.join(missing)}: grade first with `make grade` "
              f"(`make grade OUT={args.out}` for this folder)", file=sys.stderr)
        return EXIT_CANNOT_START
    token = os.environ.get("JUPYTER_TOKEN") or secrets.token_hex(24)
    print(banner(args.ip, args.port, token), flush=True)
    # Jupyter takes this process's place, so Ctrl+C and signals reach it directly.
    os.chdir(out)
    line = command(out, args.ip, args.port, token)
    os.execve(line[0], line, env.environment(out / "cache" / "jupyter_config"))


if __name__ == "__main__":
    sys.exit(main())
