"""The opening of every page, and app.py's navigation, both read from toolcall.pages_registry.

A page file starts with ``start("<id>")``: it makes sure the page runs under app.py (see
:func:`start`) and names the browser tab after the page (:func:`tab_title`). Nothing else has to be remembered.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

from toolcall.pages_registry import PAGES, Page, page
from ui.common import tr


def navigation_pages(instructor: bool = False) -> list:
    """One st.Page per registry entry, in navigation order (titles in the session's language);
    instructor-only pages are listed only when ``instructor`` (they stay reachable by URL, where
    the page itself asks for the sign-in). Then, hidden, one page per other address of a page
    (:attr:`Page.url_paths`: ``/home``) that runs the same page file.

    Streamlit serves the default page at ``/`` only: its inferred ``url_path`` ("home") is
    reserved but no route, so ``/home`` showed Streamlit's "Page not found" dialog (issue 14).
    The default page is therefore declared with ``url_path=""`` and ``/home`` is a hidden page of
    its own. (A hidden page that calls st.switch_page would drop the address's query parameters
    or, keeping them, set the widget-bound ``app_lang``, which Streamlit refuses.)
    """
    pages = {p.id: st.Page(p.script, title=tr(p.title_key), icon=p.icon, default=p.default, url_path=p.url_path,
                           visibility="hidden" if p.instructor_only and not instructor else "visible")
             for p in PAGES}
    aliases = [st.Page(p.script, title=tr(p.title_key), icon=p.icon, url_path=path, visibility="hidden")
               for p in PAGES for path in p.url_paths if path != p.url_path]
    return list(pages.values()) + aliases


def start(page_id: str) -> Page:
    """First call of every page: run under app.py's navigation, then return the registry entry.

    Streamlit treats an app with a pages/ folder as a legacy multipage app until app.py
    calls st.navigation, and AppTest resets that flag before every run. In that mode a
    deep link such as /playground (on a fresh server, or after AppTest.switch_page) runs the
    page alone: no sidebar, no language switch, every file in pages/ listed as a page.
    Switching the legacy mode off and rerunning runs app.py, which then runs this page.
    tests/e2e/test_deep_link.py checks every page on a fresh server.
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()
    entry = page(page_id)
    st.set_page_config(page_title=tab_title(entry))
    return entry


def tab_title(entry: Page) -> str:
    """The browser tab's title for a page: "<page title> · <app title>" in the session's language, so open tabs
    can be told apart (app.py's set_page_config gave every page "Tool calling, hands on"; Streamlit 1.67 lets a
    later call in the same run change only the fields it names)."""
    return f"{tr(entry.title_key)} · {tr('app.title')}"
