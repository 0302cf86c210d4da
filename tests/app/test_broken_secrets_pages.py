"""A secrets file that is there but cannot be read is named on the class dashboard, not taken for none (break-it
pass brk20new): the page said the dashboard "is not set up on this server" and to put the passphrase in
.streamlit/secrets.toml, where it was, in a file Streamlit could not parse."""

from __future__ import annotations

import pytest
import streamlit as st
from streamlit import config
from streamlit.runtime.secrets import Secrets

from tests.app.conftest import fresh_app
from toolcall.i18n import t
from ui.common import plain


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_dashboard_names_a_secrets_file_it_cannot_read(lang, monkeypatch, tmp_path):
    path = tmp_path / "secrets.toml"
    path.write_text('TOOLCALL_INSTRUCTOR_PASSPHRASE = "a passphrase long enough\n', "utf-8")
    get_option = config.get_option
    monkeypatch.setattr(config, "get_option",
                        lambda name: [str(path)] if name == "secrets.files" else get_option(name))
    monkeypatch.setattr(st, "secrets", Secrets())
    at = fresh_app(lang, page="pages/dashboard.py")
    reason = f"Error parsing secrets file at {path}: Illegal character '\\n' (at line 1, column 59)"
    assert not at.exception
    assert [w.value for w in at.warning] == [plain(t("dashboard.secrets_unreadable", lang, reason=reason))]
    assert [i.value for i in at.info] == [t("dashboard.not_configured", lang)]
    assert "passphrase long" not in " ".join(w.value for w in at.warning)


def test_no_secrets_file_is_only_not_set_up(monkeypatch, tmp_path):
    get_option = config.get_option
    monkeypatch.setattr(config, "get_option",
                        lambda name: [str(tmp_path / "none.toml")] if name == "secrets.files" else get_option(name))
    monkeypatch.setattr(st, "secrets", Secrets())
    at = fresh_app("en", page="pages/dashboard.py")
    assert not at.exception and [w.value for w in at.warning] == []
    assert [i.value for i in at.info] == [t("dashboard.not_configured", "en")]
