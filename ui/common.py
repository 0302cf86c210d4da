"""Streamlit-side helpers shared by the pages: language, cached fixture loading, safe rendering.

Everything a student types is shown with show_code / show_text / show_table (which escape every invisible and
bidi character: tests/unit/test_display_boundary.py holds ui/ and pages/ to them), or inside Markdown only
escaped by toolcall.markdown.plain (small tables: toolcall.markdown.table); never as HTML.
"""

from __future__ import annotations

import functools
from pathlib import Path
from collections.abc import Iterable
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from toolcall import FIXTURES_DIR
from toolcall.columns import MAX_PX, fit_widths
from toolcall.fixtures import FixtureError, load_orders, load_outputs, load_tool
from toolcall.i18n import normalize_lang, t
from toolcall.pairing import load_examples
from toolcall.transcripts import load_walkthrough
from toolcall.markdown import label, plain  # noqa: F401  (re-exported for the pages)
from toolcall.text import PRETTY, bounded_json, escape_invisible, escape_line

LANG_KEY = "app_lang"


#: Keyword arguments every keyed input widget of pages/ and ui/ takes (``st.slider(..., **PERSIST)``): Streamlit
#: drops the state of every widget a run does not draw, so what a student typed, picked or set was gone after a visit
#: to another page (or a panel closed): a form's boxes (the harness lab's JSON move came back as the step's starter),
#: the pass^k lab's numbers and sliders, the selection lab's pickers (break-it passes brk10web, brk12web). Kept for
#: the session instead; tests/app/test_inputs_survive_a_page_visit.py finds every such widget the pages draw. Not the
#: passphrase box (a secret is typed again) nor app.py's language switch (drawn on every page, kept in the URL).
PERSIST: dict[str, Any] = {"persist_state": "session"}


#: How many times the core's limit a text box holds (ui.common.box_chars).
BOX_FACTOR = 4


def box_chars(limit: int) -> int:
    """``max_chars`` for a text box whose text the core refuses above ``limit`` characters: BOX_FACTOR times it.

    Streamlit's browser side (1.67, checked in Chromium) drops a change that would take a box past
    ``max_chars`` whole: a paste over it leaves the box as it was, with no message but the counter. So the
    box holds well past the core's limit, where a student's over-long paste still reaches the core and gets
    its "too large: N characters; the limit is L" message, and it bounds what a browser can send and the
    server keep (Streamlit's own bound on a message is ``server.maxMessageSize``, in megabytes).
    tests/unit/test_text_boxes_bounded.py checks every text box of pages/ and ui/ has one."""
    return BOX_FACTOR * limit


#: How each language is named in the sidebar switch (and so in the URL: ?app_lang=中文).
LANG_LABELS = {"en": "English", "zh": "中文"}
#: A link's language by code (``?lang=zh``, ``?lang=zh-CN``): what a teacher types into a link by hand. The
#: sidebar's choice (``?app_lang=``) wins over it; without either, the browser's language.
LINK_LANG_KEY = "lang"


def drop_link_lang() -> None:
    """The sidebar switch's on_change: a choice made there drops a link's ``?lang=`` from the address, so a
    copied link does not carry two languages (``?app_lang=中文&lang=en``, which read as a contradiction)."""
    st.query_params.pop(LINK_LANG_KEY, None)


def default_lang() -> str:
    """The language before the sidebar switch has a value: ``?lang=<code>`` when the address has one
    naming a language the app has (normalised like a locale: ``zh-CN`` is ``zh``), else the browser's
    language (``st.context.locale``). ``en`` or ``zh``."""
    link = str(st.query_params.get(LINK_LANG_KEY) or "")
    head = link.replace("_", "-").split("-")[0].lower()
    return normalize_lang(link if head in LANG_LABELS else st.context.locale)


def lang() -> str:
    """The session's language (``en`` or ``zh``): the sidebar switch once it has a value;
    before that (the first run of a session), the one in the URL, else the browser's.

    Every translated string asks, a few hundred times per rerun, and a session-state read takes a
    lock and a widget-id lookup; the switch's value cannot change during a run (only the sidebar
    selectbox writes it, and a widget's value is fixed when the run starts), so once read it is
    remembered for the rest of this run: on the run's context, tied to the ``cursors`` dict Streamlit
    replaces at the start of every run and fragment run (bench/README.md, section H)."""
    ctx = get_script_run_ctx()
    memo = getattr(ctx, "_toolcall_lang", None)
    if memo is not None and memo[0] is ctx.cursors:
        return memo[1]
    value = st.session_state.get(LANG_KEY)
    if value in LANG_LABELS:
        if ctx is not None:
            ctx._toolcall_lang = (ctx.cursors, value)  # holds the dict: its identity is not reused meanwhile
        return value
    try:
        by_label = {label: code for code, label in LANG_LABELS.items()}
        return by_label.get(st.query_params.get(LANG_KEY, ""), default_lang())
    except Exception:  # outside a script run (AppTest calls format_func there): no context
        return "en"


