"""Entry point: page config, sidebar (language, learner id), navigation. Run with ``streamlit run app.py``.

The pages are listed once, in toolcall/pages_registry.py.

Streamlit runs this file as ``__main__`` for every session's script run (the page below). ``streamlit run
app.py`` first imports it as a module to look for an ``st.App``: it finds ``app`` and serves through it, so
ui/startup.py's lifespan warms the process once when the server starts, before any browser connects.
"""

import streamlit as st

if __name__ != "__main__":  # imported once per process by `streamlit run` (st.App mode), never per session
    from ui.startup import lifespan

    app = st.App("app.py", lifespan=lifespan)
else:
    from toolcall import warmup
    from toolcall.i18n import LANGS
    from ui.common import LANG_KEY, LANG_LABELS, default_lang, drop_link_lang, plain, tr
    from ui.instructor import is_instructor
    from ui.labels import whole_labels
    from ui.learner import learner_sidebar
    from ui.page import navigation_pages
    from ui.uploads import cap_session_uploads
    from ui.widgets import input_hints, own_words

    # the app's title in the session's language; each page adds its own title in front (ui.page.start)
    st.set_page_config(page_title=tr("app.title"), page_icon="🛠️", layout="wide")
    whole_labels()
    input_hints()
    from toolcall import content_root_problem

    if (problem := content_root_problem()) is not None:  # every page reads content: name the setting, once
        # plain(): the operator's setting is text, not Markdown ($…$ was drawn as math, a line end broke the line)
        st.error(tr(f"content_root.{problem[0]}", value=plain(problem[1])))
        st.stop()

    # The browser's language (or a link's ?lang=zh) is the default; a choice made here is kept in the URL
    # (?app_lang=中文), so a reload or a shared link keeps it, and across pages.
    st.sidebar.selectbox(tr("app.language"), LANGS, index=LANGS.index(default_lang()),
                         key=LANG_KEY, bind="query-params", format_func=LANG_LABELS.__getitem__,
                         on_change=drop_link_lang, **own_words("selectbox"))
    learner_sidebar()
    st.navigation(navigation_pages(instructor=is_instructor())).run()

    @st.cache_resource(show_spinner=False)
    def _warm_up():
        """Once per server process: import the other pages' libraries and fill the playground's caches in a
        background thread (toolcall/warmup.py; under `streamlit run` the server start has already started it)."""
        return warmup.start_background()

    _warm_up()
    cap_session_uploads()  # once per server (the lifespan did it already under `streamlit run app.py`)
    warmup.note_script_run()  # the warm-up leaves this session's browser 5 s to draw the page
