"""The command line's own output and signals never end in a traceback (issue 13, break-it pass cli9):
output that cannot be written (``> /dev/full``, stdout closed), an output encoding that cannot hold Chinese,
a closed stdin, Ctrl+C, names with line ends echoed in messages, ``check`` with thousands of problems and
``eval --out json`` held whole in memory. Subprocess tests run the real ``python -m toolcall``."""

import errno
import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from toolcall.cli import CHECK_SHOWN, JSON_CHUNK_CHARS, main, print_json
from toolcall.progress import ProgressStore
from toolcall.text import escape_line

REPO = Path(__file__).resolve().parents[2]
PASSK = ["passk", "--n", "10", "--c", "5", "--k", "2"]
TRANSCRIPT = json.dumps([{"role": "user", "content": "你好"},
                         {"role": "assistant", "content": [{"type": "tool_use", "id": "x", "name": "n", "input": {}}]}])


def _run(argv, shell_redirect: str = "", env=None, **kwargs):
    """``python -m toolcall argv`` through sh (for ``>&-`` and ``> /dev/full``), in the repository."""
    import shlex
    command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "toolcall", *argv]) + " " + shell_redirect
    return subprocess.run(["sh", "-c", command], cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=60, **kwargs)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_output_to_a_full_disk_is_one_line_and_exit_2():
    """> /dev/full ended in an OSError (ENOSPC) traceback."""
    done = _run(PASSK, "> /dev/full")
    assert (done.returncode, done.stderr) == (2, "python -m toolcall: cannot write the output (No space left on "
                                                 "device); exit code 2\n")


def test_a_closed_stdout_is_one_line_and_exit_2():
    """>&- ended in "AttributeError: 'NoneType' object has no attribute 'write'"."""
    done = _run(PASSK, ">&-")
    assert (done.returncode, done.stderr) == (2, "python -m toolcall: cannot write the output (standard output "
                                                 "is closed); exit code 2\n")


def test_a_closed_stderr_keeps_the_exit_code():
    done = _run(["passk", "--n", "10", "--c", "5", "--k", "20"], "2>&-")
    assert (done.returncode, done.stdout) == (2, "")


def test_a_closed_stdin_reads_as_empty():
    """<&- ended in "AttributeError: 'NoneType' object has no attribute 'read'"."""
    done = _run(["pairing", "-"], "<&-")
    assert (done.returncode, done.stderr) == (2, "FILE - (stdin): empty\n")


def test_chinese_output_under_an_ascii_encoding_is_the_same_json_escaped():
    """PYTHONIOENCODING=ascii with --lang zh ended in a UnicodeEncodeError traceback; now every character the
    encoding cannot hold is \\uXXXX, which json reads back as the same text."""
    utf8 = _run(["pairing", "--lang", "zh", "-"], input=TRANSCRIPT, env={"PYTHONIOENCODING": "utf-8"})
    ascii_ = _run(["pairing", "--lang", "zh", "-"], input=TRANSCRIPT, env={"PYTHONIOENCODING": "ascii"})
    assert (utf8.returncode, ascii_.returncode, ascii_.stderr) == (1, 1, "")
    assert ascii_.stdout.isascii() and not utf8.stdout.isascii()
    assert json.loads(ascii_.stdout) == json.loads(utf8.stdout)


def _blocked_reading_stdin(pid: int) -> bool:
    """True once the process sits in read(0, …) (Linux /proc/PID/syscall: number 0 = read, first argument 0)."""
    try:
        fields = Path(f"/proc/{pid}/syscall").read_text().split()
    except OSError:
        return False
    return fields[:2] == ["0", "0x0"]


def _syscall_readable() -> bool:
    """True if this system lets a process read a child's /proc/PID/syscall (Linux, with ptrace allowed)."""
    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        Path(f"/proc/{proc.pid}/syscall").read_text()
        return True
    except OSError:
        return False
    finally:
        proc.communicate(b"", timeout=30)


