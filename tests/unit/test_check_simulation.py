"""fixtures/eval_runs/simulation.yaml, the spec the recorded runs are drawn from, is checked like every other
instructor file (break-it pass brk16content): a typo in it (an outcome ``righ``, a renamed case, probabilities
summing to 0.1) passed ``python -m toolcall check`` and ended scripts/make_eval_runs.py in a traceback naming no
file (``ValueError: unknown outcome 'righ'``, ``KeyError: 'ro_extra'``), and a case added to the set without
probabilities, which the README allows, ended the script in ``KeyError``."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from toolcall import REPO_ROOT
from toolcall.check import APP_READS, run_checks

SIM = "fixtures/eval_runs/simulation.yaml"
SET = "[search_orders, get_order, cancel_order, refund_order, update_shipping]"


@pytest.fixture
def content(tmp_path: Path) -> Path:
    for part in ("fixtures", "lessons"):
        shutil.copytree(REPO_ROOT / part, tmp_path / part)
    return tmp_path


def _edit(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), "utf-8")


def _sim_problems(root: Path) -> list[tuple[str, str]]:
    return [(p.path, p.message) for p in run_checks(root) if p.file.endswith(SIM)]


#: (what is written in place of what, the (JSON path, message) pairs check must print for simulation.yaml).
TYPOS = [
    ("so_lamp:         {vague: {right: 0.5", "so_lamp:         {vague: {righ: 0.5",
     [("$.cases.so_lamp.vague.righ", "'righ' is no outcome: did you mean 'right'?")]),
    ("so_unshipped:", "so_unshiped:",
     [("$.cases.so_unshiped", "'so_unshiped' is no case of fixtures/selection/shop.en.yaml: did you mean "
                              "'so_unshipped'?"),
      ("$.cases.so_unshiped", "'so_unshiped' is no case of fixtures/selection/shop.zh.yaml: did you mean "
                              "'so_unshipped'?")]),
    ("so_delivered:    {vague: {right: 0.7, \"call:get_order\": 0.3}, good: {right: 1.0}}",
     "so_delivered:    {vague: {right: 0.7, \"call:get_order\": 0.3}, good: {right: 0.1}}",
     [("$.cases.so_delivered.good", "the probabilities sum to 0.1, not 1")]),
    ("nt_thanks:       {vague: {right: 0.9, \"call:search_orders\": 0.1}",
     "nt_thanks:       {vague: {right: 0.9, \"call:search_order\": 0.1}",
     [("$.cases.nt_thanks.vague.call:search_order",
       "'search_order' is no tool of the selection set (search_orders, get_order, cancel_order, refund_order, "
       "update_shipping): did you mean 'search_orders'?")]),
    ("nt_thanks:       {vague: {right: 0.9, \"call:search_orders\": 0.1}",
     "nt_thanks:       {vague: {right: 0.9, truncated: 0.1}",
     [("$.cases.nt_thanks.vague.truncated", "'nt_thanks' expects no call, so there is no call to change into "
                                            "'truncated'")]),
    ("so_lamp:         {vague: {right: 0.5, \"call:get_order\": 0.4, none: 0.1}",
     "so_lamp:         {vague: {right: 0.5, \"call:get_order\": 0.4, cents_x100: 0.1}",
     [("$.cases.so_lamp.vague.cents_x100", "cannot be drawn for 'so_lamp': no argument fits this outcome in "
                                           "['query']")]),
    ("  get_order: {en: \"Gets order information.\", zh: \"获取订单信息。\"}\n", "",
     [("$.vague_descriptions", "no vague description of ['get_order'], a tool of fixtures/selection/shop.en.yaml"),
      ("$.vague_descriptions", "no vague description of ['get_order'], a tool of fixtures/selection/shop.zh.yaml")]),
    ("runs_per_case: 10", "runs_per_case: 100000",
     [("$.runs_per_case", "100000 is greater than the maximum of 1000")]),
    ("versions: [vague, good]", "versions: [vague, god]", [("$.versions[1]", "'god' is not one of ['vague', 'good']")]),
    # A look-alike letter was drawn as itself ("'so_lаmp' is no case", of a case the set has; break-it pass brk18new)
    ("so_lamp:", "so_l\u0430mp:",
     [("$.cases.so_l\u0430mp", "'so_l\\u0430mp' is no case of fixtures/selection/shop.en.yaml: did you mean 'so_lamp'?"),
      ("$.cases.so_l\u0430mp", "'so_l\\u0430mp' is no case of fixtures/selection/shop.zh.yaml: did you mean 'so_lamp'?")]),
    ("nt_thanks:       {vague: {right: 0.9, \"call:search_orders\": 0.1}",
     "nt_thanks:       {vague: {right: 0.9, \"call:get_ord\u0435r\": 0.1}",
     [("$.cases.nt_thanks.vague.call:get_ord\u0435r",
       "'get_ord\\u0435r' is no tool of the selection set (search_orders, get_order, cancel_order, refund_order, "
       "update_shipping): did you mean 'get_order'?")]),
    ("so_lamp:         {vague: {right: 0.5", "so_lamp:         {vague: {\"rig\u200bht\": 0.5",
     [("$.cases.so_lamp.vague.rig\u200bht", "'rig\\u200bht' is no outcome: did you mean 'right'?")]),
    # and quoted whole: a 1 000-character outcome was a 1 150-character message (cut after 80 as drawn now)
    ("so_lamp:         {vague: {right: 0.5", "so_lamp:         {vague: {" + "r" * 1000 + ": 0.5",
     [("$.cases.so_lamp.vague." + "r" * 1000, "'" + "r" * 80 + "…' is no outcome: expected one of right, none, "
       "yuan_string, cents_x100, wrong_enum, capitalised, other_order, missing_order, truncated or call:<tool>")]),
]


@pytest.mark.parametrize("old,new,expected", TYPOS, ids=[t[1][:30] for t in TYPOS])
def test_a_typo_in_the_simulation_spec_fails_check_with_its_path(content, old, new, expected):
    assert _sim_problems(content) == []
    _edit(content, SIM, old, new)
    assert _sim_problems(content) == expected


def _make(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "scripts/make_eval_runs.py", *args], capture_output=True, text=True,
                          cwd=REPO_ROOT, timeout=300, env={**os.environ, "TOOLCALL_CONTENT_ROOT": str(root)})


def test_the_script_refuses_a_spec_check_refuses_naming_the_file_and_path(content):
    _edit(content, SIM, "so_lamp:         {vague: {right: 0.5", "so_lamp:         {vague: {righ: 0.5")
    run = _make(content)
    assert (run.returncode, run.stdout, run.stderr) == (
        1, "", f"{SIM}: $.cases.so_lamp.vague.righ: 'righ' is no outcome: did you mean 'right'?\n")


def test_a_case_without_probabilities_has_no_runs_and_the_script_reads_the_content_root(content):
    """The README: a case added to the set may have no runs yet. The script drew from the checkout's own files,
    not the content root's, and a set case missing from simulation.yaml ended it in KeyError."""
    for lang, request in (("en", "Refund order ORD-20260917, it broke: 25.99."),
                          ("zh", "订单 ORD-20260917 坏了，退 25.99 元。")):
        path = content / "fixtures" / "selection" / f"shop.{lang}.yaml"
        path.write_text(path.read_text("utf-8") + f"  - id: ro_extra\n    request: \"{request}\"\n"
                        "    expected_tool: refund_order\n    expected_arguments: {order_id: [ORD-20260917], "
                        "amount_cents: [2599], reason: [damaged]}\n    should_not_call: [cancel_order]\n", "utf-8")
    _edit(content, SIM, "runs_per_case: 10", "runs_per_case: 3")
    run = _make(content)
    assert run.returncode == 0, run.stderr
    for lang in ("en", "zh"):
        for version in ("vague", "good"):
            runs = [json.loads(line) for line in
                    (content / "fixtures" / "eval_runs" / f"shop_{version}.{lang}.jsonl").read_text("utf-8").splitlines()]
            assert (len(runs), {r["run"] for r in runs}, "ro_extra" in {r["case_id"] for r in runs}) == (
                31 * 3, {1, 2, 3}, False)
    assert run_checks(content) == []