def first_in_run(name: str) -> bool:
    """True the first time ``name`` is asked in this script run (or fragment run), False after: for a message
    said once however many calls meet its cause. Kept on the run's context like :func:`lang`'s memo. Outside
    a script run: always True."""
    ctx = get_script_run_ctx()
    if ctx is None:
        return True
    memo = getattr(ctx, "_toolcall_once", None)
    if memo is None or memo[0] is not ctx.cursors:
        memo = ctx._toolcall_once = (ctx.cursors, set())
    if name in memo[1]:
        return False
    memo[1].add(name)
    return True


def tr(key: str, **params: Any) -> str:
    """Translate ``key`` into the session's language."""
    return t(key, lang(), **params)


def file_mtime(path: Path) -> float:
    """``path``'s modification time, the cache key of what is loaded from it; 0.0 when it cannot be read
    (a dangling link, a symlink loop): the loader then reports the file, never a traceback here."""
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


@functools.lru_cache(maxsize=64)
def _load(kind: str, path: str, mtime: float):
    """The fixture at ``path`` as of ``mtime``: one object shared by every session of the process (read it,
    never change it; the fixture types are frozen dataclasses). Not st.cache_data: that pickles a copy out
    for every call, about ten per playground edit (bench/README.md, section H). Bounded: 64 entries."""
    loader = {"tool": load_tool, "outputs": load_outputs, "orders": load_orders,
              "walkthrough": load_walkthrough, "pairing": load_examples}[kind]
    return loader(Path(path))


def load(kind: str, relative: str):
    """Load a fixture (cached until the file changes). On a FixtureError, show every
    problem with its file and JSON path, then stop the page."""
    path = FIXTURES_DIR / relative
    try:
        return _load(kind, str(path), file_mtime(path))
    except FixtureError as exc:
        show_load_problems("page", exc.problems, stop=True)


def show_load_problems(kind: str, problems: Iterable[Any], *, stop: bool = False) -> None:
    """Say in the page's language that course files of ``kind`` (``"page"``: one this page needs,
    ``"exercises"``, ``"scenarios"``, ``"lessons"``: some left out, ``"recorded"``: a recorded run log, not
    shown) could not be loaded and that the instructor should run ``python -m toolcall check``; then the
    technical detail (each problem as ``str()``: file and JSON path, in English, for the instructor) as plain
    text, never Markdown.
    Nothing when ``problems`` is empty. ``stop``: the page cannot run without the file (st.stop())."""
    lines = [str(p) for p in problems]
    if not lines:
        return
    (st.error if stop else st.warning)(tr(f"load_problems.{kind}"), icon="⚠️")
    show_lines(lines, language=None, wrap_lines=True)
    if stop:
        st.stop()


#: Characters of JSON a code block shows (toolcall.text.bounded_json): indented while it fits, else on one line,
#: cut past it. A 99 000-character model output nested 60 deep was a 6.3 MB block on its card, on every edit.
JSON_DISPLAY_LIMIT = 50_000


def json_note(how: str, limit: int) -> str | None:
    """The caption under JSON that bounded_json did not indent (``how``), or None."""
    return None if how == PRETTY else tr(f"common.json_{how}", limit=f"{limit:,}")


#: Characters the escapes of HIDDEN characters may add to a code block whose text a student wrote at any length
#: (show_code's ``escapes``): each is 6 characters, 12 above U+FFFF, so a 190 000-character schema of tag characters
#: (760 KB typed) drew two 2.3 MB blocks in "What the model sees" on every edit (break-it pass brk13web).
MAX_ESCAPE_GROWTH = 50_000