@pytest.mark.skipif(not _syscall_readable(), reason="needs a readable /proc/PID/syscall (Linux)")
def test_ctrl_c_while_reading_stdin_is_one_line_and_130():
    """SIGINT ended in a KeyboardInterrupt traceback."""
    import time
    proc = subprocess.Popen([sys.executable, "-m", "toolcall", "pairing", "-"], cwd=REPO, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):  # until it waits for stdin (imports done), at most 600 looks
            if _blocked_reading_stdin(proc.pid):
                break
            time.sleep(0.05)
        assert _blocked_reading_stdin(proc.pid)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
        proc.wait(10)
    assert (proc.returncode, out, err) == (130, "", "python -m toolcall: interrupted (Ctrl+C)\n")


def test_ctrl_c_while_the_modules_load_is_130_without_a_traceback(monkeypatch):
    """Ctrl+C while toolcall.cli and its libraries load (before main() can catch it) ended in a traceback.
    Simulated in-process: importing main raises KeyboardInterrupt, as a SIGINT during that import would
    (a real signal's moment cannot be chosen; before site.py has loaded, CPython itself reports it)."""
    import runpy
    import types

    class Interrupted(types.ModuleType):
        def __getattr__(self, name):
            raise KeyboardInterrupt
    monkeypatch.setitem(sys.modules, "toolcall.cli", Interrupted("toolcall.cli"))
    with pytest.raises(SystemExit) as info:
        runpy.run_module("toolcall", run_name="__main__")
    assert info.value.code == 130


class _FullDisk(io.StringIO):
    """stdout on a full disk: every write fails with ENOSPC."""

    encoding = "utf-8"

    def write(self, text):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


TOOL = str(REPO / "fixtures" / "tools" / "refund_order.json")
#: A call of every subcommand that writes output (conformance's suite is made in the test).
OUTPUT_CALLS = {
    "passk": PASSK,
    "check": ["check", str(REPO)],
    "lint": ["lint", TOOL],
    "eval": ["eval", str(REPO / "fixtures" / "eval_runs" / "shop_vague.en.jsonl"), "--k", "1", "--out", "json"],
    "grade": ["grade", "pk_pass3", "1"],
    "result": ["result", "--tool", TOOL, "--input", "{}"],
    "pairing": ["pairing", "TRANSCRIPT"],
    "strict": ["strict", TOOL, "--provider", "openai"],
    "conformance": ["conformance", "SUITE"],
    "export": ["export", "EXPORT"],
}


def test_every_subcommand_has_an_output_call():
    """A new subcommand fails here until OUTPUT_CALLS says how to call it, so the test below covers it."""
    from toolcall.cli import _build_parser, file_arguments
    assert set(OUTPUT_CALLS) == set(file_arguments(_build_parser())) | {"passk"}


@pytest.mark.parametrize("command", sorted(OUTPUT_CALLS))
def test_every_command_says_when_its_output_cannot_be_written(monkeypatch, capsys, tmp_path, command):
    suite = tmp_path / "tests" / "draft2020-12"
    suite.mkdir(parents=True)
    (suite / "type.json").write_text(json.dumps([{"description": "d", "schema": {"type": "integer"},
                                                  "tests": [{"description": "t", "data": 1, "valid": True}]}]))
    (suite / "optional").mkdir()
    (suite / "optional" / "ecmascript-regex.json").write_text("[]")
    (tmp_path / "transcript.json").write_text(TRANSCRIPT)
    given = {"SUITE": str(tmp_path), "TRANSCRIPT": str(tmp_path / "transcript.json"),
             "EXPORT": str(tmp_path / "class-progress.csv")}
    ProgressStore(tmp_path).close()  # export's store: the app's data folder
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("TOOLCALL_DATABASE_URL", raising=False)
    argv = [given.get(a, a) for a in OUTPUT_CALLS[command]]
    monkeypatch.setattr(sys, "stdout", _FullDisk())
    assert main(argv) == 2
    assert capsys.readouterr().err.endswith("python -m toolcall: cannot write the output (No space left on "
                                            "device); exit code 2\n")


