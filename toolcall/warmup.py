"""Warm a server process in the background: import what the other pages need and fill the
playground's shared caches, so neither the next page nor the next student pays for them.

:func:`start_background` runs once per process: started by the server start (ui/startup.py, after the first
pages are warm) under ``streamlit run app.py``, else by app.py at the end of the first script run. Either way
it waits 5 s and then for a quiet process, so the first student's page is drawn first. Every step is
bounded (a fixed list of modules; the shipped fixtures; 2 languages × 2 wire formats) and a failure is only
logged: a page that needs a module still imports it itself.
"""

from __future__ import annotations

import gc
import importlib
import logging
import threading
import time

#: Modules the pages import on first use, heaviest first (python -X importtime; bench/README.md, G).
MODULES: tuple[str, ...] = ("pandas", "pyarrow", "altair", "numpy", "toolcall.charts", "toolcall.eval_charts",
                            "toolcall.evaluation", "toolcall.eval_import", "toolcall.dashboard", "toolcall.strict",
                            "toolcall.harness_grading", "toolcall.grading", "toolcall.lessons")

log = logging.getLogger(__name__)


def warm_playground() -> None:
    """Judge the shipped refund_order outputs against the reference schema in both languages
    and both wire formats, through the caches the playground reads (check_schema_cached,
    evaluate_canned_cached)."""
    from toolcall.fixtures import load_orders, load_outputs, load_tool
    from toolcall.i18n import LANGS
    from toolcall.judge import evaluate_canned_cached
    from toolcall.presets import schema_text
    from toolcall.validation import check_schema_cached
    from toolcall.wire import FORMATS

    tool, outputs, book = load_tool(), load_outputs(), load_orders()
    text = schema_text(tool.input_schema)
    for lang in LANGS:
        check_schema_cached(text, lang)
        for fmt in FORMATS:
            evaluate_canned_cached(outputs.outputs, tool.input_schema, tool.name, book, lang, fmt, False)


def warm_charts() -> None:
    """Build the pass^k lab's two charts at their default inputs in both languages into the chart cache
    (toolcall.charts.cached_spec), so the page's first render by any student builds no chart."""
    from toolcall.charts import PASSK_DEFAULTS, RETRY_DEFAULTS, cached_spec, passk_chart_for, retry_chart
    from toolcall.i18n import LANGS

    for lang in LANGS:
        cached_spec(passk_chart_for, *PASSK_DEFAULTS, lang)
        cached_spec(retry_chart, *RETRY_DEFAULTS, lang)


def warm(modules: tuple[str, ...] = MODULES, before_step=None) -> dict[str, float]:
    """Import ``modules`` then warm the playground's caches and the pass^k lab's charts; returns seconds per
    step (keys: module names, ``"playground"`` and ``"charts"``), ``before_step()`` called before each (not
    counted). Never raises: a failing step is logged and skipped."""
    steps = [(name, lambda name=name: importlib.import_module(name)) for name in modules]
    steps += [("playground", warm_playground), ("charts", warm_charts)]
    return run_steps(steps, "warm-up", before_step)


def run_steps(steps, label: str, before_step=None) -> dict[str, float]:
    """Run each ``(name, step)`` in turn, ``before_step()`` before each (not counted); returns seconds per step.
    Never raises: a failing step (a missing optional dependency, say) is logged under ``label`` and skipped,
    since the server must serve anyway and a page reports its own errors."""
    took: dict[str, float] = {}
    for name, step in steps:
        if before_step is not None:
            before_step()
        start_at = time.perf_counter()
        try:
            step()
        except Exception:
            log.warning("%s: %s failed", label, name, exc_info=True)
        took[name] = time.perf_counter() - start_at
    return took


