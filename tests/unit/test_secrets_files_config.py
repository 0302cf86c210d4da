"""``[secrets] files`` in a Streamlit config.toml names the secrets files the app reads; export and the class launcher
read the same ones (break-it pass brk21probe: the app kept progress in the PostgreSQL of the file named there, while
``python -m toolcall export`` read the default files and wrote the data folder's old SQLite, exit 0, and the
launcher planned for SQLite)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from toolcall import REPO_ROOT
from toolcall.progress import configured_database_url, secrets_files

sys.path.insert(0, str(REPO_ROOT / "deploy"))
import serve_class  # noqa: E402

URL = "postgresql://u@db.example/class"


@pytest.fixture
def checkout(monkeypatch, tmp_path) -> Path:
    for name in ("TOOLCALL_DATABASE_URL", "STREAMLIT_SECRETS_FILES"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "home" / ".streamlit").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "checkout" / ".streamlit").mkdir(parents=True)
    return tmp_path / "checkout"


def test_export_reads_the_files_the_checkouts_config_names(checkout, tmp_path):
    secret = tmp_path / "class.toml"
    secret.write_text(f'TOOLCALL_DATABASE_URL = "{URL}"\n', encoding="utf-8")
    (checkout / ".streamlit" / "secrets.toml").write_text('TOOLCALL_DATABASE_URL = ""\n', encoding="utf-8")
    assert configured_database_url(checkout) == ""  # the default files, before the config names another
    (checkout / ".streamlit" / "config.toml").write_text(f'[server]\nport = 1\n\n[secrets]\nfiles = ["{secret}"]\n',
                                                         encoding="utf-8")
    assert secrets_files(checkout) == [secret]
    assert configured_database_url(checkout) == URL


def test_the_checkouts_config_wins_over_the_home_folders(checkout, tmp_path):
    home_named, checkout_named = tmp_path / "home.toml", tmp_path / "checkout.toml"
    (tmp_path / "home" / ".streamlit" / "config.toml").write_text(f'[secrets]\nfiles = ["{home_named}"]\n')
    assert secrets_files(checkout) == [home_named]
    (checkout / ".streamlit" / "config.toml").write_text(f'[secrets]\nfiles = ["{checkout_named}", "{home_named}"]\n')
    assert secrets_files(checkout) == [checkout_named, home_named]


@pytest.mark.parametrize("text", ["[secrets\n", "[secrets]\nfiles = 3\n", "[secrets]\nfiles = [1]\n", "secrets = 1\n",
                                  "x = " + "[" * 20_000 + "\n", "[server]\nport = 1\n"])
def test_a_config_that_names_no_files_leaves_the_default_ones(checkout, text):
    (checkout / ".streamlit" / "config.toml").write_text(text, encoding="utf-8")
    assert secrets_files(checkout) == [Path.home() / ".streamlit" / "secrets.toml",
                                       checkout / ".streamlit" / "secrets.toml"]


def test_the_environment_wins_over_the_config(checkout, tmp_path, monkeypatch):
    (checkout / ".streamlit" / "config.toml").write_text(f'[secrets]\nfiles = ["{tmp_path / "a.toml"}"]\n')
    monkeypatch.setenv("STREAMLIT_SECRETS_FILES", str(tmp_path / "b.toml"))
    assert secrets_files(checkout) == [tmp_path / "b.toml"]


def test_the_launcher_reads_the_files_the_checkouts_config_names(checkout, tmp_path, monkeypatch):
    secret = tmp_path / "class.toml"
    secret.write_text(f'TOOLCALL_DATABASE_URL = "{URL}"\n', encoding="utf-8")
    monkeypatch.setattr("serve_class.SECRETS_FILE", checkout / ".streamlit" / "secrets.toml")
    assert serve_class.secrets_database_url() == ""
    (checkout / ".streamlit" / "config.toml").write_text(f'[secrets]\nfiles = ["{secret}"]\n', encoding="utf-8")
    assert serve_class.secrets_files() == [secret]
    assert serve_class.secrets_database_url() == URL
    assert serve_class.secrets_database_source() == secret
