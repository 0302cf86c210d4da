"""python -m toolcall result / check, as DESIGN.md specifies them."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from toolcall.cli import main

REPO = Path(__file__).resolve().parents[2]
TOOL = str(REPO / "fixtures" / "tools" / "refund_order.json")


def run(*args, stdin=None):
    proc = subprocess.run([sys.executable, "-m", "toolcall", *args], cwd=REPO, capture_output=True, text=True,
                          input=stdin, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def test_result_anthropic_wrong_type(capsys):
    code = main(["result", "--tool", TOOL, "--input",
                 '{"order_id": "ORD-20260917", "amount_cents": "19.99", "reason": "damaged"}', "--id", "toolu_01A"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["type"] == "tool_result" and out["tool_use_id"] == "toolu_01A" and out["is_error"] is True
    assert '- /amount_cents (type): expected type integer; received string "19.99".' in out["content"]


def test_result_openai_truncated_quotes_raw_inside_valid_json(capsys):
    raw = '{"order_id": "ORD-20260917", "amount_cents": 1999, "rea'
    assert main(["result", "--tool", TOOL, "--input", raw, "--format", "openai", "--id", "call_9"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["role"], out["tool_call_id"]) == ("tool", "call_9")
    content = json.loads(out["content"])
    assert (content["error"], content["raw"], content["column"]) == ("INVALID_JSON", raw, 52)


def test_result_valid_runs_the_fake_backend_in_chinese(capsys):
    assert main(["result", "--tool", TOOL, "--input", '{"order_id": "ORD-20261102", "amount_cents": 100, '
                 '"reason": "other"}', "--lang", "zh", "--id", "t"]) == 0
    content = json.loads(json.loads(capsys.readouterr().out)["content"])
    assert content["error"]["code"] == "ORDER_NOT_DELIVERED"
    assert content["error"]["message"].endswith("请改用 cancel_order。")


def test_result_with_loosened_schema_file(tmp_path, capsys):
    schema = tmp_path / "loose.json"
    schema.write_text('{"type": "object"}')
    assert main(["result", "--tool", TOOL, "--schema", str(schema), "--id", "t", "--input",
                 '{"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged", "x": 1}']) == 0
    assert "refund_id" in json.loads(capsys.readouterr().out)["content"]


def test_result_with_broken_schema_file_exits_2(tmp_path, capsys):
    schema = tmp_path / "bad.json"
    schema.write_text('{"type": ')
    assert main(["result", "--tool", TOOL, "--schema", str(schema), "--input", "{}"]) == 2
    assert "Not JSON: The text stops at line 1, column 8, before the JSON is complete" in capsys.readouterr().err


def test_result_reads_stdin():
    code, out, _ = run("result", "--tool", TOOL, "--input", "-", "--id", "x", stdin="[1]")
    assert code == 0 and json.loads(json.loads(out)["content"])["error"] == "NOT_AN_OBJECT"


def test_check_passes_on_the_repository():
    code, out, err = run("check")
    assert (code, out.strip()) == (0, "all content checks passed"), err


@pytest.fixture
def content_copy(tmp_path):
    shutil.copytree(REPO / "fixtures", tmp_path / "fixtures")
    if (REPO / "lessons").exists():
        shutil.copytree(REPO / "lessons", tmp_path / "lessons")
    return tmp_path


def test_check_names_file_and_json_path_of_a_typo(content_copy):
    path = content_copy / "fixtures" / "outputs" / "refund_order.yaml"
    path.write_text(path.read_text().replace("    expected: accepted", "    expected: acepted", 1))
    code, out, _ = run("check", str(content_copy))
    assert code == 1
    assert "fixtures/outputs/refund_order.yaml: $.outputs[0].expected: 'acepted' is not one of ['accepted', 'rejected']" \
        in out.replace(str(content_copy) + "/", "")


def test_check_catches_a_wrong_expected_verdict(content_copy):
    path = content_copy / "fixtures" / "outputs" / "refund_order.yaml"
    text = path.read_text().replace("catches: enum\n    expected: rejected", "catches: enum\n    expected: accepted")
    path.write_text(text)
    code, out, _ = run("check", str(content_copy))
    assert code == 1
    index = [o["id"] for o in yaml.safe_load(text)["outputs"]].index("enum_violation")
    assert f"$.outputs[{index}]: output 'enum_violation': expected accepted, got rejected (caught by enum)" in out


def test_check_catches_a_seventh_output_added_by_fixture_only(content_copy):
    path = content_copy / "fixtures" / "outputs" / "refund_order.yaml"
    text = path.read_text().replace("# Schema-valid calls", """  - id: case_drift
    label: {en: "Enum case drift", zh: "枚举大小写不一致"}
    raw: '{"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "Damaged"}'
    catches: enum
    expected: rejected
# Schema-valid calls""")
    path.write_text(text)
    code, out, err = run("check", str(content_copy))
    assert (code, out.strip()) == (0, "all content checks passed"), out + err


def test_check_reports_yaml_syntax_with_line(content_copy):
    path = content_copy / "fixtures" / "orders" / "orders.yaml"
    path.write_text(path.read_text() + "  - order_id: [unclosed\n")
    code, out, _ = run("check", str(content_copy))
    assert code == 1 and "fixtures/orders/orders.yaml: $: not YAML: line" in out


def test_check_on_a_folder_without_content_fails(tmp_path):
    code, out, _ = run("check", str(tmp_path))
    assert code == 1 and out.strip().endswith("$: no fixtures/ folder here: nothing to check")