def show_code(text: str, language: str | None = None, *, where: Any = None, escapes: int | None = None,
              **kwargs: Any) -> None:
    """``text`` in a code block (never Markdown, never HTML) with every HIDDEN character (zero-width, bidi, soft
    hyphen, BOM, tags …) as its ``\\uXXXX`` escape (toolcall.text.escape_invisible): inside a JSON string the
    escape means the same character, so copied JSON still parses to the same value. ``escapes``: how many
    characters the escapes may add (for text of any length: MAX_ESCAPE_GROWTH); past that the block is cut there
    and a caption says so. ``where`` is a container to draw into; other keyword arguments go to st.code
    (``wrap_lines`` …). The one code block of ui/ and pages/."""
    shown, where = escape_invisible(text), where or st
    limit = None if escapes is None else len(text) + escapes
    where.code(shown if limit is None else shown[:limit], language=language, **kwargs)
    if limit is not None and len(shown) > limit:
        where.caption(tr("common.escapes_cut", limit=f"{limit:,}", total=f"{len(shown):,}"))


def show_text(text: str, *, where: Any = None) -> None:
    """``text`` as st.text (literal, monospace) with every HIDDEN character escaped, as :func:`show_code`."""
    (where or st).text(escape_invisible(text))


def show_lines(lines: Iterable[str], *, code: bool = True, **kwargs: Any) -> None:
    """Each of ``lines`` (a list of problems, findings, notes) on one line of its own, in a code block
    (:func:`show_code`, keyword arguments to it) or, with ``code=False``, as st.text (:func:`show_text`). Each item
    is made one line first (toolcall.text.escape_line: its line ends, tabs and control characters as ``\\uXXXX``):
    a line break inside an item quoting what a student wrote (an .eval member's name, a property name in a JSON
    Pointer, a pattern) drew a line of its own, one that read as another item ("line 9: …: every run passed")
    (issue 13, break-it pass brk13lab)."""
    text = "\n".join(escape_line(line) for line in lines)
    if code:
        show_code(text, **kwargs)
    else:
        show_text(text)


#: What a drawing plan's step names (ui/cards.py) call: the escaping helpers for text shown literally.
DRAWERS: dict[str, Any] = {"code": show_code, "text": show_text}


def show_json(value: Any, limit: int = JSON_DISPLAY_LIMIT) -> None:
    """JSON in a copyable code block (never rendered as Markdown): indented while that stays within
    ``limit`` characters, else on one line, cut at ``limit`` (a caption says which)."""
    text, how = bounded_json(value, limit)
    show_code(text, language="json", wrap_lines=True)
    if (note := json_note(how, limit)) is not None:
        st.caption(note)


#: Characters of a raw output shown on a card; the rest is summarised (ui/cards.py).
RAW_DISPLAY_LIMIT = 3000


def show_cached_chart(build, *args) -> None:
    """Draw the Altair chart ``build(*args)`` full width from its Vega-Lite spec, built once per arguments
    in this process (toolcall.charts.cached_spec): a slider position another student already saw, or the
    defaults the warm-up built (toolcall/warmup.py), costs no chart building."""
    from toolcall.charts import cached_spec  # here: altair and pandas only on pages that draw charts

    st.vega_lite_chart(cached_spec(build, *args), width="stretch")


def show_chart(chart) -> None:
    """Draw an Altair chart (full width) without validating its Vega-Lite spec against Altair's
    JSON Schema on every render: that check takes most of a chart's render time (≈ 0.3 s per
    chart; bench/README.md, section G) and verifies our own chart code, not anything a student
    typed, so the unit tests run it instead (tests/unit/test_charts.py, test_eval_charts.py and
    test_dashboard.py call ``chart.to_dict()``, which validates)."""
    # Streamlit calls chart.to_dict(); object.__setattr__ because Altair's own __setattr__ would
    # take "to_dict" for a chart property
    object.__setattr__(chart, "to_dict", functools.partial(type(chart).to_dict, chart, validate=False))
    st.altair_chart(chart, width="stretch")


def show_table(rows: list[dict], *, where: Any = None, max_px: int = MAX_PX, **kwargs: Any) -> None:
    """``st.dataframe`` of ``rows`` (dicts with the same keys) with every column as wide as its widest
    text, header included (toolcall.columns.fit_widths): the grid sizes columns from its first rows only
    and cut "Harness scenario" in the Exercises table. ``where`` is a container to draw into; other
    keyword arguments go to st.dataframe (``key``, ``height`` …); no index. Every text cell and header is shown
    with its HIDDEN characters escaped (toolcall.text.escape_invisible), as in :func:`show_code`."""
    rows = [{escape_invisible(str(k)): escape_invisible(v) if isinstance(v, str) else v for k, v in row.items()}
            for row in rows]
    config = {column: st.column_config.Column(width=px) for column, px in fit_widths(rows, max_px).items()}
    (where or st).dataframe(rows, hide_index=True, width="stretch", column_config=config, **kwargs)
