"""An instructor's typo fails ``python -m toolcall check`` with the file and the JSON path, not at class time
(issue 13, content-file kind).

Before: a key written twice in YAML or JSON silently kept the last value (a second ``expected:`` flipped a
card's verdict; a second ``"type"`` in a tool's property changed its schema) and check said nothing about the
key; ``NEW.JSON``, ``get_order.yml`` beside ``get_order.yaml``, ``orders2.yaml`` and ``lessons/fr`` were
never read by the app and passed; an output or pairing id of any length passed its schema. The sweeps below
catch the next member: every content file check reads, given a key twice, is named; every id-like string in
every content schema has a bounded length.
"""

import json
import re
import shutil
from pathlib import Path

import pytest

from toolcall import CONTENT_ROOT
from toolcall.check import APP_READS, CONTENT_PATTERNS, run_checks
from toolcall.eval_import import read_recorded
from toolcall.fixtures import FixtureError, display_name


@pytest.fixture
def content(tmp_path) -> Path:
    """A copy of the shipped content (fixtures/ and lessons/)."""
    shutil.copytree(CONTENT_ROOT / "fixtures", tmp_path / "fixtures")
    shutil.copytree(CONTENT_ROOT / "lessons", tmp_path / "lessons")
    return tmp_path


def _problems(root: Path) -> list[str]:
    return [f"{p.file}: {p.path}: {p.message}" for p in run_checks(root)]


def test_a_yaml_key_written_twice_names_the_file_and_the_path(content):
    path = content / "fixtures" / "outputs" / "refund_order.yaml"
    path.write_text(path.read_text("utf-8").replace("    expected: accepted\n",
                                                    "    expected: accepted\n    expected: rejected\n", 1), "utf-8")
    line = path.read_text("utf-8").splitlines().index("    expected: rejected") + 1
    assert f"{display_name(path)}: $.outputs[0].expected: not YAML: line {line} column 5: the key 'expected' is " \
           "written twice in this mapping: YAML would keep only the last one" in _problems(content)


def test_a_json_key_written_twice_names_the_file_and_the_path(content):
    path = content / "fixtures" / "tools" / "refund_order.json"
    tool = json.loads(path.read_text("utf-8"))
    text = json.dumps(tool, indent=2).replace('"name": "refund_order"', '"name": "zzz", "name": "refund_order"', 1)
    path.write_text(text, "utf-8")
    assert f"{display_name(path)}: $.name: not JSON: the key 'name' is written twice in this object: only the " \
           "last one would be kept" in _problems(content)


def test_a_recorded_run_line_with_a_key_twice_is_refused(content):
    path = content / "fixtures" / "eval_runs" / "shop_good.en.jsonl"
    lines = path.read_text("utf-8").splitlines()
    lines[1] = lines[1].replace("{", '{"run": 99, ', 1)
    path.write_text("\n".join(lines) + "\n", "utf-8")
    with pytest.raises(FixtureError) as caught:
        read_recorded(path)
    assert [(p.path, p.message) for p in caught.value.problems] == [
        ("line 2: $.run", "not JSON: the key 'run' is written twice in this object: only the last one would be kept")]


def _twice(path: Path) -> None:
    """Write the first key of ``path``'s top-level mapping (or of a lesson's front matter, or of a JSONL file's
    first line) a second time."""
    text = path.read_text("utf-8")
    if path.suffix in (".json", ".jsonl"):
        first = next(iter(json.loads(text.splitlines()[0] if path.suffix == ".jsonl" else text)))
        path.write_text(text.replace("{", "{" + json.dumps(first) + ": null, ", 1), "utf-8")
        return
    lines = text.splitlines()
    start = 1 if path.suffix == ".md" else 0
    at = next(i for i in range(start, len(lines)) if re.match(r"[A-Za-z_]+:", lines[i]))
    lines.insert(at + 1, lines[at])
    path.write_text("\n".join(lines) + "\n", "utf-8")


def test_every_content_file_with_a_key_twice_is_named(content):
    """The kind: whatever reader a content file goes through, check names it when a key is written twice."""
    files = sorted({f for pattern in CONTENT_PATTERNS for f in content.glob(pattern)})
    assert len(files) >= 30
    for path in files:
        _twice(path)
    named = {p.split(": ", 1)[0] for p in _problems(content) if "written twice" in p}
    relative = [str(f.relative_to(content)) for f in files]
    assert [r for r in relative if not any(n.endswith(r) for n in named)] == []
    assert len(named) == len(files)


