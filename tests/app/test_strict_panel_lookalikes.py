"""The strict panel's findings table shows the schema's names with look-alike letters escaped (break-it pass
brk10web; the findings themselves: tests/unit/test_strict_lookalikes.py)."""

import json

from tests.app.conftest import fresh_app
from tests.unit.test_strict_lookalikes import SCHEMAS, _lookalikes


def test_the_panel_shows_the_paths_escaped():
    at = fresh_app("en", page="pages/playground.py")
    at.text_area(key="schema_editor").input(json.dumps(SCHEMAS["property"], ensure_ascii=False)).run()
    at.toggle(key="playground_strict_open").set_value(True).run()
    assert not at.exception
    tables = [m.value for m in at.markdown if "\\\\u043erder" in m.value]
    assert tables and not any(_lookalikes(m.value) for m in at.markdown)
