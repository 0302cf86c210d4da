"""Peak memory of reading ONE Inspect log or ``.eval`` member at the whole-document caps (toolcall.eval_import:
MAX_JSON_BYTES, MAX_JSON_VALUES): each shape (tests/eval_shapes.py: realistic samples, empty lists, long strings,
a τ-bench file) is built here, written to a file, then read by ``read_log`` in a fresh process, which prints the
peak of what Python allocated while reading (tracemalloc: the parsed objects, the unpacked member; not the upload's
own bytes, read before). Prints a Markdown table; bench/README.md section R holds one run. A benchmark, not a test
(tests/unit/test_eval_parse_peak.py bounds it).

    python bench/eval_parse_peak.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.eval_shapes import SHAPES  # noqa: E402
from toolcall.eval_import import MAX_JSON_BYTES, MAX_JSON_VALUES  # noqa: E402

READ = """
import sys, tracemalloc
sys.path.insert(0, {repo!r})
from toolcall.eval_import import LogError, read_log
read_log(b'{{"case_id": "a", "run": 0, "model": "m", "tools": [], "expected_calls": [], "actual_calls": []}}')
data = open({path!r}, "rb").read()
tracemalloc.start()
try:
    log = read_log(data, {fmt!r}, {name!r})
    outcome = f"{{len(log.runs)}} runs, problems: {{[p.code for p in log.problems][:2]}}"
except LogError as exc:
    outcome = f"refused: {{exc.code}}"
print(tracemalloc.get_traced_memory()[1] // 1024 ** 2, outcome)
"""


def main() -> None:
    """Each shape at the caps of the code checked out (run it on an older commit for the numbers before)."""
    print(f"MAX_JSON_BYTES {MAX_JSON_BYTES:,}, MAX_JSON_VALUES {MAX_JSON_VALUES:,}\n")
    print("| shape | upload bytes | peak allocated while reading, MB | outcome |\n|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for name, build in SHAPES.items():
            data, fmt, file_name = build()
            path = Path(folder) / file_name
            path.write_bytes(data)
            script = READ.format(repo=str(REPO), path=str(path), name=file_name, fmt=fmt)
            out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                 check=True).stdout.split(" ", 1)
            print(f"| {name} | {len(data):,} | {out[0]} | {out[1].strip()} |")


if __name__ == "__main__":
    main()
