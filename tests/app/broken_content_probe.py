"""Run by tests/app/test_broken_content_pages.py in a subprocess with TOOLCALL_CONTENT_ROOT set (the
content root is read at import): open each page given on the command line in the language given
first, and print what it showed as JSON (exceptions, warnings, errors, code blocks, Markdown, captions)."""

import json
import sys

from streamlit.runtime.pages_manager import PagesManager

from tests.app.conftest import fresh_app

_init = PagesManager.__init__


def _keep_navigation(self, *args, **kwargs):  # what conftest's autouse fixture does under pytest
    _init(self, *args, **kwargs)
    PagesManager.uses_pages_directory = False


PagesManager.__init__ = _keep_navigation

if __name__ == "__main__":
    language, pages = sys.argv[1], sys.argv[2:]
    shown = {}
    for page in pages:
        at = fresh_app(language)
        at.switch_page(page).run()
        shown[page] = {"exception": [str(e.value) for e in at.exception],
                       "warning": [w.value for w in at.warning], "error": [e.value for e in at.error],
                       "code": [c.value for c in at.code], "markdown": [m.value for m in at.markdown],
                       "caption": [c.value for c in at.caption]}
    print(json.dumps(shown, ensure_ascii=False))
