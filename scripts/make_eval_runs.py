"""Generate the SIMULATED run logs in fixtures/eval_runs/ (no real model output is involved).

For every case of fixtures/selection/shop.<lang>.yaml and every version of the tool
descriptions (vague, good), draw ``runs_per_case`` outcomes from the per-request
probabilities in fixtures/eval_runs/simulation.yaml with a seeded numpy generator, turn each
outcome into a tool call (see that file's header), and write native JSONL:

    .venv/bin/python scripts/make_eval_runs.py            # rewrites fixtures/eval_runs/shop_*.jsonl

The same seed draws the same outcomes in both languages, so the English and Chinese logs
tell the same story. ``generate_lines`` (toolcall.simulation) is also used by bench/eval_scale.py. A spec
``python -m toolcall check`` would refuse is refused here too, each problem with the file and JSON path.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from toolcall import FIXTURES_DIR  # noqa: E402
from toolcall.files import ReadError, check_path, os_failure  # noqa: E402
from toolcall.fixtures import FixtureError, read_data  # noqa: E402
from toolcall.simulation import generate_lines, spec_problems  # noqa: E402
from toolcall.text import escape_line  # noqa: E402

#: Read from the content root (TOOLCALL_CONTENT_ROOT when set), as the app reads the logs: it read the checkout's
#: own files, so an instructor's copy got logs of the shipped set and the reproducibility test failed on it.
SPEC = FIXTURES_DIR / "eval_runs" / "simulation.yaml"
#: Problems printed before "… and N more", as ``python -m toolcall check`` prints them (its CHECK_SHOWN).
SHOWN_PROBLEMS = 100


def _refuse(problems) -> int:
    """Print ``problems`` (at most SHOWN_PROBLEMS, then how many more) on stderr, each with its file and JSON path;
    exit code 1."""
    lines = [str(p) for p in problems[:SHOWN_PROBLEMS]]
    if len(problems) > SHOWN_PROBLEMS:
        lines.append(f"… and {len(problems) - SHOWN_PROBLEMS:,} more (python -m toolcall check --all lists every one)")
    print("\n".join(lines), file=sys.stderr)
    return 1


def main(argv=None) -> int:
    """Exit 0 with the logs written, 1 for a spec or content problem (named with its file and path, as check names
    it), 2 for an --out folder it cannot write in: never a traceback. A missing simulation.yaml, a selection set that
    does not load, and an --out folder that does not exist each ended it in one (break-it pass brk19new)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(FIXTURES_DIR / "eval_runs"))
    args = parser.parse_args(argv)
    try:
        check_path(args.out, "folder")
    except ReadError as exc:
        print(f"--out {escape_line(args.out)}: {exc}", file=sys.stderr)
        return 2
    try:
        if problems := spec_problems(FIXTURES_DIR.parent):  # each with the file and JSON path, as check prints them
            return _refuse(problems)
        spec = read_data(SPEC)
        logs = [(lang, version) for lang in ("en", "zh") for version in spec["versions"]]
        for lang, version in logs:  # one run of each case first: what does not load stops it before any log is written
            generate_lines(lang, version, runs=1)
    except FixtureError as exc:  # no simulation.yaml, or a selection set or tool that does not load
        return _refuse(exc.problems)
    for lang, version in logs:  # one log held at a time
        path = Path(args.out) / f"shop_{version}.{lang}.jsonl"
        try:
            _write_new(path, ("\n".join(generate_lines(lang, version)) + "\n").encode("utf-8"))
        except OSError as exc:
            print(f"{escape_line(str(path))}: not written ({os_failure(exc)})", file=sys.stderr)
            return 2
        print(escape_line(str(path)))  # a folder's name as drawn: a line end or U+202E in it is an escape
    return 0


def _write_new(path: Path, data: bytes) -> None:
    """``data`` into a new file of its own beside ``path`` (O_EXCL, never followed), then renamed to ``path``, as
    ``python -m toolcall export`` writes: a FIFO at ``path`` hung the script for good, and a link there had the log
    written into the link's target, wherever it pointed. The new file has the mode open() would give it; it is
    removed on any failure."""
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    part = Path(name)
    try:
        mask = os.umask(0o022)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)
        with open(fd, "wb") as stream:
            stream.write(data)
        os.replace(part, path)
        part = None
    finally:
        if part is not None:
            part.unlink(missing_ok=True)


if __name__ == "__main__":
    raise SystemExit(main())
