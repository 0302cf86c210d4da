"""A malformed progress database URL is refused where it is configured, with a reason that never repeats it
(issue 13, configuration mistakes). Before, PostgresProgressStore opened a pool on it that retried for ever,
logging libpq's reason on every try: for an unclosed IPv6 bracket that reason quotes the whole URL, password
included; the class launcher started every Streamlit process on it."""

from __future__ import annotations

import logging
import sys

import pytest

from toolcall.progress import StorageError, open_store
from toolcall.progress_pg import url_problem

REPO = __import__("pathlib").Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "deploy"))
from serve_class import main  # noqa: E402

SECRET = "hunter2"
#: One URL per way libpq refuses to read it (parse) or to use its port, each carrying a password.
MALFORMED = {
    f"postgresql://u:{SECRET}@[::1/db": "parse",  # unclosed IPv6 bracket: libpq quotes the whole URL
    f"postgresql://u:{SECRET}@h/db?bogus=1": "parse",  # unknown query parameter
    f"postgres://u%zz:{SECRET}@h/db": "parse",  # bad %-escape
    f"postgresql://u:{SECRET}@h:notaport/db": "port",
    f"postgresql://u:{SECRET}@h:99999/db": "port",
    f"postgresql://u:{SECRET}@a:5432,b:x/db": "port",
    # values libpq refuses only when it connects: the pool retried them for ever and every page said the
    # database could not be reached (setup=False), and the launcher started the class
    f"postgresql://u:{SECRET}@h/db?sslmode=bogus": "value",
    f"postgresql://u:{SECRET}@h/db?gssencmode=x": "value",
    f"postgresql://u:{SECRET}@a,b/db?target_session_attrs=nope": "value",
    f"postgresql://u:{SECRET}@h/db?load_balance_hosts=x": "value",
    f"postgresql://u:{SECRET}@h/db?channel_binding=x": "value",
    f"postgresql://u:{SECRET}@h/db?require_auth=bogus": "value",
    f"postgresql://u:{SECRET}@h/db?service=no_such_service_here": "value",
    f"postgresql://u:{SECRET}@h/db?connect_timeout=soon": "timeout",
    # a password holding @ or / as written: libpq read a piece of it as the host ("server at ter2@h") or the port
    # ("server at u port hun"), and the message showed it (break-it pass brk16cli)
    "postgresql://u:hun@ter2@h/db": "second_at",
    "postgresql://u:hun/ter2@h/db": "slash",
    "postgresql://u:hun/ter2@h": "slash",
    "postgresql://hun@ter2:pw@h:5432/db?sslmode=require": "second_at",
    "postgresql://u:hun/ter2@h:5432/db": "slash",
    "postgresql://u:hun@x/ter2@h/db": "second_at",  # both: the @ is named first
    # a host no resolver is asked for: psycopg's own IDNA encoding raised UnicodeError, a traceback from the
    # launcher and `python -m toolcall export` (break-it pass brk19ops)
    f"postgresql://u:{SECRET}@db..lan/class": "host",
    f"postgresql://u:{SECRET}@db\u202elan/class": "host",
    f"postgresql://u:{SECRET}@{'x' * 64}.lan/class": "host",
    f"postgresql://u:{SECRET}@db.lan,db..lan/class": "host",
}
#: The password pieces of the URLs above that hold no SECRET: no message may show one.
PIECES = ("hun", "ter2")
READS = {"parse": "cannot be read as a postgresql:// URI", "port": "port must be a number from 1 to 65535",
         "value": "libpq refuses it: ", "timeout": "bad value for connect_timeout", "host": "is no host name",
         "second_at": "the progress database URL holds a second @, as written: a user name or password holding @ or / "
                      "must write them %-escaped, @ as %40 and / as %2F (p@ss/word is p%40ss%2Fword), else libpq reads "
                      "part of the password as the host, the port or the database name; the URL is not repeated here "
                      "because it may hold a password",
         "slash": "the progress database URL holds a / before its @, as written: a user name or password holding @ or / "
                  "must write them %-escaped, @ as %40 and / as %2F (p@ss/word is p%40ss%2Fword), else libpq reads "
                  "part of the password as the host, the port or the database name; the URL is not repeated here "
                  "because it may hold a password"}


@pytest.mark.parametrize("url", MALFORMED)
def test_a_malformed_url_is_refused_without_repeating_it(url, caplog):
    assert READS[MALFORMED[url]] in url_problem(url)
    with caplog.at_level(logging.DEBUG), pytest.raises(StorageError) as info:
        open_store(url)
    assert READS[MALFORMED[url]] in str(info.value) and SECRET not in str(info.value)
    assert not any(piece in str(info.value) for piece in PIECES)
    assert not [r for r in caplog.records if r.name.startswith("psycopg")]  # no pool ever tried it


