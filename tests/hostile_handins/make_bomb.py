"""Write bomb_download.zip: an LMS download of about 2 KB that unpacks to more than 2 GB.

    .venv/bin/python tests/hostile_handins/make_bomb.py   # about half a minute; the file is committed

Two learners of the download hand in a bomb, each 1.1 GB of zero bytes packed with bzip2:

* eve_1005_2005_computation_graphs.ipynb, a top-level entry that says its size: the
  grader must refuse it without unpacking it;
* mallory_1003_2003_graphs.zip, an archive holding ada_1001_2001_computation_graphs.ipynb:
  a nested archive, which nbgrader's zip_collect unpacks (and then believes the name of,
  handing mallory's bomb in as ada's).
"""

import io
import zipfile
from pathlib import Path

BOMB_BYTES = 1_100_000_000
WHEN = (2025, 3, 14, 12, 0, 0)
HERE = Path(__file__).resolve().parent


def add_bomb(bundle, name):
    info = zipfile.ZipInfo(name, date_time=WHEN)
    info.compress_type = zipfile.ZIP_BZIP2
    block = bytes(1 << 20)
    with bundle.open(info, "w", force_zip64=True) as stream:
        left = BOMB_BYTES
        while left:
            stream.write(block[: min(left, len(block))])
            left -= min(left, len(block))


def main():
    nested = io.BytesIO()
    with zipfile.ZipFile(nested, "w") as inner:
        add_bomb(inner, "ada_1001_2001_computation_graphs.ipynb")
    with zipfile.ZipFile(HERE / "bomb_download.zip", "w") as outer:
        add_bomb(outer, "eve_1005_2005_computation_graphs.ipynb")
        info = zipfile.ZipInfo("mallory_1003_2003_graphs.zip", date_time=WHEN)
        outer.writestr(info, nested.getvalue())


if __name__ == "__main__":
    main()
