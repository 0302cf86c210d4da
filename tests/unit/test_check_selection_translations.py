"""Each language's selection set is a translation of the first's (same cases, tools, expected tools and near
misses), and each recorded log has runs only of its language's cases: a case renamed in one language's set
(``go_paid`` -> ``go_paidx`` in shop.zh.yaml) passed `check`, and the lab then graded the recorded runs of
``go_paid`` by the log's own stale expectation. A case added to every set may have no runs yet."""

import shutil
from pathlib import Path

import pytest
import yaml

from toolcall import REPO_ROOT
from toolcall.check import REGENERATE, run_checks
from toolcall.i18n import LANGS


@pytest.fixture
def content(tmp_path: Path) -> Path:
    for part in ("fixtures", "lessons"):
        shutil.copytree(REPO_ROOT / part, tmp_path / part)
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


def _found(content: Path) -> list[tuple[str, str, str]]:
    return [(Path(p.file).relative_to(content).as_posix(), p.path, p.message) for p in run_checks(content)]


def test_a_case_renamed_in_one_language_only(content):
    _edit(content / "fixtures/selection/shop.zh.yaml", "- id: go_paid\n", "- id: go_paidx\n")
    assert _found(content) == [
        ("fixtures/selection/shop.zh.yaml", "$.cases[6].id", "'go_paidx' is no case of fixtures/selection/shop.en.yaml: "
         "each language's set has the same cases (a translation of each request)"),
        ("fixtures/selection/shop.zh.yaml", "$.cases", "no zh version of the cases ['go_paid'] of "
         "fixtures/selection/shop.en.yaml"),
        *[(f"fixtures/eval_runs/shop_{version}.zh.jsonl", "$", message + REGENERATE)
          for version in ("good", "vague")
          for message in ("runs of cases fixtures/selection/shop.zh.yaml does not have: ['go_paid']",)],
        # simulation.yaml names the case too (checked since brk16content; this test was not updated then)
        ("fixtures/eval_runs/simulation.yaml", "$.cases.go_paid", "'go_paid' is no case of "
         "fixtures/selection/shop.zh.yaml: did you mean 'go_paidx'?")]


def test_a_case_renamed_in_every_set_but_not_in_the_recorded_runs(content):
    for lang in LANGS:
        _edit(content / f"fixtures/selection/shop.{lang}.yaml", "- id: go_paid\n", "- id: go_price\n")
    found = _found(content)
    assert {file for file, _, _ in found} == {f"fixtures/eval_runs/shop_{v}.{lang}.jsonl" for v in ("good", "vague")
                                              for lang in LANGS} | {"fixtures/eval_runs/simulation.yaml"}
    assert len(found) == 6 and all("does not have: ['go_paid']" in m for f, _, m in found if f.endswith(".jsonl"))
    assert [m for f, _, m in found if f.endswith(".yaml")] == [
        f"'go_paid' is no case of fixtures/selection/shop.{lang}.yaml" for lang in LANGS]


def test_another_expected_tool_in_a_translation(content):
    _edit(content / "fixtures/selection/shop.zh.yaml", "should_not_call: [search_orders, refund_order]",
          "should_not_call: [refund_order]")
    assert _found(content) == [("fixtures/selection/shop.zh.yaml", "$.cases[6].should_not_call",
                                "['refund_order'] differs from ['search_orders', 'refund_order'] for 'go_paid' in "
                                "fixtures/selection/shop.en.yaml")]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("where", [0, -1])
def test_a_case_missing_from_any_language_is_reported(content, lang, where):
    """The next member: any case, dropped from any language's set, is named."""
    path = content / f"fixtures/selection/shop.{lang}.yaml"
    data = yaml.safe_load(path.read_text("utf-8"))
    gone = data["cases"].pop(where)["id"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    messages = [p.message for p in run_checks(content)]
    assert any(repr(gone) in m or f"[{gone!r}]" in m for m in messages), messages


def test_a_log_of_many_unknown_cases_lists_a_dozen_escaped_and_counts_the_rest(content):
    """A log may hold 200 000 runs: each case id the set lacks was listed (124 ids were a 2 264-character line;
    a look-alike letter drawn as itself). At most 12 now, quoted escaped and cut, and the count of the rest
    (break-it pass brk18new)."""
    import json
    path = content / "fixtures/eval_runs/shop_good.en.jsonl"
    lines = path.read_text("utf-8").splitlines()
    extra = json.loads(lines[1])
    ids = ["go_p\u0430id"] + [f"gone_{n:02d}" for n in range(20)] + ["x" * 100]
    added = [json.dumps({**extra, "case_id": case_id, "run": 1}, ensure_ascii=False) for case_id in ids]
    path.write_text("\n".join(lines + added) + "\n", "utf-8")
    found = [m for f, _, m in _found(content) if f == "fixtures/eval_runs/shop_good.en.jsonl"]
    assert found == ["runs of cases fixtures/selection/shop.en.yaml does not have: ['go_p\\u0430id', "
                     + ", ".join(f"'gone_{n:02d}'" for n in range(11)) + "] and 10 more" + REGENERATE]
