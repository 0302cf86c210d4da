"""The dashboard's exports are written a page of rows at a time (issue 13, memory kind): built whole, the JSON
export of 100 000 learners took 594 MB of the class server (bench/README.md section S). The streamed files are byte
for byte what the whole-class builders (export_json, export_csv) return, on SQLite and PostgreSQL, and what the
writer holds does not grow with the class (tracemalloc, no clock read)."""

from __future__ import annotations

import io
import json
import sqlite3
import tracemalloc
from datetime import datetime, UTC

import pytest

from tests.pg import fresh_schema
from toolcall.dashboard import (ClassData, export_bytes, export_csv, export_json, write_export_csv,
                                write_export_json)
from toolcall.progress import ProgressStore, open_store

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
TITLES = {"pk_pass3": "pass^3 「三次」", "wt_order": 'order "quoted"', "never": "nobody tried"}
NAMES = {"ab-c": "Zoë \u200b Ng", "abc": "=cmd", "B_1": "李雷"}


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    if request.param == "sqlite":
        made = ProgressStore(tmp_path)
        yield _fill(made)
        made.close()
    else:
        with fresh_schema() as url:
            made = open_store(url)
            yield _fill(made)
            made.close()


def _fill(store):
    """Learners whose ids a locale's collation orders otherwise than code points (``ab-c``, ``abc``, ``B_1``, ``a``),
    ties in activity, answers with quotes, line ends, Chinese, a formula and a long one."""
    answers = ['0.5', 'say "hi"\nthen\tgo', "三分之一", "=HYPERLINK(1)", "x" * 3000, " 0.5 ", "0.729"]
    for n, who in enumerate(["ab-c", "abc", "B_1", "a", "a-", "Z9"]):
        for k in range(n + 1):
            store.record(who, "pk_pass3", answers[(n + k) % len(answers)], float(k == n), 1,
                         at=f"2026-11-30T11:{10 + k:02d}:00+00:00")
        if n % 2:
            store.reveal(who, "pk_pass3")
    store.show_hint("carol", "wt_order", 2)
    store.record("carol", "wt_order", "[\"b\", \"a\"]", 0.5, 1, at="2026-11-30T11:10:00+00:00")
    with store._tx() as execute:  # ties and spread in the learners' last activity (record stamps "now")
        for who, at in (("ab-c", "2026-11-30T11:31:00+00:00"), ("abc", "2026-11-30T11:31:00+00:00"),
                        ("B_1", "2026-11-30T09:02:00+00:00"), ("a", "2026-11-30T11:31:00+00:00"),
                        ("a-", "2026-11-29T08:00:00+00:00"), ("Z9", "2026-11-30T11:59:00+00:00"),
                        ("carol", "2026-11-30T08:00:00+00:00")):
            execute("UPDATE progress SET updated_at = ? WHERE learner = ?", (at, who))
    return store


@pytest.mark.parametrize("answer_bytes", [16_000_000, 3_020, 0])
def test_the_json_export_is_written_as_it_was_built(store, answer_bytes):
    attempts, left_out = store.export_attempts(max_answer_bytes=answer_bytes)
    whole = export_json(ClassData.load(store, NOW), TITLES, attempts, NAMES, now=NOW,
                        attempts_left_out=left_out).encode("utf-8")
    streamed = export_bytes(write_export_json, store, TITLES, names=NAMES, now=NOW, answer_bytes=answer_bytes)
    assert streamed == whole
    assert (b'"attempts": []' in streamed) == (answer_bytes == 0)


@pytest.mark.parametrize("budget", [16_000_000, 60])
def test_the_csv_export_is_written_as_it_was_built(store, budget, monkeypatch):
    monkeypatch.setattr("toolcall.progress.MAX_CSV_ANSWER_CHARS", budget)  # what ClassData.load reads for the cut
    whole = export_csv(ClassData.load(store, NOW, answers=True), NAMES)
    streamed = export_bytes(write_export_csv, store, names=NAMES, answer_budget=budget)
    assert streamed == whole
    assert ("…" in streamed.decode("utf-8")) == (budget == 60)


def test_the_json_export_of_an_empty_class():
    with io.BytesIO() as out, _empty() as store:
        write_export_json(store, {}, out, now=NOW)
        assert out.getvalue() == export_json(ClassData.load(store, NOW), {}, [], now=NOW).encode()


