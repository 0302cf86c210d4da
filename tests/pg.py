"""PostgreSQL for the tests: the server from TOOLCALL_TEST_DATABASE_URL (bash .ci/run starts a
throwaway one with scripts/pg_test_cluster.sh), one fresh schema per test.

Without the variable the PostgreSQL tests skip, saying how to run them; with CI=true they fail.
"""

from __future__ import annotations

import os
import secrets
from contextlib import contextmanager
from urllib.parse import quote

import pytest


def server_url() -> str:
    """The test server's URL, or skip (fail when CI=true)."""
    url = os.environ.get("TOOLCALL_TEST_DATABASE_URL", "")
    if not url:
        message = ("no PostgreSQL for the tests: run `eval \"$(scripts/pg_test_cluster.sh start /tmp/pg)\"` "
                   "(Debian's postgresql package) or bash .ci/run")
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return url


def with_search_path(url: str, schema: str) -> str:
    """``url`` whose connections use ``schema`` (libpq ``options=-c search_path=…``)."""
    return url + ("&" if "?" in url else "?") + "options=" + quote(f"-c search_path={schema}", safe="")


@contextmanager
def fresh_schema():
    """A URL whose tables live in a new, empty schema, dropped afterwards."""
    import psycopg

    url, name = server_url(), "t_" + secrets.token_hex(6)
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"CREATE SCHEMA {name}")
    try:
        yield with_search_path(url, name)
    finally:
        with psycopg.connect(url, autocommit=True) as db:
            db.execute(f"DROP SCHEMA {name} CASCADE")