#: A file of each kind the app reads with a shape no kind allows.
JUNK = {".json": '{"not_a_field": 1}\n', ".yaml": "not_a_field: 1\n", ".yml": "not_a_field: 1\n",
        ".jsonl": '{"not_a_field": 1}\n', ".md": "no front matter\n"}


def test_every_kind_of_file_the_app_reads_is_checked(content):
    """The next file like simulation.yaml: for each folder and pattern of check.APP_READS, the first shipped file
    it matches, rewritten with a shape no kind allows, is named by check (all at once: one run)."""
    broken = []
    for folder, patterns in APP_READS.items():
        for pattern in patterns:
            path = next(iter(sorted((content / folder).glob(pattern))), None)
            if path is not None:
                path.write_text(JUNK[path.suffix], "utf-8")
                broken.append(path)
    assert len(broken) >= 12
    named = {p.file for p in run_checks(content)}
    assert [str(path.relative_to(content)) for path in broken if not any(f.endswith(
        str(path.relative_to(content))) for f in named)] == []


def test_a_log_over_the_lab_cap_counts_one_run_in_the_singular(content, monkeypatch):
    """The cap's message read "1 runs of each of 31 cases" for runs_per_case: 1 (test_plurals found the f-string)."""
    import toolcall.simulation

    monkeypatch.setattr(toolcall.simulation, "_max_runs", lambda: 30)
    _edit(content, SIM, "runs_per_case: 10", "runs_per_case: 1")
    assert [p.message for p in run_checks(content) if p.path == "$.runs_per_case"] == [
        "1 run of each of 31 cases make 31 runs in one log; the selection lab reads at most 30"]