@pytest.mark.parametrize("url", MALFORMED)
def test_the_class_launcher_refuses_it_before_starting_anything(url, capsys):
    # --processes 0 makes a launcher that misses the URL stop on that instead of starting a class
    with pytest.raises(SystemExit) as info:
        main(["--database-url", url, "--processes", "0"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "--database-url: the progress database URL" in err
    assert READS[MALFORMED[url]] in err and SECRET not in err and not any(piece in err for piece in PIECES)


@pytest.mark.parametrize("url", [u for u, why in MALFORMED.items() if why in ("second_at", "slash")])
def test_a_password_holding_an_at_or_a_slash_is_named_exactly(url):
    assert url_problem(url) == READS[MALFORMED[url]]


@pytest.mark.parametrize("url", ["postgresql://u:hun%40ter2@h/db", "postgresql://u:hun%2Fter2@h/db",
                                 "postgresql://localhost/my@db", "postgresql://localhost:5432/my@db",
                                 # a password and a database name with an @ were refused as "a second @"
                                 "postgresql://u:pw@h/my@db", "postgresql://u:pw@h:5432/my@db",
                                 "postgresql://u@h/my@db?sslmode=require",
                                 "postgresql://u:pw@h/db?user=teacher@school", "postgresql://u:p#s?s@h/db",
                                 "postgresql://u@/db?host=/var/run/postgresql", "postgresql:///db?host=/tmp"])
def test_escaped_passwords_sockets_and_a_database_name_with_an_at_pass(url):
    assert url_problem(url) is None


@pytest.mark.parametrize("url", ["postgresql://u:pw@db.lan:5432/class", "postgres://db.lan/class",
                                 "postgresql://u@/nodb?host=/nonexistent&port=1", "postgresql://a:5432,b/db",
                                 "postgresql://[::1]:5432/db", "postgresql://u@ex\u00e4mple.com/db"])
def test_well_formed_urls_pass(url):
    assert url_problem(url) is None


#: Every value libpq's documentation lists for the options it checks before connecting
#: (https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-PARAMKEYWORDS): none is refused.
ACCEPTED = {"sslmode": ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"],
            "gssencmode": ["disable", "prefer", "require"],
            "target_session_attrs": ["any", "read-write", "read-only", "primary", "standby", "prefer-standby"],
            "load_balance_hosts": ["disable", "random"], "channel_binding": ["disable", "prefer", "require"],
            "connect_timeout": ["0", "10"], "hostaddr": ["127.0.0.1"],
            "require_auth": ["password", "md5", "gss", "sspi", "scram-sha-256", "none", "!password"],
            "sslnegotiation": ["postgres"]}


@pytest.mark.parametrize("key, value", [(k, v) for k, values in ACCEPTED.items() for v in values])
def test_every_documented_value_passes(key, value):
    assert url_problem(f"postgresql://u:pw@db.lan:5432/class?{key}={value}") is None


def test_the_value_check_reaches_no_server(monkeypatch):
    """libpq checks the options on a socket folder that does not exist: never the URL's host."""
    import socket

    monkeypatch.setattr(socket.socket, "connect", lambda *a: pytest.fail("a connection was attempted"))
    assert url_problem("postgresql://u@127.0.0.1:5432/db?hostaddr=127.0.0.1&sslmode=require") is None


@pytest.mark.parametrize("url, ref", [
    ("postgresql://teacher:${PGPASSWORD}@db/class", "${PGPASSWORD}"),
    ("postgresql://teacher:${TOOLCALL_TEST_UNSET}@db/class", "${TOOLCALL_TEST_UNSET}"),
    ("postgresql://teacher:$PGPASSWORD@db/class", "$PGPASSWORD"),
    ("postgresql://teacher@${DB_HOST}:5432/class", "${DB_HOST}")])
def test_a_variable_no_shell_expanded_is_named(monkeypatch, capsys, url, ref):
    """From an env file the URL kept ``${PGPASSWORD}`` as written: it passed every check, and the server's
    "password authentication failed" named a password that was right (break-it pass brk13text)."""
    monkeypatch.setenv("PGPASSWORD", SECRET)
    monkeypatch.delenv("TOOLCALL_TEST_UNSET", raising=False)
    words = (f"the progress database URL holds {ref}, a variable no shell expanded (an env file, a systemd "
             "Environment= line or secrets.toml passes it as written): write its value into the URL")
    assert url_problem(url) == words
    with pytest.raises(StorageError) as info:
        open_store(url)
    assert info.value.setup and str(info.value) == words
    with pytest.raises(SystemExit) as done:
        main(["--database-url", url, "--processes", "0"])
    assert done.value.code == 2 and f"--database-url: {words}" in capsys.readouterr().err


@pytest.mark.parametrize("password", ["pa$word", "$ecret", "a$B1", "$NOT_SET_TOOLCALL"])
def test_a_password_holding_a_dollar_is_left_alone(monkeypatch, password):
    monkeypatch.delenv("NOT_SET_TOOLCALL", raising=False)
    assert url_problem(f"postgresql://teacher:{password}@db/class") is None


@pytest.mark.parametrize("host, why", [
    ("db..lan", "a part between dots is empty or longer than 63 characters"),
    ("db\u202elan", "Invalid character '\\u202e'"),
])
def test_a_host_that_is_no_host_name_is_named_escaped(host, why):
    assert url_problem(f"postgresql://u:pw@{host}/class") == (
        f"the progress database URL's host {host.encode('ascii', 'backslashreplace').decode()} is no host name "
        f"({why}): check it")
