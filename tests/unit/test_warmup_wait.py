"""toolcall.warmup.wait_until_quiet: the warm-up starts once the process is quiet, never later than its bound.

A fake clock (windows are binary fractions, so sums are exact): each sleep advances the wall clock, and the process "uses" the CPU the test says it does
over each window, so no case depends on how busy the machine running the tests is."""

from toolcall.warmup import wait_until_quiet


class FakeProcess:
    """Wall clock and CPU clock of a process that uses ``load`` cores (a list: one figure per window,
    the last repeated) while wait_until_quiet sleeps."""

    def __init__(self, load: list[float]):
        self.wall = self.used = 0.0
        self.load, self.sleeps = load, []

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        share = self.load[min(len(self.sleeps) - 2, len(self.load) - 1)] if len(self.sleeps) > 1 else 0.0
        self.wall += seconds
        self.used += share * seconds

    def kwargs(self) -> dict:
        return {"clock": lambda: self.wall, "cpu": lambda: self.used, "sleep": self.sleep}


def test_a_quiet_process_waits_only_the_delay_and_one_window():
    process = FakeProcess([0.0])
    assert wait_until_quiet(delay=5.0, limit=30.0, window=0.5, **process.kwargs()) == 5.5
    assert process.sleeps == [5.0, 0.5]


def test_a_process_that_goes_quiet_is_left_alone_from_then():
    process = FakeProcess([1.0, 0.5, 0.04])  # two busy windows, then under 5 % of a core
    assert wait_until_quiet(delay=5.0, limit=30.0, window=0.5, busy=0.05, **process.kwargs()) == 6.5
    assert process.sleeps == [5.0, 0.5, 0.5, 0.5]


def test_a_busy_process_waits_until_the_limit():
    process = FakeProcess([1.0])
    assert wait_until_quiet(delay=0.0, limit=0.5, window=0.125, busy=0.05, **process.kwargs()) == 0.5
    assert process.sleeps == [0.0] + [0.125] * 4


def test_the_background_warm_up_starts_once_per_process(monkeypatch):
    """The server start (ui/startup.py) and app.py's first script run both ask for it: one thread."""
    from toolcall import warmup

    ran = []
    monkeypatch.setattr(warmup, "_started", None)
    monkeypatch.setattr(warmup, "_warm_when_quiet", ran.append)
    first = warmup.start_background(("json",))
    assert warmup.start_background(("csv",)) is first
    first.join(5)
    assert ran == [("json",)]


def test_the_warm_up_steps_aside_before_every_step(monkeypatch):
    """Each module and cache step is preceded by step_aside, so a student's script run that starts during the
    warm-up is not queued behind a whole list of imports."""
    from toolcall import warmup

    log = []
    monkeypatch.setattr(warmup, "wait_until_quiet", lambda delay=warmup.START_DELAY, **_: log.append(("wait", delay)))
    monkeypatch.setattr(warmup, "step_aside", lambda: log.append("aside"))
    monkeypatch.setattr(warmup, "warm_playground", lambda: log.append("playground"))
    monkeypatch.setattr(warmup, "warm_charts", lambda: log.append("charts"))
    monkeypatch.setattr(warmup.importlib, "import_module", lambda name: log.append(name))
    monkeypatch.setattr(warmup, "freeze_long_lived", lambda: log.append("freeze"))
    warmup._warm_when_quiet(("json", "csv"))
    assert log == [("wait", warmup.START_DELAY), "aside", "json", "aside", "csv", "aside", "playground", "aside",
                   "charts", "aside", "freeze"]


def test_freezing_collects_first_then_freezes_what_is_left():
    """Garbage is collected before the freeze (frozen garbage would never be freed), and the count frozen is
    the collector's own."""
    from toolcall.warmup import freeze_long_lived

    calls = []

    class Collector:
        def collect(self):
            calls.append("collect")

        def freeze(self):
            calls.append("freeze")

        def get_freeze_count(self):
            calls.append("count")
            return 158_000

    assert freeze_long_lived(Collector()) == 158_000
    assert calls == ["collect", "freeze", "count"]


def test_a_served_process_freezes_its_warmed_objects():
    """In a real interpreter: after the freeze the libraries' objects are in the permanent generation and a
    full collection no longer counts them (gc.get_objects(2) shrinks by at least what was frozen)."""
    import subprocess
    import sys

    code = ("import gc, json, jsonschema, toolcall.warmup as w; before = len(gc.get_objects(2)); "
            "n = w.freeze_long_lived(); print(before, n, len(gc.get_objects(2)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    before, frozen, after = map(int, out.stdout.split())
    assert frozen >= 10_000 and after < 1_000 and before > after


def test_stepping_aside_leaves_the_last_student_start_delay_seconds(monkeypatch):
    """5 s after the last script run ended, whatever the warm-up did meanwhile; no wait once they have passed."""
    from toolcall import warmup

    delays = []
    monkeypatch.setattr(warmup, "wait_until_quiet", lambda delay, **_: delays.append(delay) or delay)
    monkeypatch.setattr(warmup, "_last_script_run", float("-inf"))
    warmup.step_aside(clock=lambda: 100.0)  # nobody has run a script yet
    warmup.note_script_run(clock=lambda: 100.0)
    warmup.step_aside(clock=lambda: 101.5)  # 1.5 s after a script run ended
    warmup.step_aside(clock=lambda: 100.0 + warmup.START_DELAY + 1)
    assert delays == [0.0, warmup.START_DELAY - 1.5, 0.0]