def test_every_name_a_simulation_problem_quotes_is_escaped_and_cut(content):
    """The next member: whichever message quotes a name from simulation.yaml (a case id, an outcome, a tool), a
    look-alike letter or a hidden character in it is shown as its escape and the name is cut at 80 characters as
    drawn, so no message can read as naming what the file does have."""
    odd = "\u0430\u200b" + "\u0435" * 300
    _edit(content, SIM, "so_lamp:         {vague: {right: 0.5, \"call:get_order\": 0.4, none: 0.1}",
          f"so_lamp{odd}:         {{vague: {{right: 0.5, \"call:get_order\": 0.4, none: 0.1}}")
    _edit(content, SIM, "nt_thanks:       {vague: {right: 0.9, \"call:search_orders\": 0.1}",
          f"nt_thanks:       {{vague: {{right: 0.8, \"call:x{odd}\": 0.1, \"{odd}\": 0.1}}")
    problems = _sim_problems(content)
    assert len(problems) == 4, problems
    for _, message in problems:
        assert not any(ch in message for ch in odd), message
        assert len(message) < 300 and message.count("\\u0435") <= 80 // 6, message


#: A right value of the wrong type in the set, for an outcome that changes it: check ended in a TypeError or
#: AttributeError traceback from toolcall.simulation (break-it pass brk19new); the set's own checks name the type,
#: and simulation.yaml's the outcome that cannot be drawn. (set file, what, in place of what, simulation problems)
WRONG_TYPES = [
    ("fixtures/selection/shop.en.yaml", "amount_cents: [2599], reason: [\"damaged\"]",
     "amount_cents: [null], reason: [\"damaged\"]",
     [("$.cases.ro_damaged.vague.yuan_string",
       "cannot be drawn for 'ro_damaged': the right value of 'amount_cents' is null, not a number"),
      ("$.cases.ro_damaged.vague.cents_x100",
       "cannot be drawn for 'ro_damaged': the right value of 'amount_cents' is null, not a number"),
      ("$.cases.ro_damaged.good.cents_x100",
       "cannot be drawn for 'ro_damaged': the right value of 'amount_cents' is null, not a number")]),
    ("fixtures/selection/shop.en.yaml", "amount_cents: [2599], reason: [\"damaged\"]",
     "amount_cents: [\"25.99\"], reason: [\"damaged\"]",
     [("$.cases.ro_damaged.vague.yuan_string",
       "cannot be drawn for 'ro_damaged': the right value of 'amount_cents' is \"25.99\", not a number"),
      ("$.cases.ro_damaged.vague.cents_x100",
       "cannot be drawn for 'ro_damaged': the right value of 'amount_cents' is \"25.99\", not a number"),
      ("$.cases.ro_damaged.good.cents_x100",
       "cannot be drawn for 'ro_damaged': the right value of 'amount_cents' is \"25.99\", not a number")]),
    ("fixtures/selection/shop.en.yaml", "amount_cents: [1500], reason: [\"wrong_item\"]",
     "amount_cents: [1500], reason: [7]",
     [("$.cases.ro_wrong_item.vague.capitalised",
       "cannot be drawn for 'ro_wrong_item': the right value of 'reason' is 7, not text")]),
]


