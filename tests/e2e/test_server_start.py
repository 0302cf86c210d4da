"""A fresh `streamlit run app.py` answers its first visitor's deep link with one script run (ui/startup.py).

Before, a fresh server treated the app as a legacy pages/ app until app.py had run once: the first deep link
ran the page alone, which then asked for a rerun under app.py (ui.page.start), so the first student waited for
two script runs and saw the legacy page list flash. Spoken over the websocket as the browser does (no browser
needed); counts script runs, asserts no time."""

import asyncio

import pytest
from websockets.asyncio.client import connect

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ContextInfo
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from tests.e2e.conftest import fresh_server

pytestmark = pytest.mark.e2e


async def first_visit(url: str, page: str) -> list[str]:
    """The messages of a new session's first run of ``page``: kinds of new_session / script_finished /
    navigation / page_not_found, in order, up to the first successful script_finished (at most 5000)."""
    seen = []
    async with connect(url.replace("http://", "ws://") + "/_stcore/stream", subprotocols=["streamlit"],
                       max_size=None, open_timeout=60, ping_interval=None) as ws:
        back = BackMsg()
        back.rerun_script.page_name = page
        back.rerun_script.context_info.CopyFrom(ContextInfo(locale="en-US", url=f"{url}/{page}", timezone="UTC"))
        await ws.send(back.SerializeToString())
        async with asyncio.timeout(120):
            for _ in range(5000):
                msg = ForwardMsg()
                msg.ParseFromString(await ws.recv())
                kind = msg.WhichOneof("type")
                if kind == "script_finished":
                    seen.append(ForwardMsg.ScriptFinishedStatus.Name(msg.script_finished))
                    if msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                        return seen
                elif kind in ("new_session", "navigation", "page_not_found"):
                    seen.append(kind)
    raise AssertionError(f"no final script_finished: {seen}")


@pytest.mark.parametrize("page", ["playground", "lessons"])
def test_fresh_server_runs_a_deep_link_once(page):
    with fresh_server() as url:
        seen = asyncio.run(first_visit(url, page))
    assert seen == ["new_session", "navigation", "FINISHED_SUCCESSFULLY"]