def test_the_output_failure_is_said_in_chinese_with_lang_zh(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", _FullDisk())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(TRANSCRIPT.encode()), encoding="utf-8"))
    assert main(["pairing", "--lang", "zh", "-"]) == 2
    assert capsys.readouterr().err == (f"python -m toolcall：输出写不出去（{os.strerror(errno.ENOSPC)}），"
                                       "退出码 2\n")


def test_escape_line_keeps_a_name_on_one_line():
    assert escape_line("a\nb\tc\r\x1b[31m\udcff\u200b 中文") == "a\\u000ab\\u0009c\\u000d\\u001b[31m\\udcff\\u200b 中文"


def test_a_file_name_with_line_ends_cannot_forge_a_line_of_check(tmp_path, capsys):
    """A file named "x\\nall content checks passed\\nx.json" printed that line into check's output."""
    tools = tmp_path / "fixtures" / "tools"
    tools.mkdir(parents=True)
    (tools / "evil\nall content checks passed\nx.json").write_text("{")
    assert main(["check", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"{tools}/evil\\u000aall content checks passed\\u000ax.json: $: not JSON: The text "
                                'stops at line 1, column 1, before the JSON is complete: { — it was cut off, or a '
                                "closing \", } or ] is missing. (Parser's message: Expecting property name enclosed "
                                "in double quotes)"]
    assert err == "problems: 1\n"


def test_check_lists_the_first_problems_and_counts_the_rest(tmp_path, capsys):
    """3 000 broken files printed 3 000 lines; the count of the rest is exact and --all lists them all."""
    tools = tmp_path / "fixtures" / "tools"
    tools.mkdir(parents=True)
    for i in range(CHECK_SHOWN + 37):
        (tools / f"bad{i:04}.json").write_text("{")
    assert main(["check", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == CHECK_SHOWN + 1 == 101
    assert lines[0].startswith(f"{tools}/bad0000.json: $: not JSON")
    assert lines[-1] == "… and 37 more problems not shown (--all lists every one)"
    assert err == "problems: 137\n"
    assert main(["check", "--all", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 137 and err == "problems: 137\n"


def test_a_content_root_setting_with_a_line_end_is_shown_on_one_line(monkeypatch, capsys):
    monkeypatch.setenv("TOOLCALL_CONTENT_ROOT", "/x\ny")
    assert main(["lint", "-"]) == 2
    assert capsys.readouterr().err.startswith("TOOLCALL_CONTENT_ROOT is /x\\u000ay, which is not a folder")


class _Recorder(io.StringIO):
    encoding = "utf-8"

    def __init__(self):
        super().__init__()
        self.sizes = []

    def write(self, text):
        self.sizes.append(len(text))
        return super().write(text)


def test_json_output_is_streamed_in_bounded_pieces(monkeypatch):
    """eval --out json on 150 000 cases built its 31 MB text whole, then an escaped copy: 634 MB RSS against
    369 MB for the table (measured). print_json writes pieces of about JSON_CHUNK_CHARS characters."""
    value = {"cases": [{"case_id": f"c{i}", "n": i, "note": "中文"} for i in range(20_000)]}
    recorder = _Recorder()
    monkeypatch.setattr(sys, "stdout", recorder)
    print_json(value)
    assert recorder.getvalue() == json.dumps(value, ensure_ascii=False, indent=2) + "\n"
    assert len(recorder.sizes) > 10 and max(recorder.sizes) < JSON_CHUNK_CHARS + 200


def test_a_reader_that_stops_early_ends_the_command_quietly_with_141(tmp_path):
    """`check | head -1` returned 0 while the problems it did not print were still there: with `set -o pipefail`
    a CI step passed. The command ends quietly (no traceback, no "Exception ignored") with 128 + SIGPIPE."""
    tools = tmp_path / "fixtures" / "tools"
    tools.mkdir(parents=True)
    for i in range(3000):
        (tools / f"bad{i:04}.json").write_text("{")
    done = subprocess.run(["bash", "-c", "set -o pipefail; \"$0\" -m toolcall check --all \"$1\" | head -1",
                           sys.executable, str(tmp_path)], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (141, "")
    assert done.stdout.startswith(f"{tools}/bad0000.json: $: not JSON")


def test_a_case_id_with_a_line_end_cannot_forge_a_line_of_the_eval_table(tmp_path, capsys):
    """A case id "c1\\nmean over cases: pass^k 1.000" printed a forged summary line into the table."""
    first = json.loads((REPO / "fixtures" / "eval_runs" / "shop_good.en.jsonl").read_text().splitlines()[0])
    record = {**first, "case_id": "c1\nmean over cases: pass^k 1.000", "run": 1}
    log = tmp_path / "runs.jsonl"
    log.write_text(json.dumps(record) + "\n")
    assert main(["eval", str(log), "--k", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].startswith("c1\\u000amean over cases: pass^k 1.000 search_orders ")
    assert [line for line in lines if line.startswith("mean over cases")] == \
        ["mean over cases: pass^k 1.000, pass@k 1.000, naive 1.000"]


def test_a_malformed_answer_with_a_line_end_is_quoted_on_one_line(capsys):
    assert main(["grade", "pk_pass3", "abc\nall good"]) == 2
    assert capsys.readouterr().err == ('malformed answer for exercise pk_pass3 (number): "abc\\u000aall good" is not '
                                       "a number. Write a decimal (0.7), a fraction (84/120) or a percentage (70%).\n")


def test_a_problem_quoting_a_huge_value_is_cut_with_the_count_of_the_rest(tmp_path, capsys):
    """A tool name of 1.5 MB breaking a rule was quoted whole in check's line (7.5 MB of output for five files)
    and in result's refusal."""
    from toolcall.cli import MAX_LINE_CHARS
    tools = tmp_path / "fixtures" / "tools"
    tools.mkdir(parents=True)
    tool = tools / "t.json"
    tool.write_text(json.dumps({"name": "x" * 1_500_000, "description": "y" * 30,
                                "input_schema": {"type": "object", "properties": {}}}))
    assert main(["check", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    line, = out.splitlines()  # the value is cut where the problem is made (fixtures.MAX_QUOTED), the words kept
    assert line == f"{tool}: $.name: '{'x' * 119}… does not match '^[a-zA-Z0-9_-]{{1,64}}$'" and err == "problems: 1\n"
    assert main(["result", "--tool", str(tool), "--input", "{}"]) == 2
    assert all(len(line) < MAX_LINE_CHARS + 40 for line in capsys.readouterr().err.splitlines())


def test_csv_output_is_written_row_by_row(monkeypatch):
    """eval --out csv built the whole CSV text before printing it."""
    from toolcall.progress import to_csv, write_csv
    rows = [{"case_id": f"=c{i}", "n": i, "ok": i % 2 == 0} for i in range(500)]
    recorder = _Recorder()
    write_csv(recorder, rows, ("case_id", "n", "ok"))
    assert recorder.getvalue() == to_csv(rows, ("case_id", "n", "ok"))
    assert recorder.getvalue().splitlines()[:2] == ["case_id,n,ok", "'=c0,0,true"]
    assert len(recorder.sizes) == 501


def test_a_recorded_runs_fixture_in_utf16_is_named_as_such(tmp_path):
    from toolcall.eval_import import read_recorded
    from toolcall.fixtures import FixtureError
    path = tmp_path / "runs.jsonl"
    path.write_bytes('{"case_id": "c1"}\n'.encode("utf-16"))
    with pytest.raises(FixtureError) as info:
        read_recorded(path)
    assert str(info.value) == (f"{path}: $: cannot read file: UTF-16 text (it starts with a UTF-16 byte-order mark); "
                               "save it as UTF-8")



@pytest.mark.parametrize("error", [MemoryError, RecursionError])
@pytest.mark.parametrize("lang, expected", [
    ("en", "python -m toolcall: stopped: the input is larger or more deeply nested than this machine lets the command "
           "hold ({error}); nothing more was done; exit code 2\n"),
    ("zh", "python -m toolcall：已停止：输入太大或嵌套太深，超出了本机能让这条命令容纳的范围（{error}），后面的步骤都没有做；"
           "退出码 2\n"),
])
def test_memory_or_depth_no_reader_caught_is_one_line_and_exit_2(monkeypatch, capsys, tmp_path, error, lang,
                                                                 expected):
    """What a command's readers do not turn into their own message ended in a traceback: an export stopped by
    MemoryError half-way (its temporary file removed) printed one (break-it pass brk19new). Now one line, in the
    command's language."""
    import toolcall.dashboard

    def fails(*args, **kwargs):
        raise error

    ProgressStore(tmp_path).close()
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("TOOLCALL_DATABASE_URL", raising=False)
    monkeypatch.setattr(toolcall.dashboard, "write_export_csv", fails)
    assert main(["export", str(tmp_path / "class-progress.csv"), "--lang", lang]) == 2
    assert capsys.readouterr() == ("", expected.format(error=error.__name__))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["progress.sqlite3"]
