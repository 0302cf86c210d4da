"""deploy/serve_class.py's generated nginx.conf (nginx itself runs it in tests/e2e/test_class_deployment.py)."""

import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "deploy"))
from serve_class import COOKIE, main, nginx_conf  # noqa: E402

BACKENDS = ["127.0.0.1:8601", "127.0.0.1:8602", "127.0.0.1:8603"]


def _map(conf: str, variable: str) -> dict[str, str]:
    body = re.search(r"map \$cookie_" + COOKIE + r" \$" + variable + r" \{(.*?)\n    \}", conf, re.S).group(1)
    return dict(re.findall(r'^\s+("?[^\s"]*"?)\s+(.+?);$', body, re.M))


def test_pool_lists_every_backend_once():
    conf = nginx_conf("0.0.0.0:8501", BACKENDS, Path("/run/x"), as_root=False)
    pool = re.search(r"upstream toolcall_pool \{(.*?)\}", conf, re.S).group(1)
    assert re.findall(r"server (\S+);", pool) == BACKENDS
    assert "listen 0.0.0.0:8501;" in conf
    assert "pid /run/x/nginx.pid;" in conf
    assert "user nobody" not in conf


def test_cookie_pins_only_known_backends():
    conf = nginx_conf("127.0.0.1:8501", BACKENDS, Path("/run/x"), as_root=True)
    pin = _map(conf, "toolcall_backend")
    assert pin == {"default": "toolcall_pool", **{f'"{b}"': b for b in BACKENDS}}
    set_cookie = _map(conf, "toolcall_set_cookie")
    assert set_cookie["default"] == f'"{COOKIE}=$upstream_addr; Path=/; HttpOnly; SameSite=Lax"'
    assert all(set_cookie[f'"{b}"'] == '""' for b in BACKENDS)
    assert "user nobody nogroup;" in conf
    assert "proxy_pass http://$toolcall_backend;" in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf


def test_no_backend_is_an_error():
    with pytest.raises(ValueError):
        nginx_conf("127.0.0.1:8501", [], Path("/run/x"), as_root=False)


@pytest.mark.parametrize("argv, message", [(["--processes", "0"], "--processes must be 1..16"),
                                           (["--processes", "17"], "--processes must be 1..16"),
                                           (["--port", "70000"], "ports must be 1..65535"),
                                           (["--first-backend-port", "65535", "--processes", "2"], "ports must be 1..65535")])
def test_bad_arguments_are_refused_before_anything_starts(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert capsys.readouterr().err.endswith(f"serve_class.py: error: {message}\n")


def test_missing_nginx_says_how_to_install(monkeypatch, capsys):
    monkeypatch.setattr("serve_class.find_nginx", lambda: None)
    monkeypatch.setattr("serve_class.port_in_use", lambda address, port: False)
    assert main(["--processes", "1"]) == 2
    err = capsys.readouterr().err
    assert "sudo apt-get install nginx" in err and "streamlit run app.py" in err


def test_ports_in_use_are_named_before_anything_starts(capsys):
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["--address", "127.0.0.1", "--port", str(port), "--processes", "1",
                     "--first-backend-port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"already in use: 127.0.0.1:{port}, 127.0.0.1:{port}. Stop what listens there")


def test_database_url_reaches_every_process_and_must_be_postgresql(monkeypatch, capsys):
    from serve_class import child_env

    monkeypatch.delenv("TOOLCALL_DATABASE_URL", raising=False)
    assert "TOOLCALL_DATABASE_URL" not in child_env("")
    assert child_env("postgresql://db.lan/class")["TOOLCALL_DATABASE_URL"] == "postgresql://db.lan/class"
    with pytest.raises(SystemExit) as info:
        main(["--database-url", "mysql://db.lan/class"])
    assert info.value.code == 2 and "--database-url must start with postgresql://" in capsys.readouterr().err