#: Seconds the warm-up waits after the first page's script run, then at most for the process to be quiet.
#: The script's end is not the student's page drawn: the server still answers the browser, and imports in
#: this thread hold the GIL, and the browser still draws. bench/browser.py at load 14-17 on 2 cores,
#: page.goto -> usable: 23.9-25.8 s with the warm-up starting at once, 21.6 s waiting only for a quiet
#: process (the server goes quiet while Chromium still draws), 14.8-15.1 s with 5 s first (the tree before
#: these changes: 15.6-19.2 s); bench/README.md, section H. A lone server's second student may pay an import.
START_DELAY = 5.0
QUIET_WAIT = 30.0


def wait_until_quiet(delay: float = START_DELAY, limit: float = QUIET_WAIT, window: float = 0.5,
                     busy: float = 0.05, *, clock=time.monotonic, cpu=time.process_time, sleep=time.sleep) -> float:
    """Sleep ``delay`` s, then until the whole process used under ``busy`` of a core over a ``window``
    (every thread: time.process_time), at most ``limit`` s more. Returns the seconds waited.
    ``clock``, ``cpu`` and ``sleep`` are the wall clock, the process CPU clock and the sleep it uses
    (tests pass fakes, so no test depends on how busy the machine is)."""
    start = clock()
    sleep(delay)
    while clock() - start < delay + limit:
        before = cpu()
        sleep(window)
        if cpu() - before < busy * window:
            break
    return clock() - start


#: time.monotonic() at the end of the last script run of any session (app.py calls :func:`note_script_run`).
_last_script_run = float("-inf")


def note_script_run(clock=time.monotonic) -> None:
    """Remember that a session's script run has just ended (its browser is drawing the page now)."""
    global _last_script_run
    _last_script_run = clock()


def step_aside(clock=time.monotonic) -> float:
    """Before each warm-up step: wait until :data:`START_DELAY` s have passed since the last script run ended
    (that student's browser draws the page meanwhile, for seconds, on the same cores) and the process is quiet
    (:func:`wait_until_quiet`). Returns the seconds waited."""
    return wait_until_quiet(delay=max(0.0, START_DELAY - (clock() - _last_script_run)))


def _warm_when_quiet(modules: tuple[str, ...]) -> None:
    """Wait (:func:`wait_until_quiet`), then warm, stepping aside before every step (:func:`step_aside`): a
    student who arrives meanwhile gets the page drawn without this thread's imports holding the GIL or a core
    (each step is one module or one cache: at most ≈ 1 s of CPU here; bench/README.md, section J)."""
    wait_until_quiet()
    warm(modules, before_step=step_aside)
    step_aside()
    freeze_long_lived()


def freeze_long_lived(collector=gc) -> int:
    """Collect garbage once, then move every object still alive (the imported libraries, the warmed caches:
    ≈ 160 000 objects in a served process) to the collector's permanent generation (``gc.freeze``), so no
    later collection walks them again. Returns how many objects are frozen (``gc.get_freeze_count``).

    Why: with pandas, pyarrow, altair and jsonschema loaded, each automatic full collection walked them all
    holding the GIL, ≈ 100 ms of CPU while every other student of the process waited (every ~15 s under a
    class's edits); after the freeze a full collection walks only what students' sessions created since, 6-8 ms
    (bench/README.md, section M). ``gc.freeze`` "moves them to a permanent generation and ignores them in all
    the future collections" (https://docs.python.org/3/library/gc.html#gc.freeze). What is frozen is the
    process's long-lived state, never freed before exit anyway; objects created later are collected as before.
    ``collector`` is the ``gc`` module (a stand-in in tests)."""
    collector.collect()
    collector.freeze()
    return collector.get_freeze_count()


_started: threading.Thread | None = None
_start_lock = threading.Lock()


def start_background(modules: tuple[str, ...] = MODULES) -> threading.Thread:
    """Run :func:`warm` in a daemon thread once the process is quiet (:func:`wait_until_quiet`); it never
    blocks the caller nor the server's exit. Once per process: a later call returns the first call's thread
    (the server start, ui/startup.py, and app.py's first script run both ask for it)."""
    global _started
    with _start_lock:
        if _started is None:
            _started = threading.Thread(target=_warm_when_quiet, args=(modules,), name="toolcall-warmup",
                                        daemon=True)
            _started.start()
        return _started
