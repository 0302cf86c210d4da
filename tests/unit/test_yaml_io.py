"""toolcall.yaml_io.safe_load (LibYAML's safe loader) reads every YAML file of the repository to the same
data as ``yaml.safe_load``, and refuses what it refuses, with a line mark."""

from pathlib import Path

import pytest
import yaml

from toolcall.lessons import split_front_matter
from toolcall.yaml_io import SafeLoader, safe_load

REPO = Path(__file__).resolve().parents[2]
FILES = sorted(p for folder in ("fixtures", "toolcall/locales", ".github") if (REPO / folder).exists()
               for p in (REPO / folder).rglob("*.y*ml"))
LESSONS = sorted((REPO / "lessons").rglob("*.md"))


def test_libyaml_is_used_when_pyyaml_has_it():
    assert SafeLoader is (yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_yaml_file_reads_the_same(path):
    text = path.read_text(encoding="utf-8")
    assert safe_load(text) == yaml.safe_load(text)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_lesson_front_matter_reads_the_same(path):
    head = split_front_matter(path.read_text(encoding="utf-8"))[0]
    assert safe_load(head) == yaml.safe_load(head)


@pytest.mark.parametrize("text", ["a: [1, 2", "a: !!python/object:os.system x", "key: *nowhere", "\tx: 1",
                                  "a: \ud800", "a: \x00", "\x1b"])
def test_what_yaml_safe_load_refuses_is_refused_with_its_words(text):
    """The same error, message and line mark as yaml.safe_load (the fixture loaders quote them)."""
    with pytest.raises(yaml.YAMLError) as pure:
        yaml.safe_load(text)
    with pytest.raises(yaml.YAMLError) as fast:
        safe_load(text)
    assert (type(fast.value), str(fast.value)) == (type(pure.value), str(pure.value))


def _laughs(levels: int = 9) -> str:
    """The "billion laughs": each line nine aliases of the one above, 9**levels values once expanded."""
    lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "\n".join(lines) + f"\ncases: *l{levels - 1}\n"


@pytest.mark.parametrize("text, problem", [
    (_laughs(), "more than 1000000 values once its aliases (*name) are expanded"),
    ("a: &a [1, *a]\n", "an anchor (&name) is used inside itself: the value would be infinite"),
    ("a: &a {b: *a}\n", "an anchor (&name) is used inside itself: the value would be infinite"),
])
def test_an_alias_bomb_is_refused_before_any_value_is_built(text, problem):
    """Aliases are shared in memory, but every reader after the loader walks them as copies: nine lines
    kept `eval --selection` (and `check` on such a fixture) busy past any limit (issue 13)."""
    from toolcall.yaml_io import AliasBomb

    with pytest.raises(AliasBomb) as refused:
        safe_load(text)
    assert refused.value.problem == problem
    assert refused.value.problem_mark is not None


def test_aliases_within_the_limit_still_load():
    assert safe_load(_laughs(3)) == yaml.safe_load(_laughs(3))
    assert safe_load("a: &a {x: 1}\nb: *a\n") == {"a": {"x": 1}, "b": {"x": 1}}


def test_no_module_parses_yaml_but_through_safe_load():
    """Every YAML reader of the app and the CLI goes through toolcall.yaml_io.safe_load, so the alias limit covers
    the next one too (scripts/ read only this repository's own files)."""
    import re

    calls = re.compile(r"yaml\.(safe_load|load|full_load|unsafe_load|load_all|safe_load_all|compose)\(")
    offenders = [str(p.relative_to(REPO)) for folder in ("toolcall", "ui", "pages", "deploy")
                 for p in (REPO / folder).rglob("*.py")
                 if p.name != "yaml_io.py" and calls.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_eval_selection_alias_bomb_is_one_line_and_exit_2(tmp_path):
    import subprocess
    import sys

    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(_laughs(), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "toolcall", "eval", "fixtures/eval_runs/shop_vague.en.jsonl",
                          "--k", "3", "--selection", str(bomb)], cwd=REPO, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 2
    assert run.stderr == (f"--selection {bomb}: $.l6: not YAML: line 7 column 5: more than 1000000 values once its "
                          "aliases (*name) are expanded\n")  # line 7: l6, the first list past 10**6


def _one_string_many_times(chars: int = 200_000, times: int = 100) -> str:
    """One long string, aliased ``times`` × ``times`` times: few nodes (10 101), ``chars`` × 10⁴ characters."""
    return "\n".join([f'big: &b "{"x" * chars}"', "l1: &l1 [" + ", ".join(["*b"] * times) + "]",
                      "l2: &l2 [" + ", ".join(["*l1"] * times) + "]", "tool: refund_order", "outputs: *l2", ""])


def test_an_alias_bomb_of_characters_is_refused_with_its_path():
    """Counting nodes alone let 10 101 nodes through that expand to 2 × 10⁹ characters: `check` on such a fixture
    took 7.9 GB of memory in 40 s and went on (issue 13)."""
    from toolcall import yaml_io

    with pytest.raises(yaml_io.AliasBomb) as refused:
        safe_load(_one_string_many_times())
    assert refused.value.problem == f"more than {yaml_io.MAX_EXPANDED_CHARS} characters once its aliases (*name) " \
                                   "are expanded"
    assert refused.value.path == "$.l1"
    assert refused.value.problem_mark.line == 1


def test_the_character_limit_names_the_file_and_path(tmp_path, monkeypatch):
    from toolcall import yaml_io
    from toolcall.fixtures import FixtureError, read_data

    from toolcall.i18n import t

    t("cli.line_more", "en", count=1)  # the catalogue read (through safe_load) before the limit is lowered
    monkeypatch.setattr(yaml_io, "MAX_EXPANDED_CHARS", 30)
    path = tmp_path / "x.yaml"
    path.write_text("x: &x [abcdefghij]\nd: [*x, *x, *x, *x]\n", encoding="utf-8")
    with pytest.raises(FixtureError) as refused:
        read_data(path)
    [problem] = refused.value.problems
    assert (problem.path, problem.message) == (
        "$.d", "not YAML: line 2 column 4: more than 30 characters once its aliases (*name) are expanded")
    assert problem.file.endswith("x.yaml")
    assert safe_load("x: &x [abcdefghij]\nd: [*x]\n") == {"x": ["abcdefghij"], "d": [["abcdefghij"]]}  # 22