def test_files_the_app_never_reads_are_problems(content):
    fx = content / "fixtures"
    shutil.copy(fx / "tools" / "get_order.json", fx / "tools" / "NEW.JSON")
    shutil.copy(fx / "outputs" / "get_order.yaml", fx / "outputs" / "get_order.yml")
    shutil.copy(fx / "orders" / "orders.yaml", fx / "orders" / "orders2.yaml")
    shutil.copytree(content / "lessons" / "en", content / "lessons" / "fr")
    (fx / "tools" / ".gitkeep").write_text("")
    problems = _problems(content)
    assert [p for p in problems if "never read" in p] == [
        f"{display_name(fx / 'tools' / 'NEW.JSON')}: $: never read by the app: it reads only *.json in "
        "fixtures/tools/ (is the name or its case wrong?)",
        f"{display_name(fx / 'orders' / 'orders2.yaml')}: $: never read by the app: it reads only orders.yaml in "
        "fixtures/orders/ (is the name or its case wrong?)",
        f"{display_name(fx / 'outputs' / 'get_order.yml')}: $: never read by the app: it reads only *.yaml in "
        "fixtures/outputs/ (is the name or its case wrong?)",
        f"{display_name(content / 'lessons' / 'fr')}: $: never read by the app: lessons/ holds one folder per "
        "language the app has (en, zh)",
    ]


def test_every_shipped_content_file_is_one_the_app_reads():
    """APP_READS covers every folder check reads, so a new kind of content cannot be left out of it."""
    folders = {pattern.rsplit("/", 1)[0] for pattern in CONTENT_PATTERNS if "*/" not in pattern}
    assert folders <= set(APP_READS)
    assert run_checks(CONTENT_ROOT) == []


def test_an_overlong_output_id_fails_check(content):
    path = content / "fixtures" / "outputs" / "refund_order.yaml"
    long_id = "v" + "x" * 299
    path.write_text(path.read_text("utf-8").replace("  - id: valid\n", f"  - id: {long_id}\n", 1), "utf-8")
    assert [p for p in _problems(content) if "$.outputs[0].id" in p] == [
        f"{display_name(path)}: $.outputs[0].id: {repr(long_id)[:120]}… does not match '^[a-z][a-z0-9_]{{0,63}}$'"]


ID_KEYS = {"id", "name", "tool", "case_id", "expected_tool", "order_id", "page"}


def _resolve(schema: dict, node: dict) -> dict:
    ref = node.get("$ref", "")
    return _resolve(schema, schema["$defs"][ref.rsplit("/", 1)[-1]]) if ref.startswith("#/$defs/") else node


def _unbounded_ids(schema: dict, node, path: str):
    if isinstance(node, dict):
        for key, sub in (node.get("properties") or {}).items():
            target = _resolve(schema, sub) if isinstance(sub, dict) else {}
            if key in ID_KEYS and "string" in json.dumps(target.get("type")) and "enum" not in target:
                pattern = target.get("pattern", "")
                bounded = "maxLength" in target or (re.search(r"\{\d*,?\d+\}\$$", pattern)
                                                    and not re.search(r"[*+]", pattern))
                if not bounded:
                    yield f"{path}.properties.{key}"
        for key, sub in node.items():
            yield from _unbounded_ids(schema, sub, f"{path}.{key}")
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            yield from _unbounded_ids(schema, sub, f"{path}[{i}]")


#: eval_runs.schema.json describes logs a student uploads as much as the shipped ones (tool names as a real run
#: logged them): their names are escaped and cut where shown (toolcall.eval_charts.tool_label, labelLimit).
SCHEMAS = sorted(p for p in (CONTENT_ROOT / "fixtures" / "schemas").glob("*.schema.json")
                 if p.name != "eval_runs.schema.json")


@pytest.mark.parametrize("schema_file", SCHEMAS, ids=lambda p: p.name)
def test_every_id_in_every_content_schema_has_a_bounded_length(schema_file):
    """The kind: an id, a tool name or a case id of hundreds of characters widens every table and chart it is in."""
    schema = json.loads(schema_file.read_text("utf-8"))
    assert list(_unbounded_ids(schema, schema, "$")) == []


def test_a_byte_order_mark_on_every_content_file_is_read_past(content):
    """Before: a tool definition saved with a BOM failed check with Python's advice "decode using utf-8-sig" while
    the same mark on a YAML file, a lesson or a run log was read past; now every kind reads past it."""
    files = sorted({f for pattern in CONTENT_PATTERNS for f in content.glob(pattern)})
    for path in files:
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert _problems(content) == []


def test_an_overlong_output_label_fails_check(content):
    """A canned output's label is an option of the playground's output list: 300 characters stretched it."""
    path = content / "fixtures" / "outputs" / "refund_order.yaml"
    long_label = "Valid " + "call " * 60
    path.write_text(path.read_text("utf-8").replace('label: {en: "Valid call"', f'label: {{en: "{long_label}"', 1),
                    "utf-8")
    assert [p for p in _problems(content) if "$.outputs[0].label" in p] == [
        f"{display_name(path)}: $.outputs[0].label.en: {repr(long_label)[:120]}… is too long (306 characters; at most "
        "120)"]