class _empty:
    def __enter__(self):
        import tempfile
        self.folder = tempfile.TemporaryDirectory()
        self.store = ProgressStore(__import__("pathlib").Path(self.folder.name))
        return self.store

    def __exit__(self, *exc):
        self.store.close()
        self.folder.cleanup()


def _bulk(store, learners: int) -> None:
    """``learners`` learners × 2 exercises × 2 tries, written straight into the tables (record() per row is slow)."""
    db = sqlite3.connect(store.path)
    with db:
        for n in range(learners):
            who = f"learner-{n:06d}"
            for e in ("ex_a", "ex_b"):
                db.executemany("INSERT INTO attempts VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                               [(f"t{n:06d}{e}{k}", who, e, f"answer {n % 50} {k}", float(k), 1.0, k,
                                 f"2026-11-30T10:{n % 60:02d}:{k:02d}.{n:06d}+00:00") for k in (0, 1)])
                db.execute("INSERT INTO progress VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (who, e, "answer", 1.0, 1.0, 1.0, 2, 1, 0, n % 2, "2026-11-30T10:00:00+00:00",
                            f"2026-11-30T10:{n % 60:02d}:00+00:00"))
    db.close()


class _Sink(io.RawIOBase):
    """A binary stream that keeps nothing but the number of bytes written."""

    def __init__(self):
        self.size = 0

    def writable(self):
        return True

    def write(self, b):
        self.size += len(b)
        return len(b)


def _peak(learners: int, tmp_path, write) -> tuple[int, int]:
    store = ProgressStore(tmp_path / str(learners))
    try:
        _bulk(store, learners)
        write(store, _Sink())  # the catalogues, the statements
        sink = _Sink()
        tracemalloc.start()
        try:
            write(store, sink)
            return tracemalloc.get_traced_memory()[1], sink.size
        finally:
            tracemalloc.stop()
    finally:
        store.close()


@pytest.mark.parametrize("write", [lambda store, out: write_export_json(store, {}, out, now=NOW),
                                   lambda store, out: write_export_csv(store, out)], ids=["json", "csv"])
def test_what_an_export_holds_does_not_grow_with_the_class(tmp_path, write):
    """The kind: an export's peak Python allocation for 8 times the class stays within a page's worth of what it
    is for the smaller one (main: the whole class's rows and the whole file, growing with every learner)."""
    small, small_size = _peak(1_500, tmp_path, write)
    large, large_size = _peak(12_000, tmp_path, write)
    assert large_size > 7 * small_size  # the file did grow with the class
    assert large < 1.5 * small + 1_000_000, (small, large)
    assert large < 8_000_000, large


def _cli(monkeypatch, capsys, folder, *argv) -> tuple[int, str, str]:
    from toolcall.cli import main
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(folder))
    monkeypatch.delenv("TOOLCALL_DATABASE_URL", raising=False)
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_writes_the_whole_class_as_the_page_would(tmp_path, monkeypatch, capsys):
    store = _fill(ProgressStore(tmp_path))
    try:
        for name in ("class-progress.json", "class-progress.csv"):
            code, out, err = _cli(monkeypatch, capsys, tmp_path, "export", str(tmp_path / name))
            written = (tmp_path / name).read_bytes()
            assert (code, err, out) == (0, "", f"{tmp_path / name}: written ({len(written):,} bytes)\n")
            assert not (tmp_path / (name + ".part")).exists()
        assert (tmp_path / "class-progress.csv").read_bytes() == export_bytes(write_export_csv, store)
        doc = json.loads((tmp_path / "class-progress.json").read_text("utf-8"))
        expected = json.loads(export_bytes(write_export_json, store, {}))  # now, as the command
        for key in ("overview", "learners", "attempts", "attempts_left_out"):
            assert doc[key] == expected[key], key
        titles = {row["exercise_id"]: row["title"] for row in doc["exercises"]}
        assert titles["pk_pass3"] != "pk_pass3"  # titled by the course
    finally:
        store.close()


