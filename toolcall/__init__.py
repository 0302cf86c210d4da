"""toolcall: the pure core of the tool-calling course companion.

Nothing in this package imports streamlit; pages are thin glue over these modules.
"""

from pathlib import Path

from toolcall.lazy import defer_rfc3987_syntax

defer_rfc3987_syntax()  # before anything imports jsonschema: see toolcall/lazy.py

#: Repository root (the folder that holds app.py, fixtures/ and lessons/).
REPO_ROOT = Path(__file__).resolve().parent.parent
FIXTURES_DIR = REPO_ROOT / "fixtures"
LESSONS_DIR = REPO_ROOT / "lessons"
