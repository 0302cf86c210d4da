"""What a student can upload is bounded before the server holds it (issue 13, memory driven by
uploads): every st.file_uploader in the app passes max_upload_size, and the server-wide
server.maxUploadSize (Streamlit's default: 200 MB) is no larger than the largest of them. Cases
come from the source: a new uploader without a cap fails here."""

import ast
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _uploaders():
    for path in sorted([REPO / "app.py", *REPO.glob("pages/*.py"), *REPO.glob("ui/**/*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "file_uploader":
                yield path.relative_to(REPO), node


def test_every_uploader_caps_its_size():
    """Each page's uploader is ui.widgets.file_uploader (its words in the page's language, session 7) with a
    ``limit_mb``; the one call of Streamlit's own passes it on as max_upload_size."""
    found = list(_uploaders())
    own = [(path, node) for path, node in found if isinstance(node.func, ast.Attribute)]
    assert [str(path) for path, _ in own] == ["ui/widgets.py"]
    assert [k.arg for k in own[0][1].keywords if k.arg == "max_upload_size"] == ["max_upload_size"]
    pages = [(path, node) for path, node in found if isinstance(node.func, ast.Name)]
    assert len(pages) >= 2  # the eval lab's log and the dashboard's name map
    uncapped = [f"{path}:{node.lineno}" for path, node in pages if not any(k.arg == "limit_mb" for k in node.keywords)]
    assert uncapped == []


def test_the_server_wide_cap_is_set_and_no_larger_than_the_largest_uploader():
    from ui.eval_lab import UPLOAD_LIMIT_MB

    config = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["server"]["maxUploadSize"] == UPLOAD_LIMIT_MB