@pytest.mark.parametrize("lang, argv, expected", [
    ("en", ["out.txt"], "{d}/out.txt: name the file class-progress.json or class-progress.csv (its suffix picks the "
                        "format); exit code 2\n"),
    ("zh", ["out.txt"], "{d}/out.txt：文件名请写成 class-progress.json 或 class-progress.csv（格式由后缀决定）；退出码 2\n"),
    ("en", ["missing/x.json"], "{d}/missing/x.json: not a file in an existing folder; exit code 2\n"),
    ("en", ["x.json"], "no progress database at {d}/progress.sqlite3: set TOOLCALL_DATA_DIR to the app's data folder, "
                       "or TOOLCALL_DATABASE_URL to its PostgreSQL; exit code 2\n"),
])
def test_the_command_refuses_what_it_cannot_write_and_creates_no_database(tmp_path, monkeypatch, capsys, lang,
                                                                          argv, expected):
    argv = [str(tmp_path / argv[0]), "--lang", lang]
    assert _cli(monkeypatch, capsys, tmp_path, "export", *argv) == (2, "", expected.format(d=tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_the_pages_hold_at_most_a_page_and_read_the_same_rows(store):
    """Pages of 2 and 3 rows (a server-side cursor fetched again and again on PostgreSQL) read what one page reads."""
    for read, small in ((store.class_learner_pages, 2), (store.class_progress_pages, 2),
                        (lambda page: store.export_attempt_pages(page=page)[1], 3)):
        pages, whole = list(read(page=small)), list(read(page=10_000))
        assert len(whole) == 1 and len(pages) == -(-len(whole[0]) // small) and max(map(len, pages)) == small
        assert [row for page in pages for row in page] == whole[0]


def test_the_command_says_an_unreachable_database_in_one_line(tmp_path, monkeypatch, capsys):
    """The pool logged each failed connection to stderr (four lines with the server's words) before the message.
    The line then said "the progress database is unreachable (retrying shortly)", from a command that retries
    nothing, of a server that refused the connection; it names the server and its reason now, as the class
    launcher does (toolcall.progress_pg.reach_problem; break-it pass brk17fresh)."""
    from toolcall.cli import main
    monkeypatch.setenv("TOOLCALL_DATABASE_URL", "postgresql://nobody@127.0.0.1:9/none?connect_timeout=1")
    assert main(["export", str(tmp_path / "x.json")]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"{tmp_path}/x.json: not written (cannot connect to the progress database server at "
                              "127.0.0.1 port 9: Connection refused. Start the server, or fix the host and port in "
                              "TOOLCALL_DATABASE_URL); exit code 2\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("url, where", [
    ("postgresql://nobody@/none?host=/tmp/toolcall-no-such-socket-folder", "/tmp/toolcall-no-such-socket-folder: No "
                                                                          "such file or directory"),
    ("postgresql://nobody@/none?host=/tmp/a%0Ab%1B", "/tmp/a\\u000ab\\u001b: "),
])
def test_the_command_names_why_the_server_cannot_be_reached(url, where, tmp_path, monkeypatch, capsys):
    """The next member: whatever stops the connection, the line says the server's reason, on one line."""
    from toolcall.cli import main
    monkeypatch.setenv("TOOLCALL_DATABASE_URL", url)
    assert main(["export", str(tmp_path / "x.csv")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "retrying" not in err and err.count("\n") == 1
    assert err.startswith(f"{tmp_path}/x.csv: not written (cannot connect to the progress database server at {where}")


@pytest.mark.parametrize("name", ["class-progress.json", "class-progress.csv"])
@pytest.mark.parametrize("what", ["link", "fifo"])
def test_a_link_or_fifo_where_the_part_file_was_is_left_alone(tmp_path, monkeypatch, capsys, name, what):
    """The command wrote into a fixed OUT.part: a link there had the export written into the link's target (a
    6 021-byte file over ``secret``) and OUT left a link to it; a FIFO there hung the command for good (killed at
    20 s). It writes a new file of its own beside OUT now (break-it pass brk18new)."""
    import os
    store = _fill(ProgressStore(tmp_path))
    store.close()
    out = tmp_path / "out"
    out.mkdir()
    (out / "victim.txt").write_text("secret")
    if what == "link":
        (out / (name + ".part")).symlink_to(out / "victim.txt")
    else:
        os.mkfifo(out / (name + ".part"))
    code, printed, err = _cli(monkeypatch, capsys, tmp_path, "export", str(out / name))
    written = out / name
    assert (code, err, printed) == (0, "", f"{written}: written ({written.stat().st_size:,} bytes)\n")
    assert (out / "victim.txt").read_text() == "secret" and not written.is_symlink()
    assert sorted(p.name for p in out.iterdir()) == sorted([name, name + ".part", "victim.txt"])
    assert oct(written.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask() -> int:
    import os
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@pytest.mark.parametrize("stop", [KeyboardInterrupt, MemoryError, OSError(28, "No space left on device")])
def test_an_export_stopped_half_way_leaves_no_part_file(tmp_path, monkeypatch, capsys, stop):
    """The kind: whatever stops an export half-way (Ctrl-C, memory, a full disk), no half-written file is left in
    the folder (main: OUT.part stayed after Ctrl-C or anything but a storage or OS error)."""
    import toolcall.dashboard
    store = _fill(ProgressStore(tmp_path))
    store.close()
    out = tmp_path / "out"
    out.mkdir()

    def half(store, out, *args, **kwargs):
        out.write(b"half")
        raise stop

    monkeypatch.setattr(toolcall.dashboard, "write_export_csv", half)
    code, printed, err = _cli(monkeypatch, capsys, tmp_path, "export", str(out / "x.csv"))
    if stop is MemoryError:  # a traceback before (brk19new): one line now, as for any command
        assert (code, printed, err) == (2, "", "python -m toolcall: stopped: the input is larger or more deeply nested "
                                               "than this machine lets the command hold (MemoryError); nothing more "
                                               "was done; exit code 2\n")
    else:
        assert (code, printed) == ((2, "") if isinstance(stop, OSError) else (130, ""))
        assert err.startswith(f"{out}/x.csv: not written (No space") if code == 2 else err.count("\n") == 1
    assert list(out.iterdir()) == []


_ESCAPE = ("as written: a user name or password holding @ or / must write them %-escaped, @ as %40 and / as %2F "
           "(p@ss/word is p%40ss%2Fword), else libpq reads part of the password as the host, the port or the "
           "database name; the URL is not repeated here because it may hold a password")


@pytest.mark.parametrize("url, reason", [
    ("postgresql://nobody:p@ss@127.0.0.1:9/none", f"the progress database URL holds a second @, {_ESCAPE}"),
    ("postgresql://nobody:hun/ter2@127.0.0.1:9/none", f"the progress database URL holds a / before its @, {_ESCAPE}"),
    ("postgresql://nobody:${PGPASSWORD}@127.0.0.1:9/none",
     "the progress database URL holds ${PGPASSWORD}, a variable no shell expanded (an env file, a systemd "
     "Environment= line or secrets.toml passes it as written): write its value into the URL"),
    ("postgresql://nobody@127.0.0.1:9/none?sslmode=bogus",
     'the progress database URL: libpq refuses it: invalid sslmode value: "bogus"'),
    ("postgresql://nobody@127.0.0.1:99999/none", "the progress database URL's port must be a number from 1 to 65535"),
])
def test_the_command_names_a_url_the_app_refuses_as_the_app_does(url, reason, tmp_path, monkeypatch, capsys):
    """The export asked only whether the server could be reached: a password p@ss written unescaped was "cannot
    connect to the progress database server at ss@127.0.0.1" (a piece of the password shown), hun/ter2 was "… at
    nobody port hun", ``sslmode=bogus`` and port 99999 said "Start the server". Every reach now refuses what
    url_problem refuses, with its words (break-it pass brk18new)."""
    from toolcall.cli import main
    monkeypatch.setenv("TOOLCALL_DATABASE_URL", url)
    assert main(["export", str(tmp_path / "x.json")]) == 2
    assert capsys.readouterr() == ("", f"{tmp_path}/x.json: not written ({reason}); exit code 2\n")
    assert list(tmp_path.iterdir()) == []


def test_every_reach_refuses_what_url_problem_refuses():
    """The next member: whichever caller asks reach (the launcher, the export, the next command), a URL
    url_problem refuses gets url_problem's reason and no connection attempt."""
    from toolcall.progress_pg import reach, url_problem
    for url in ("postgresql://u:a@b@127.0.0.1:9/db", "postgresql://u@127.0.0.1:0/db", "postgresql://[::1/db",
                "postgresql://u@127.0.0.1:9/db?nosuch=1", "postgresql://u:${TOOLCALL_NOPE}@127.0.0.1:9/db"):
        assert url_problem(url) is not None, url
        assert reach(url) == (url_problem(url), None), url


@pytest.mark.parametrize("lang, what, reason", [
    ("en", "fifo", "a FIFO (named pipe), not a regular file"),
    ("zh", "fifo", "这是一个命名管道（FIFO），不是普通文件"),
    ("en", "link", "a link to {d}/nowhere, which does not exist"),
])
def test_something_else_where_the_database_file_should_be_is_named(tmp_path, monkeypatch, capsys, lang, what,
                                                                    reason):
    """A FIFO or a link to nothing at TOOLCALL_DATA_DIR/progress.sqlite3 was "no progress database at …: set
    TOOLCALL_DATA_DIR to the app's data folder", of the folder that was set; it names what is there now
    (break-it pass brk18new)."""
    import os
    db = tmp_path / "progress.sqlite3"
    os.mkfifo(db) if what == "fifo" else db.symlink_to(tmp_path / "nowhere")
    sep, done = ("：", "：没有写成（") if lang == "zh" else (": ", ": not written (")
    tail = "）；退出码 2\n" if lang == "zh" else "); exit code 2\n"
    assert _cli(monkeypatch, capsys, tmp_path, "export", str(tmp_path / "x.csv"), "--lang", lang) == (
        2, "", f"{tmp_path}/x.csv{done}{db}{sep}{reason.format(d=tmp_path)}{tail}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["progress.sqlite3"]


@pytest.mark.parametrize("name", ["a" * 247 + ".csv", "班级进度" * 20 + ".json"])
def test_a_name_the_file_system_takes_is_written(tmp_path, monkeypatch, capsys, name):
    """OUT's whole name was repeated in its temporary file's (``.OUT.<random>.part``): a name of 251 bytes (or 80
    Chinese characters, 244) that the folder takes was refused, "not written (the name is too long for the file
    system)" (break-it pass brk19new)."""
    store = _fill(ProgressStore(tmp_path))
    store.close()
    out = tmp_path / "out"
    out.mkdir()
    code, printed, err = _cli(monkeypatch, capsys, tmp_path, "export", str(out / name))
    assert (code, err) == (0, "")
    written = out / name
    assert printed == f"{written}: written ({written.stat().st_size:,} bytes)\n"
    assert [p.name for p in out.iterdir()] == [name]


def _secrets(monkeypatch, folder, text: str | None) -> None:
    """Run in ``folder`` as the app's folder, with ``text`` as its .streamlit/secrets.toml (None: none) and no other."""
    monkeypatch.chdir(folder)
    monkeypatch.setenv("HOME", str(folder / "home"))
    monkeypatch.delenv("STREAMLIT_SECRETS_FILES", raising=False)
    if text is not None:
        (folder / ".streamlit").mkdir()
        (folder / ".streamlit" / "secrets.toml").write_text(text, "utf-8")


def test_the_command_reads_the_url_the_app_reads_from_its_secrets_file(tmp_path, monkeypatch, capsys):
    """The app reads TOOLCALL_DATABASE_URL from .streamlit/secrets.toml when the environment has none (README,
    "Scaling out"); export read the environment alone and wrote the SQLite file of the data folder, an old one, or
    said "no progress database at …" of a class whose progress was in PostgreSQL (break-it pass brk19new)."""
    ProgressStore(tmp_path).close()  # a stale SQLite file where the command looked
    _secrets(monkeypatch, tmp_path, 'TOOLCALL_DATABASE_URL = "postgresql://u@127.0.0.1:9152/db"\n')
    out = tmp_path / "class-progress.csv"
    code, printed, err = _cli(monkeypatch, capsys, tmp_path, "export", str(out))
    assert (code, printed, err) == (2, "", f"{out}: not written (cannot connect to the progress database server at "
                                           "127.0.0.1 port 9152: Connection refused. Start the server, or fix the "
                                           "host and port in TOOLCALL_DATABASE_URL); exit code 2\n")
    assert not out.exists()


def test_a_url_of_white_space_is_sqlite_as_for_the_app(tmp_path, monkeypatch, capsys):
    """open_store strips the setting: ``TOOLCALL_DATABASE_URL= `` is SQLite for the app; export tried a server at
    "the local socket"."""
    _fill(ProgressStore(tmp_path)).close()
    _secrets(monkeypatch, tmp_path, None)
    out = tmp_path / "class-progress.csv"
    from toolcall.cli import main
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("TOOLCALL_DATABASE_URL", " ")
    code = main(["export", str(out)])
    printed, err = capsys.readouterr()
    assert (code, err) == (0, "") and printed == f"{out}: written ({out.stat().st_size:,} bytes)\n"


def test_a_secrets_file_that_is_not_toml_is_named(tmp_path, monkeypatch, capsys):
    ProgressStore(tmp_path).close()
    _secrets(monkeypatch, tmp_path, 'TOOLCALL_DATABASE_URL = "postgresql://u:pass@h/db\n')
    out = tmp_path / "class-progress.csv"
    code, printed, err = _cli(monkeypatch, capsys, tmp_path, "export", str(out))
    assert (code, printed, err) == (2, "", f"{out}: not written ({tmp_path}/.streamlit/secrets.toml: not a TOML file "
                                           "(Illegal character '\\n' (at line 1, column 50))); exit code 2\n")


def test_a_secrets_file_nested_too_deeply_is_named(tmp_path, monkeypatch, capsys):
    """tomllib reads nested arrays recursively: 20 000 "[" ended the export in "the input is larger or more deeply
    nested than this machine lets the command hold (RecursionError)", the file not named (break-it pass brk20new)."""
    ProgressStore(tmp_path).close()
    _secrets(monkeypatch, tmp_path, "a = " + "[" * 20_000 + "]" * 20_000 + "\n")
    out = tmp_path / "class-progress.csv"
    code, printed, err = _cli(monkeypatch, capsys, tmp_path, "export", str(out))
    assert (code, printed, err) == (2, "", f"{out}: not written ({tmp_path}/.streamlit/secrets.toml: nested too "
                                           "deeply to read (RecursionError); a secrets file holds settings, one a "
                                           "line); exit code 2\n")
    assert not out.exists()


def test_the_last_secrets_file_that_sets_the_url_decides_as_for_the_app(tmp_path, monkeypatch, capsys):
    """Streamlit merges the secrets files, a later one's key winning: TOOLCALL_DATABASE_URL = "" in the app's folder
    over a URL in ~/.streamlit/secrets.toml is SQLite for the app, and export tried the server (break-it pass
    brk20new)."""
    _fill(ProgressStore(tmp_path)).close()
    _secrets(monkeypatch, tmp_path, 'TOOLCALL_DATABASE_URL = ""\n')
    (tmp_path / "home" / ".streamlit").mkdir(parents=True)
    (tmp_path / "home" / ".streamlit" / "secrets.toml").write_text(
        'TOOLCALL_DATABASE_URL = "postgresql://u@127.0.0.1:9152/db"\n', "utf-8")
    out = tmp_path / "class-progress.csv"
    code, printed, err = _cli(monkeypatch, capsys, tmp_path, "export", str(out))
    assert (code, err) == (0, "") and printed == f"{out}: written ({out.stat().st_size:,} bytes)\n"


def test_a_url_that_is_no_string_is_refused_as_the_app_refuses_it(tmp_path, monkeypatch, capsys):
    """The app reads str(value or ""): TOOLCALL_DATABASE_URL = 5 is refused there, and export wrote the SQLite
    file of the data folder, a class the app does not show (break-it pass brk20new)."""
    _fill(ProgressStore(tmp_path)).close()
    _secrets(monkeypatch, tmp_path, "TOOLCALL_DATABASE_URL = 5\n")
    out = tmp_path / "class-progress.csv"
    code, printed, err = _cli(monkeypatch, capsys, tmp_path, "export", str(out))
    assert (code, printed, err) == (2, "", f"{out}: not written (the progress database URL cannot be read as a "
                                           "postgresql:// URI (check the [ ] around an IPv6 host, %-escapes and the "
                                           "query parameters); it is not repeated here because it may hold a "
                                           "password); exit code 2\n")
    assert not out.exists()
