"""bench/bare_app.py is the playground's floor only while it draws the same elements: one schema edit on
each, over Streamlit's websocket (bench/load.py's client), sends the same element kinds in the same order.
Not a timed test: it counts messages. (Section H of bench/README.md found the floor drawing 84 elements
against the page's 152; issue 18 then cut both to one card.)"""

import asyncio
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

from load import Server, Session, free_port  # noqa: E402


class Recorder(Session):
    """A load.py session that also records the kind of every new element a rerun sends."""

    def see(self, delta, element, which: str) -> None:
        super().see(delta, element, which)
        self.kinds.append(which)


async def _edits(port: int, count: int) -> list[tuple[int, list[str]]]:
    session = Recorder("127.0.0.1", port, 0)
    session.kinds = []
    await session.open()
    try:
        out = []
        for i in range(count):  # load.py's edits: the reference schema and one that lets extra fields through
            session.kinds = []
            await session.edit(i)
            out.append((session.last_messages, session.kinds))
        return out
    finally:
        await session.close()


def _run(app: str) -> list[tuple[int, list[str]]]:
    port = free_port()
    server = Server(app, port, [])
    try:
        return asyncio.run(_edits(port, 2))
    finally:
        server.stop()


def test_an_edit_draws_the_same_elements_on_the_bare_page():
    page, bare = _run("app.py"), _run("bench/bare_app.py")
    assert [kinds for _, kinds in page] == [kinds for _, kinds in bare]
    assert [n for n, _ in page] == [n for n, _ in bare]
    assert all("text_area" in kinds and "code" in kinds for _, kinds in page)  # the editor and a card were drawn
    # what changes the whole page (tool picker, presets, Apply / Reset, wire format) sits above the fragment: an
    # edit does not send it again (issue 18: 36 -> 29 messages); the one radio left is the output picker
    for _, kinds in page:
        assert "selectbox" not in kinds and "button" not in kinds and kinds.count("radio") == 1, kinds
