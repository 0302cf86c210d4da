"""A content file whose text parses but cannot be built into values (nested past any reader's recursion, an
integer of 5 000 digits, a date that does not exist, a tag applied to a value it cannot read) is one problem
with its file and line, never a RecursionError or ValueError traceback: in `python -m toolcall check`, in every
command-line file argument, in a lesson's front matter (parse_lesson promises never to raise) and in the app's
fixture loader (which catches FixtureError only).

The cases are derived: every explicit YAML tag the safe loader knows (SafeConstructor.yaml_constructors) applied
to odd values, every file the content check reads (toolcall.check.CONTENT_PATTERNS), every command-line argument
that names a text or bytes file (toolcall.cli.file_arguments)."""

import io
import sys
from pathlib import Path

import pytest
import yaml

from toolcall.check import CONTENT_PATTERNS, run_checks
from toolcall.cli import _build_parser, file_arguments, label, main
from toolcall.fixtures import FixtureError, read_data
from toolcall.lessons import parse_lesson
from toolcall.yaml_io import MAX_DEPTH, Refused, safe_load

from tests.unit.test_cli_bad_inputs import _argv

#: YAML texts that are well-formed YAML but no Python value can be built from, or nest too deep to walk.
HOSTILE_YAML = {
    "deep_flow": "a: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n",
    "deep_flow_past_libyaml": "a: " + "[" * 2000 + "]" * 2000 + "\n",  # LibYAML refuses; the pure parser recursed
    "deep_block": "".join(" " * i + "- \n" for i in range(MAX_DEPTH + 2)) + " " * (MAX_DEPTH + 2) + "x\n",
    "deep_mapping": "".join(" " * i + f"k{i}:\n" for i in range(MAX_DEPTH + 2)) + " " * (MAX_DEPTH + 2) + "x\n",
    "int_5000_digits": "a: " + "9" * 5000 + "\n",
    "date_30_february": "a: 2024-02-30\n",
    "month_13": "a: 2024-13-01 10:00:00\n",
}
#: JSON texts likewise: parse_int past Python's 4300 digits raises ValueError, not JSONDecodeError.
HOSTILE_JSON = {
    "deep": "[" * 200_000 + "]" * 200_000,
    "deep_just_past": "{\"a\": " * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1),
    "int_5000_digits": '{"name": "x", "description": "d", "input_schema": {"maximum": ' + "9" * 5000 + "}}",
}
ODD_SCALARS = ("x", "", "0x", "-", "2024-02-30", "maybe", "9" * 5000, "___")


def _explicit_tag_cases():
    tags = [tag for tag in yaml.SafeLoader.yaml_constructors if tag is not None]
    for tag in tags:
        short = tag.rsplit(":", 1)[-1]
        for value in ODD_SCALARS:
            yield pytest.param(f"a: !!{short} {value!r}\n" if value else f"a: !!{short} ''\n",
                               id=f"{short}-{value[:12]!r}")
        yield pytest.param(f"a: !!{short} [1, [2]]\n", id=f"{short}-sequence")
        yield pytest.param(f"a: !!{short} {{b: 1}}\n", id=f"{short}-mapping")


@pytest.mark.parametrize("text", list(_explicit_tag_cases()))
def test_safe_load_raises_only_yaml_errors_for_any_tag_and_value(text):
    """KeyError ('!!bool maybe'), AttributeError ('!!timestamp x') and ValueError ('!!int 0x') came out of the
    constructors as themselves: every reader catching yaml.YAMLError let them through."""
    try:
        safe_load(text)
    except yaml.YAMLError as exc:
        if isinstance(exc, Refused):
            assert exc.problem_mark is not None and exc.problem_mark.line == 0, exc
            assert "set_int_max_str_digits" not in exc.problem and "NoneType" not in exc.problem


@pytest.mark.parametrize("name", sorted(HOSTILE_YAML))
def test_hostile_yaml_is_a_yaml_error_with_a_line(name):
    with pytest.raises(yaml.YAMLError) as refused:
        safe_load(HOSTILE_YAML[name])
    assert getattr(refused.value, "problem_mark", None) is not None


