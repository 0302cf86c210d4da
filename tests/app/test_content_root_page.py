"""The app opened with TOOLCALL_CONTENT_ROOT set to a missing folder says so, in the page's language, and
stops: every page read a fixture first and ended in a FileNotFoundError naming a schema file
(tests/unit/test_content_root_setting.py covers the command line)."""

import pytest

from toolcall.i18n import t
from toolcall.markdown import plain

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_app_names_the_setting_and_stops(tmp_path, monkeypatch, lang):
    from tests.app.conftest import fresh_app

    monkeypatch.setenv("TOOLCALL_CONTENT_ROOT", str(tmp_path / "missing"))
    at = fresh_app(lang)
    assert not at.exception
    assert [e.value for e in at.error] == [t("content_root.no_folder", lang, value=plain(str(tmp_path / "missing")))]


@pytest.mark.parametrize("lang, words", [
    ("en", "TOOLCALL_CONTENT_ROOT is \\$COURSE\\$/x\\_y, which holds a variable no shell expanded (an env file or a "
           "quoted setting passes it as written): write the folder's full path."),
    ("zh", "TOOLCALL_CONTENT_ROOT 设成了 \\$COURSE\\$/x\\_y，其中的变量没有经过 shell 展开（env 文件或加了引号的设置会原样"
           "传过来）：请写出文件夹的完整路径。")])
def test_the_setting_is_quoted_as_text_not_markdown(monkeypatch, lang, words):
    """``$COURSE$/x_y`` was drawn as math (the page showed "COURSE" in italics and no dollar signs) and called "not a
    folder"; now each Markdown character is escaped and the sentence names the variable (break-it pass brk13text)."""
    from tests.app.conftest import fresh_app

    monkeypatch.setenv("TOOLCALL_CONTENT_ROOT", "$COURSE$/x_y")
    at = fresh_app(lang)
    assert not at.exception
    assert [e.value for e in at.error] == [words]
