"""A path argument with a ``~`` or a ``$NAME`` no shell expanded (quoted, or after ``=`` in ``--selection=~/set.yaml``,
which most shells leave as written) read "no such file", beside a file the user could list (break-it pass
brk13text). It now says what was not expanded and the path it would be, in en and zh."""

import pytest

from toolcall.cli import main


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("TOOLCALL_TEST_RUNS", str(tmp_path / "runs"))
    (tmp_path / "runs").mkdir()
    return tmp_path


@pytest.mark.parametrize("argv, label, written, part, meant", [
    (["eval", "{w}", "--k", "2"], "RUNS", "~/runs.jsonl", "~", "{h}/runs.jsonl"),
    (["eval", "{w}", "--k", "2"], "RUNS", "$TOOLCALL_TEST_RUNS/a.jsonl", "$TOOLCALL_TEST_RUNS", "{h}/runs/a.jsonl"),
    (["eval", "-", "--k", "2", "--selection={w}"], "--selection", "~/set.yaml", "~", "{h}/set.yaml"),
    (["check", "{w}"], "DIR", "${TOOLCALL_TEST_RUNS}/course", "${TOOLCALL_TEST_RUNS}", "{h}/runs/course"),
])
def test_an_unexpanded_path_says_so(home, capsys, argv, label, written, part, meant):
    meant = meant.format(h=home)
    words = {"en": f"{label} {written}: {part} was not expanded (no shell read it), so this path does not exist as "
                   f"written; did you mean {meant}?",
             "zh": f"{label} {written}: {part} 没有被展开（没有经过 shell），照原样写的这个路径并不存在；是不是想写 {meant}？"}
    for lang in ("en", "zh") if argv[0] == "eval" else ("en",):
        code = main([a.format(w=written) for a in argv] + (["--lang", lang] if argv[0] == "eval" else []))
        assert (code, capsys.readouterr().err) == (2, words[lang] + "\n")


def test_a_path_that_expands_to_itself_is_still_no_such_file(home, capsys):
    assert main(["eval", str(home / "missing.jsonl"), "--k", "2"]) == 2
    assert capsys.readouterr().err == f"RUNS {home / 'missing.jsonl'}: no such file\n"