def test_the_refusals_say_what_and_where():
    with pytest.raises(Refused) as date:
        safe_load("title: x\nwhen: 2024-02-30\n")
    assert (date.value.problem, date.value.problem_mark.line) == (
        "not a valid timestamp: '2024-02-30' (day is out of range for month)", 1)
    with pytest.raises(Refused) as digits:
        safe_load(HOSTILE_YAML["int_5000_digits"])
    assert digits.value.problem == ("not a valid int: '" + "9" * 40 + "…' (Exceeds the limit (4300 digits) for "
                                    "integer string conversion: value has 5000 digits)")
    with pytest.raises(Refused) as deep:
        safe_load(HOSTILE_YAML["deep_flow"])
    assert deep.value.problem == f"nested more than {MAX_DEPTH} levels deep (lists and mappings)"
    assert safe_load("a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)) is not None  # at the limit: read


def _hostile_files(tmp: Path) -> dict[str, Path]:
    files = {}
    for name, text in HOSTILE_YAML.items():
        files[f"yaml-{name}"] = tmp / f"{name}.yaml"
        files[f"yaml-{name}"].write_text(text, encoding="utf-8")
    for name, text in HOSTILE_JSON.items():
        files[f"json-{name}"] = tmp / f"{name}.json"
        files[f"json-{name}"].write_text(text, encoding="utf-8")
    return files


#: Where a too-deep YAML document is refused: the outermost list or mapping past the limit (yaml_io names its JSON
#: path since brk12cli); "$" for every other refusal.
DEEP_AT = {"yaml-deep_flow": "$.a", "yaml-deep_block": "$[0]", "yaml-deep_mapping": "$.k0"}


def test_read_data_raises_only_fixture_errors(tmp_path):
    for key, path in _hostile_files(tmp_path).items():
        with pytest.raises(FixtureError) as refused:
            read_data(path)
        (problem,) = refused.value.problems
        assert problem.file.endswith(path.name) and problem.path == DEEP_AT.get(key, "$"), key
        assert problem.message.startswith("not JSON: " if path.suffix == ".json" else "not YAML: line "), problem
    with pytest.raises(FixtureError) as deep:
        read_data(_hostile_files(tmp_path)["json-deep"])
    assert deep.value.problems[0].message == f"not JSON: nested 200000 levels deep; the limit is {MAX_DEPTH}"


@pytest.mark.parametrize("name", sorted(HOSTILE_YAML))
def test_a_lesson_front_matter_never_raises(name):
    head = "title: t\nsummary: s\npage: playground\norder: 1\n" + HOSTILE_YAML[name].replace("a: ", "extra: ", 1)
    lesson, problems = parse_lesson(f"---\n{head}---\nBody.\n", "01-x", "en", "lessons/en/01-x.md")
    assert lesson is None and len(problems) == 1
    assert problems[0].message.startswith("front matter is not YAML: line "), problems


def _content_cases():
    for pattern in CONTENT_PATTERNS:
        if pattern.endswith(".md"):
            yield pytest.param(pattern, "yaml", id=pattern)
        elif pattern.endswith(".jsonl"):
            continue  # read by the run-log reader, bounded by its own rules (tests/unit/test_eval_import.py)
        else:
            yield pytest.param(pattern, "json" if pattern.endswith(".json") else "yaml", id=pattern)


@pytest.mark.parametrize("pattern, kind", list(_content_cases()))
def test_check_reports_a_hostile_file_of_every_kind_as_a_problem(tmp_path, pattern, kind):
    """Every file `python -m toolcall check` reads, given each hostile text: a problem naming the file, not a
    traceback."""
    texts = HOSTILE_YAML if kind == "yaml" else HOSTILE_JSON
    for name, text in texts.items():
        root = tmp_path / name
        relative = pattern.replace("*/", "en/").replace("*.y*ml", "bad.yaml").replace("*.json", "bad.json") \
            .replace("*.md", "01-bad.md")
        path = root / relative
        path.parent.mkdir(parents=True)
        (root / "fixtures").mkdir(exist_ok=True)
        if relative.endswith(".md"):
            text = "---\ntitle: t\nsummary: s\npage: playground\norder: 1\n" + text.replace("a: ", "extra: ", 1) \
                + "---\nBody.\n"
        path.write_text(text, encoding="utf-8")
        problems = run_checks(root)
        assert any(p.file.endswith(path.name) and ("not YAML" in p.message or "not JSON" in p.message)
                   for p in problems), (name, [str(p)[:200] for p in problems])


PARSER = _build_parser()


def _file_cases():
    for command, actions in sorted(file_arguments(PARSER).items()):
        for action in actions:
            if action.file_kind in ("text", "bytes"):
                yield pytest.param(command, action, id=f"{command}-{label(action)}")


@pytest.mark.parametrize("command, action", list(_file_cases()))
def test_every_file_argument_refuses_hostile_text_without_a_traceback(tmp_path, capsys, monkeypatch, command,
                                                                      action):
    """Each text or bytes file argument of each subcommand, given each hostile JSON and YAML text: a non-zero
    exit and a message on stderr (main() raising would fail the test with the traceback)."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    for key, path in _hostile_files(tmp_path).items():
        code = main(_argv(command, action.dest, str(path)))
        out, err = capsys.readouterr()
        assert code in (1, 2) and err.strip(), (key, code, out[:200], err[:200])
        assert "Traceback" not in err and "set_int_max_str_digits" not in err, (key, err[:300])
