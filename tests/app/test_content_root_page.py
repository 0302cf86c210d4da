"""The app opened with TOOLCALL_CONTENT_ROOT set to a missing folder says so, in the page's language, and
stops: every page read a fixture first and ended in a FileNotFoundError naming a schema file
(tests/unit/test_content_root_setting.py covers the command line)."""

import pytest

from toolcall.i18n import t

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_app_names_the_setting_and_stops(tmp_path, monkeypatch, lang):
    from tests.app.conftest import fresh_app

    monkeypatch.setenv("TOOLCALL_CONTENT_ROOT", str(tmp_path / "missing"))
    at = fresh_app(lang)
    assert not at.exception
    assert [e.value for e in at.error] == [t("content_root.no_folder", lang, value=str(tmp_path / "missing"))]
