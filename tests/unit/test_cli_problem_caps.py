"""``grade --exercises`` and ``eval --selection`` show at most CHECK_SHOWN of the problems of the content files they
load, then how many more there were, as ``check`` does: a folder of 3 000 copies of one exercise file printed all
9 000 of its "duplicate exercise id" problems before "unknown exercise id", and a selection set's every problem came
on one line."""

import shutil

import yaml

from toolcall import REPO_ROOT
from toolcall.cli import CHECK_SHOWN, main

GENERAL = REPO_ROOT / "fixtures" / "exercises" / "general.yaml"
MORE = "… and {n:,} more problems not shown (in a content folder, python -m toolcall check --all lists every one)"


def test_grade_shows_the_first_problems_and_counts_the_rest(tmp_path, capsys):
    ids = [e["id"] for e in yaml.safe_load(GENERAL.read_text(encoding="utf-8"))["exercises"]]
    copies = CHECK_SHOWN // len(ids) + 2
    for i in range(copies):
        shutil.copy(GENERAL, tmp_path / f"g{i:03}.yaml")
    total = (copies - 1) * len(ids)  # each id again in every copy after the first
    assert main(["grade", "no_such", "1", "--exercises", str(tmp_path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == CHECK_SHOWN + 2
    assert all("duplicate exercise id" in line for line in lines[:CHECK_SHOWN])
    assert lines[CHECK_SHOWN] == MORE.format(n=total - CHECK_SHOWN)
    assert lines[-1].startswith("unknown exercise id 'no_such'; known ids: ")


def test_grade_shows_every_problem_up_to_the_cap(tmp_path, capsys):
    shutil.copy(GENERAL, tmp_path / "a.yaml")
    shutil.copy(GENERAL, tmp_path / "b.yaml")
    n = len(yaml.safe_load(GENERAL.read_text(encoding="utf-8"))["exercises"])
    assert main(["grade", "no_such", "1", "--exercises", str(tmp_path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == n + 1 and not any(line.startswith("… and") for line in lines)


def test_eval_selection_problems_one_a_line_and_capped(tmp_path, capsys):
    data = yaml.safe_load((REPO_ROOT / "fixtures" / "selection" / "shop.en.yaml").read_text(encoding="utf-8"))
    cases = data["cases"]
    while len(cases) <= CHECK_SHOWN:  # one problem a case, past the cap
        cases += [dict(c, id=f"{c['id']}_{len(cases)}") for c in data["cases"][:31]]
    for case in cases:
        case["bogus"] = 1
    bad = tmp_path / "set.yaml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    runs = str(REPO_ROOT / "fixtures" / "eval_runs" / "shop_good.en.jsonl")
    assert main(["eval", runs, "--k", "1", "--selection", str(bad)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[:2] == [f"--selection {bad}: $.cases[0]: Additional properties are not allowed ('bogus')",
                         f"--selection {bad}: $.cases[1]: Additional properties are not allowed ('bogus')"]
    assert lines[CHECK_SHOWN:] == [MORE.format(n=len(cases) - CHECK_SHOWN)]


def _tool_with_unknown_translations(tmp_path, n):
    import json

    data = json.loads((REPO_ROOT / "fixtures" / "tools" / "get_order.json").read_text(encoding="utf-8"))
    data["x-i18n"]["zh"]["properties"] = {f"p{i:05}": "说明" for i in range(n)}
    path = tmp_path / "get_order.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_result_and_strict_show_the_first_problems_of_a_tool_file(tmp_path, capsys):
    n = CHECK_SHOWN + 900
    tool = _tool_with_unknown_translations(tmp_path, n)
    for argv in (["result", "--tool", str(tool), "--input", '{"order_id": "ORD-20261102"}'],
                 ["strict", str(tool), "--provider", "openai"]):
        assert main(argv) == 2
        lines = capsys.readouterr().err.splitlines()
        assert lines[0] == f"{tool}: $.x-i18n.zh.properties.p00000: 'p00000' is not a property of input_schema"
        assert lines[CHECK_SHOWN - 1].endswith(f"'p{CHECK_SHOWN - 1:05}' is not a property of input_schema")
        assert lines[CHECK_SHOWN:] == [MORE.format(n=n - CHECK_SHOWN)]
