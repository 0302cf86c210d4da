"""The harness lab opens, and names the file, when a scenario's scripted call holds a YAML date (issue 13, break-it
pass brk14content): ``input: {order_id: 2026-09-17}`` passed check and the page failed in class with "Object of type
date is not JSON serializable"; the playground opens when an output's label holds a lone surrogate escape."""

import json
import os
import subprocess
import sys

from tests.content_copy import edited_copy, shown_on_page
from toolcall import REPO_ROOT


def test_a_date_in_a_scripted_call_is_named_on_the_page_not_a_traceback(tmp_path):
    call = "input: {order_id: ORD-20260917, amount_cents: 1999, reason: damaged}"
    root = edited_copy(tmp_path, "fixtures/scenarios/01-plain-call.yaml", call, call.replace("ORD-20260917",
                                                                                             "2026-09-17"))
    shown = shown_on_page(root, "en", "pages/harness_lab.py")
    assert shown["exception"] == []
    assert ('fixtures/scenarios/01-plain-call.yaml: $.steps[0].model.calls[0].input.order_id: line 34 column 57: YAML '
            'reads 2026-09-17 as a date, which JSON has no type for (a page would fail on it): write it in quotes, '
            '"2026-09-17"') in shown["code"]


def test_a_lone_surrogate_in_a_label_is_named_on_the_playground_not_a_traceback(tmp_path):
    """``"… \\ud800"`` in an output's label failed the playground with "'utf-8' codec can't encode character"."""
    root = edited_copy(tmp_path, "fixtures/outputs/refund_order.yaml", 'label: {en: "Missing a required field"',
                       'label: {en: "Missing a required field \\ud800"')
    run = subprocess.run([sys.executable, "-m", "tests.app.broken_content_probe", "en", "pages/playground.py"],
                         capture_output=True, text=True, cwd=REPO_ROOT, timeout=600,
                         env={**os.environ, "TOOLCALL_CONTENT_ROOT": str(root)})
    assert run.returncode == 0, run.stderr[-3000:]
    assert json.loads(run.stdout.strip().splitlines()[-1])["pages/playground.py"]["exception"] == []