@pytest.mark.parametrize("rel,old,new,expected", WRONG_TYPES, ids=["null", "text", "number-enum"])
def test_a_right_value_of_the_wrong_type_is_named_not_a_traceback(content, rel, old, new, expected):
    _edit(content, rel, old, new)
    assert _sim_problems(content) == expected
    assert any(p.file.endswith(rel) for p in run_checks(content))  # and the set's own check names it


def test_a_property_any_value_may_take_is_filled_in_and_check_ends(content):
    """JSON Schema allows ``true`` for a property; required, _fill ended check in ``TypeError: argument of type
    'bool' is not iterable`` for every ``call:refund_order`` outcome (brk19new). It is filled with a stand-in."""
    path = content / "fixtures" / "tools" / "refund_order.json"
    tool = json.loads(path.read_text("utf-8"))
    tool["input_schema"]["properties"]["note"] = True
    tool["input_schema"]["required"].append("note")
    path.write_text(json.dumps(tool), "utf-8")
    from toolcall.selection import load_set
    from toolcall.simulation import outcome_call

    case = next(c for c in load_set(content / "fixtures" / "selection" / "shop.en.yaml").cases if c.id == "go_paid")
    assert outcome_call("call:refund_order", case, {"refund_order": tool["input_schema"]}) == {
        "name": "refund_order", "raw_arguments": '{"order_id": "ORD-20260705", "amount_cents": 1, '
                                                 '"reason": "damaged", "note": "x"}'}
    assert _sim_problems(content) == []


def test_did_you_mean_is_guessed_for_at_most_max_hints_names(content):
    """Each guess compares a name with every name of the set (difflib): 3 000 unknown case ids in a 263 KB
    simulation.yaml against a set of 500 cases held check for 215 s (brk19new). The first MAX_HINTS names are
    guessed at, the rest named without a guess."""
    text = (content / SIM).read_text("utf-8")
    (content / SIM).write_text(text + "".join(f"  so_lamp{i:02d}: {{vague: {{right: 1}}, good: {{right: 1}}}}\n"
                                              for i in range(30)), "utf-8")
    problems = _sim_problems(content)
    assert [m for _, m in problems if "did you mean" in m] == [
        f"'so_lamp{i:02d}' is no case of fixtures/selection/shop.en.yaml: did you mean 'so_lamp'?" for i in range(20)]
    assert len(problems) == 60
    from toolcall.simulation import MAX_HINTS

    assert MAX_HINTS == 20


