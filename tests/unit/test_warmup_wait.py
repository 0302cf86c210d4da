"""toolcall.warmup.wait_until_quiet: the warm-up starts once the process is quiet, never later than its bound."""

import threading
import time

from toolcall.warmup import wait_until_quiet


def test_a_quiet_process_waits_only_the_delay_and_one_window():
    assert wait_until_quiet(delay=0.0, limit=5.0, window=0.1) < 1.5


def test_a_busy_process_waits_until_the_limit():
    stop = time.monotonic() + 3.0

    def spin():
        while time.monotonic() < stop:
            sum(range(1000))
    worker = threading.Thread(target=spin, daemon=True)
    worker.start()
    waited = wait_until_quiet(delay=0.0, limit=0.6, window=0.1, busy=0.05)
    worker.join()
    assert 0.6 <= waited < 2.5