def test_a_misspelt_field_name_is_told_the_name_it_is_close_to(content):
    """An output's ``lable:``, an exercise's ``hint:`` and a lesson's ``figure:`` were told only that the key is
    not allowed (and, apart, that ``label`` is required); the message now names the field meant (newcomer pass,
    session 16). A key close to no allowed name, or to one already there, gets no guess."""
    outputs = content / "fixtures" / "outputs" / "get_order.yaml"
    outputs.write_text(outputs.read_text("utf-8").replace("    label:", "    lable:", 1), "utf-8")
    exercises = content / "fixtures" / "exercises" / "passk_lab.yaml"
    exercises.write_text(exercises.read_text("utf-8").replace("    hints:", "    hint:", 1), "utf-8")
    lesson = content / "lessons" / "en" / "01-model-proposes.md"
    lesson.write_text(lesson.read_text("utf-8").replace("order: 1\n", "order: 1\nfigure: []\nsummry: x\n", 1), "utf-8")
    problems = _problems(content)
    assert [p for p in problems if "not allowed" in p] == [
        f"{display_name(outputs)}: $.outputs[0]: Additional properties are not allowed ('lable') "
        "(did you mean 'label' for 'lable'?)",
        "lessons/en/01-model-proposes.md: $: Additional properties are not allowed ('figure', 'summry') "
        "(did you mean 'figures' for 'figure'?)",
        f"{display_name(exercises)}: $.exercises[0]: Additional properties are not allowed ('hint') "
        "(did you mean 'hints' for 'hint'?)",
    ]


def test_a_look_alike_key_is_quoted_escaped_in_the_message_and_the_guess(content):
    """``lаbel`` (Cyrillic а) was quoted as repr shows it: "did you mean 'label' for 'lаbel'?", which reads as
    "did you mean 'label' for 'label'?" (issue 13, look-alike kind; break-it pass brk17new)."""
    outputs = content / "fixtures" / "outputs" / "get_order.yaml"
    outputs.write_text(outputs.read_text("utf-8").replace("    label:", "    l\u0430bel:", 1), "utf-8")
    assert [p for p in _problems(content) if "not allowed" in p] == [
        f"{display_name(outputs)}: $.outputs[0]: Additional properties are not allowed ('l\\u0430bel') "
        "(did you mean 'label' for 'l\\u0430bel'?)"]


def test_thousands_of_unknown_keys_make_one_bounded_line(content):
    """10 000 unknown keys of 106 characters in one output made check print one line of 1.1 MB (every name quoted
    whole); the message now lists 20, each cut at 64 characters as drawn, and says how many more."""
    outputs = content / "fixtures" / "outputs" / "get_order.yaml"
    extra = "".join(f"    k{i:05d}{'x' * 100}: 1\n" for i in range(10_000))
    outputs.write_text(outputs.read_text("utf-8").replace("    label:", extra + "    label:", 1), "utf-8")
    [problem] = [p for p in _problems(content) if "not allowed" in p]
    listed = ", ".join(f"'k{i:05d}{'x' * 58}…'" for i in range(20))
    assert problem == (f"{display_name(outputs)}: $.outputs[0]: Additional properties are not allowed ({listed} … "
                       "and 9,980 more)")


@pytest.mark.parametrize("key, shown", [
    ("lab\nFAKE LINE", "lab\\u000aFAKE LINE"), ("lab\u2028el", "lab\\u2028el"), ("lab\u200bel", "lab\\u200bel"),
    ("l\u0430bel", "l\\u0430bel"), ("label\U000e0041", "label\\udb40\\udc41"), ("lab\u202eel", "lab\\u202eel"),
    ("\u200b" * 150, "\\u200b" * 10 + "…"), ("\U000e0041" * 150, "\\udb40\\udc41" * 5 + "…"),
])
def test_every_unknown_key_is_quoted_escaped_and_cut_as_drawn(content, key, shown):
    """The next hostile key: whatever its characters, the message quotes it on one line, escaped, at most 64
    characters as drawn (safe_validator.quoted_name), in the list and in the guess alike."""
    outputs = content / "fixtures" / "outputs" / "get_order.yaml"
    written = json.dumps(key, ensure_ascii=key.isascii() or max(key) <= "\uffff")  # YAML joins no escaped pair
    outputs.write_text(outputs.read_text("utf-8").replace("    label:", f"    {written}:", 1), "utf-8")
    [problem] = [p for p in _problems(content) if "not allowed" in p]
    assert problem.startswith(f"{display_name(outputs)}: $.outputs[0]: Additional properties are not allowed "
                              f"('{shown}')")
    assert problem.count(f"'{shown}'") in (1, 2) and "\n" not in problem and "\u2028" not in problem
    assert all(c.isascii() or c == "…" for c in problem.split(": ", 1)[1])