def test_the_set_s_tools_are_listed_a_dozen_at_most(content):
    """A problem naming the selection set's tools listed every one (a set may list any number): a dozen, then how
    many more (brk19new)."""
    names = [f"tool_{i:02d}" for i in range(9)]
    for name in names:
        tool = json.loads((content / "fixtures" / "tools" / "get_order.json").read_text("utf-8"))
        tool["name"] = name
        (content / "fixtures" / "tools" / f"{name}.json").write_text(json.dumps(tool), "utf-8")
        text = (content / SIM).read_text("utf-8")
        (content / SIM).write_text(text.replace("vague_descriptions:\n", "vague_descriptions:\n"
                                                f"  {name}: {{en: Gets an order., zh: 获取订单。}}\n"), "utf-8")
    for lang in ("en", "zh"):
        _edit(content, f"fixtures/selection/shop.{lang}.yaml", "update_shipping]", f"update_shipping, {', '.join(names)}]")
    _edit(content, SIM, "nt_thanks:       {vague: {right: 0.9, \"call:search_orders\": 0.1}",
          "nt_thanks:       {vague: {right: 0.9, \"call:nope\": 0.1}")
    listed = ("search_orders, get_order, cancel_order, refund_order, update_shipping, tool_00, tool_01, tool_02, "
              "tool_03, tool_04, tool_05, tool_06 and 2 more")
    assert _sim_problems(content) == [("$.cases.nt_thanks.vague.call:nope",
                                       f"'nope' is no tool of the selection set ({listed})")]


@pytest.mark.parametrize("break_it, args, expected", [
    (lambda root: (root / SIM).unlink(), [],
     (1, "", f"{SIM}: $: cannot read file: no such file\n")),
    (lambda root: (root / "fixtures" / "selection" / "shop.zh.yaml").write_text("x: [\n", "utf-8"), [],
     (1, "", "fixtures/selection/shop.zh.yaml: $: not YAML: line 2 column 1: expected the node content, but found "
             "'<stream end>'\n")),
    (lambda root: None, ["--out", "{root}/missing"], (2, "", "--out {root}/missing: no such folder\n")),
])
def test_the_script_names_what_stops_it_and_writes_no_log(content, break_it, args, expected):
    """No simulation.yaml (a content root without simulated runs), a selection set that does not load (check names
    it among the set's problems; the spec's own check skips it) and an --out folder that does not exist each ended
    the script in a traceback (FixtureError, FileNotFoundError), the first after the English logs were rewritten
    (break-it pass brk19new)."""
    logs = {p: p.read_bytes() for p in (content / "fixtures" / "eval_runs").glob("*.jsonl")}
    for path in logs:
        path.write_bytes(b"old\n")
    break_it(content)
    run = _make(content, *[a.format(root=content) for a in args])
    code, out, err = expected
    assert (run.returncode, run.stdout, run.stderr) == (code, out, err.format(root=content))
    assert {p.read_bytes() for p in logs} == {b"old\n"}


def test_the_script_replaces_a_fifo_or_a_link_where_a_log_goes_and_prints_the_folder_as_drawn(content, tmp_path):
    """write_text opened a FIFO named as a log and waited for a reader for ever, and wrote through a link into its
    target; a folder named with U+202E was printed as it is, reordering the line (break-it pass brk20new). Each log
    is now a new file renamed into place."""
    out = tmp_path / "out\u202eput"
    out.mkdir()
    os.mkfifo(out / "shop_vague.en.jsonl")
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep\n", "utf-8")
    (out / "shop_good.en.jsonl").symlink_to(target)
    run = subprocess.run([sys.executable, "scripts/make_eval_runs.py", "--out", str(out)], capture_output=True,
                         text=True, cwd=REPO_ROOT, timeout=120, env={**os.environ, "TOOLCALL_CONTENT_ROOT": str(content)})
    shown = str(out).replace("\u202e", "\\u202e")
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout.splitlines() == [f"{shown}/shop_{v}.{lang}.jsonl" for lang in ("en", "zh") for v in ("vague", "good")]
    assert sorted(p.name for p in out.iterdir()) == sorted(f"shop_{v}.{lang}.jsonl" for lang in ("en", "zh")
                                                          for v in ("vague", "good"))
    for path in out.iterdir():
        assert path.is_file() and not path.is_symlink()
        assert path.read_bytes() == (content / "fixtures" / "eval_runs" / path.name).read_bytes()
    assert target.read_text("utf-8") == "keep\n"
