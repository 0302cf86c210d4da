"""python -m toolcall conformance DIR: a bad file inside the suite folder is one line and exit 2 (issue 13).

The folder argument was checked, but the files in it were read with Path.read_text: a FIFO named
``*.json`` blocked the command forever, ``/dev/zero`` behind a symlink filled memory. Every kind of
bad file the CLI's own arguments are tested with (tests/unit/test_cli_bad_inputs.py) is placed in the
suite's ``tests/draft2020-12`` and in ``remotes``.
"""

import os
import subprocess
import sys

import pytest

from toolcall import REPO_ROOT

GOOD = '[{"description": "d", "schema": {"required": ["a"]}, "tests": [{"description": "t", "data": {}, "valid": false}]}]'


def _make_bad(path, kind):
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "loop":
        os.symlink(path.name, path)
    elif kind == "dev_zero":
        os.symlink("/dev/zero", path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "not_utf8":
        path.write_bytes(b'{"a": "\xff"}')
    elif kind == "not_json":
        path.write_text("[{", encoding="utf-8")
    elif kind == "too_big":
        with open(path, "wb") as fh:  # sparse: over the limit, never read
            fh.truncate(2 ** 30)


KINDS = ["fifo", "loop", "dev_zero", "folder", "not_utf8", "not_json", "too_big"]


@pytest.mark.parametrize("where", ["tests/draft2020-12", "remotes"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_bad_file_in_the_suite_is_one_line_and_exit_2(tmp_path, kind, where):
    bad = _suite(tmp_path) / where / "bad.json"
    _make_bad(bad, kind)
    _one_line(tmp_path, f"{bad}: ")


def _suite(root):
    """A minimal suite under ``root`` (one good file where the command expects one); returns ``root``."""
    tests = root / "tests" / "draft2020-12"
    (tests / "optional" / "format").mkdir(parents=True)
    (tests / "required.json").write_text(GOOD, encoding="utf-8")
    (tests / "optional" / "ecmascript-regex.json").write_text(GOOD, encoding="utf-8")
    (root / "remotes").mkdir()
    return root


def _one_line(root, start):
    """`conformance root` exits 2 with nothing on stdout and one line on stderr starting with ``start``."""
    run = subprocess.run([sys.executable, "-m", "toolcall", "conformance", str(root)], cwd=REPO_ROOT,
                         capture_output=True, text=True, timeout=120)
    lines = run.stderr.strip().splitlines()
    assert (run.returncode, run.stdout) == (2, ""), run.stderr[-500:]
    assert len(lines) == 1 and lines[0].startswith(start), run.stderr[-500:]


#: Files that read as JSON but are not suite files (run_file indexed them blindly: TypeError, KeyError,
#: AttributeError tracebacks), and JSON the reader cannot build (RecursionError, ValueError): each one line
#: naming the file and the JSON path, exit 2. ``where`` is the folder the file is placed in.
MALFORMED = {
    "object_not_list": ("tests/draft2020-12", '{"a": 1}', "$: not a suite test file"),
    "case_not_object": ("tests/draft2020-12", '["a"]', "$[0]: not a suite test file"),
    "tests_not_list": ("tests/draft2020-12", '[{"description": "d", "schema": {}, "tests": 5}]',
                       "$[0].tests: not a suite test file"),
    "valid_not_bool": ("tests/draft2020-12", '[{"description": "d", "schema": {}, "tests": [{"description": "t", '
                                             '"data": 1, "valid": "yes"}]}]', "$[0].tests[0].valid: not a suite"),
    "no_data": ("tests/draft2020-12", '[{"description": "d", "schema": {}, "tests": [{"description": "t", '
                                      '"valid": true}]}]', "$[0].tests[0]: not a suite test file"),
    "deep": ("tests/draft2020-12", "[" * 5000 + "]" * 5000, "$: not JSON: nested 5000 levels deep"),
    "int_5000_digits": ("tests/draft2020-12", "[" + "9" * 5000 + "]", "$: not JSON: Exceeds the limit"),
    "remote_dialect_not_string": ("remotes", '{"$schema": 5}', "$.$schema: not a string"),
    "remote_deep": ("remotes", "[" * 5000 + "]" * 5000, "$: not JSON: nested 5000 levels deep"),
}


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_a_malformed_suite_file_is_one_line_naming_its_json_path(tmp_path, kind):
    where, text, words = MALFORMED[kind]
    bad = _suite(tmp_path) / where / "bad.json"
    bad.write_text(text, encoding="utf-8")
    _one_line(tmp_path, f"{bad}: {words}")


def _nest(folder, levels: int):
    """``folder``/a/a/…/a, ``levels`` deep (made one level at a time: os.makedirs recurses per level)."""
    for _ in range(levels):
        folder = folder / "a"
        folder.mkdir()
    return folder


def test_a_remotes_tree_deeper_than_python_recurses_is_one_line(tmp_path):
    """Before (break-it pass brk16cli): remotes/ 1 400 folders deep ended in a RecursionError traceback (Path.rglob
    recursed once per level), exit 1."""
    from toolcall.conformance import MAX_REMOTE_DEPTH

    deepest = _nest(_suite(tmp_path) / "remotes", 1400)
    (deepest / "x.json").write_text("{}", encoding="utf-8")
    too_deep = tmp_path / "remotes" / "/".join(["a"] * (MAX_REMOTE_DEPTH + 1))
    try:
        _one_line(tmp_path, f"{too_deep}: remotes/ nests folders more than {MAX_REMOTE_DEPTH} levels deep; the "
                            "suite's own nest 2")
    finally:  # shutil.rmtree, which pytest cleans old temp folders with, recurses once per level too
        (deepest / "x.json").unlink()
        while deepest != tmp_path / "remotes":
            deepest.rmdir()
            deepest = deepest.parent


def test_remotes_within_the_limits_are_found_as_rglob_found_them(tmp_path):
    from toolcall.conformance import MAX_REMOTE_DEPTH, remote_files

    root = _suite(tmp_path) / "remotes"
    (_nest(root, MAX_REMOTE_DEPTH) / "deep.json").write_text("{}", encoding="utf-8")
    (root / "top.json").write_text("{}", encoding="utf-8")
    (root / "a" / "b.json").write_text("{}", encoding="utf-8")
    (root / "note.txt").write_text("", encoding="utf-8")
    os.symlink(root / "a", root / "link")  # a symlinked folder is not followed, as rglob did not
    assert remote_files(root) == sorted(root.rglob("*.json")) and len(remote_files(root)) == 3


@pytest.mark.parametrize("limit, files, size", [("MAX_REMOTE_FILES", 6, 10), ("MAX_REMOTE_BYTES", 2, 400)])
def test_too_many_remote_files_or_bytes_are_one_line(tmp_path, monkeypatch, limit, files, size):
    """The next member: remotes/ wide instead of deep; every file is parsed and kept for the whole run."""
    import toolcall.conformance as conformance

    monkeypatch.setattr(conformance, "MAX_REMOTE_FILES", 5)
    monkeypatch.setattr(conformance, "MAX_REMOTE_BYTES", 500)
    root = _suite(tmp_path) / "remotes"
    for i in range(files):
        (root / f"r{i}.json").write_text("{" + " " * (size - 2) + "}", encoding="utf-8")
    with pytest.raises(ValueError) as refused:
        conformance.remote_files(root)
    assert str(refused.value) == (f"{root}: remotes/ holds more than 5 .json files or 500 bytes of them; the "
                                  "suite's own hold 22 files, 30 KB")


def test_a_remotes_folder_of_many_other_files_is_refused_without_listing_them_all(tmp_path, monkeypatch):
    """Only .json files were counted: a folder of 300 000 other files was listed whole (70 MB more peak RSS, break-it
    pass brk17new). Entries of any kind are counted now, and no more than the cap is ever listed."""
    import toolcall.conformance as conformance

    assert conformance.MAX_REMOTE_ENTRIES == 10_000
    monkeypatch.setattr(conformance, "MAX_REMOTE_ENTRIES", 5)
    root = _suite(tmp_path) / "remotes"
    (root / "sub").mkdir(parents=True)
    for i in range(4):
        (root / "sub" / f"n{i}.txt").write_text("", encoding="utf-8")
    assert conformance.remote_files(root) == []  # 5 entries: within the cap
    (root / "sub" / "n4.txt").write_text("", encoding="utf-8")
    with pytest.raises(ValueError) as refused:
        conformance.remote_files(root)
    assert str(refused.value) == f"{root}: remotes/ holds more than 5 files and folders; the suite's own hold 27"
