"""An entry written into the wrong list of an outputs file is told where it belongs: a newcomer appending a card at
the end of fixtures/outputs/refund_order.yaml (as the README's "add a card = add an entry" invites) put it into
business_cases:, the file's last list, and `check` said only "'expected_error' is a required property" and
"Additional properties are not allowed ('catches', 'expected')"."""

import shutil

from toolcall import REPO_ROOT
from toolcall.check import run_checks
from toolcall.fixtures import load_outputs

FILE = "fixtures/outputs/refund_order.yaml"
CARD = """  - id: zero_amount
    label: {en: "Zero cents", zh: "金额为 0"}
    raw: '{"order_id": "ORD-20260917", "amount_cents": 0, "reason": "damaged"}'
    catches: minimum
    expected: rejected
"""


def _copy(tmp_path):
    for part in ("fixtures", "lessons"):
        shutil.copytree(REPO_ROOT / part, tmp_path / part)
    return tmp_path / FILE


def test_a_card_appended_at_the_end_is_told_to_go_under_outputs(tmp_path):
    path = _copy(tmp_path)
    text = path.read_text("utf-8")
    assert text.rstrip("\n").rsplit("\n", 1)[-1].startswith("    expected_error:")  # business_cases: comes last
    path.write_text(text + CARD, "utf-8")
    at = f"$.business_cases[{len(load_outputs(REPO_ROOT / FILE).business_cases)}]"
    assert [(p.file.removeprefix(f"{tmp_path}/"), p.path, p.message) for p in run_checks(tmp_path)] == [
        (FILE, at, "'expected_error' is a required property"),
        (FILE, at, "Additional properties are not allowed ('catches', 'expected')"),
        (FILE, at, "has expected and catches, a canned output's fields: cards go under outputs: (above "
                   "business_cases:, which holds schema-valid calls the backend refuses, each with expected_error)"),
    ]


def test_a_business_case_under_outputs_is_told_to_go_under_business_cases(tmp_path):
    path = _copy(tmp_path)
    text = path.read_text("utf-8")
    case = ("  - id: zero_paid\n    label: {en: \"Zero\", zh: \"零\"}\n"
            "    raw: '{\"order_id\": \"ORD-19990101\", \"amount_cents\": 1, \"reason\": \"other\"}'\n"
            "    expected_error: ORDER_NOT_FOUND\n")
    path.write_text(text.replace("\noutputs:\n", "\noutputs:\n" + case, 1), "utf-8")
    problems = [(p.path, p.message) for p in run_checks(tmp_path) if p.path.startswith("$.outputs[0]")]
    assert problems == [
        ("$.outputs[0]", "'catches' is a required property"),
        ("$.outputs[0]", "'expected' is a required property"),
        ("$.outputs[0]", "Additional properties are not allowed ('expected_error')"),
        ("$.outputs[0]", "has expected_error, a business case's field: a schema-valid call the backend refuses goes "
                         "under business_cases:"),
    ]
