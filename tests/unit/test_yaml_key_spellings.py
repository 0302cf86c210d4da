"""A YAML mapping key written twice in two spellings of one value is refused like one written twice the same way
(issue 13, content-file kind: a YAML trick that passes check and breaks at class time).

Before: keys were compared by tag and text, so ``{1: a, 0x1: b}``, ``{true: a, yes: b}``, ``{~: a, null: b}`` and
``{1: a, 1.0: b}`` passed and the mapping kept ``b`` alone, without a word. The sweep builds every pair of
spellings of YAML 1.1's scalar types (and the mixes Python's mapping folds: ``1`` and ``true``) and asks
PyYAML itself which pairs make one key, so a spelling added here needs no expected value."""

import itertools
import shutil

import pytest
import yaml

from toolcall import CONTENT_ROOT
from toolcall.check import run_checks
from toolcall.fixtures import display_name
from toolcall.yaml_io import Refused, safe_load

#: Spellings of YAML 1.1 scalars (PyYAML's resolver): integers in every base and with ``_``, floats, booleans in
#: every case and word, nulls, infinities, dates.
SPELLINGS = ["1", "+1", "0x1", "0b1", "01", "1_0", "10", "1.0", "1.", "10.0", "1.0e+1", "0", "-0", "0.0", "-0.0",
             "true", "True", "TRUE", "yes", "Yes", "on", "ON", "false", "no", "off", "null", "Null", "NULL", "~",
             ".inf", ".Inf", "+.inf", "-.inf", "2024-01-01", "'1'", "'true'", "a", "'a'", '"a"', "!!str a"]


def _one_key(first: str, second: str) -> bool:
    """Whether PyYAML's own mapping keeps one key of the two (yaml.safe_load, no duplicate check)."""
    return len(yaml.safe_load(f"{{{first}: x, {second}: y}}")) == 1


def test_the_example_one_and_hex_one():
    with pytest.raises(Refused) as refused:
        safe_load("outputs:\n  - id: a\n    1: first\n    0x1: second\n")
    assert (str(refused.value), refused.value.path, refused.value.problem_mark.line) == (
        "the key '0x1' is written twice ('1' and '0x1' are the same key) in this mapping: YAML would keep only "
        "the last one", "$.outputs[0].0x1", 3)


@pytest.mark.parametrize("first, second", list(itertools.combinations(SPELLINGS, 2)))
def test_two_spellings_of_one_key_are_refused_and_two_keys_are_kept(first, second):
    text = f"{{{first}: x, {second}: y}}"
    if _one_key(first, second):
        with pytest.raises(Refused, match="YAML would keep only the last one"):
            safe_load(text)
    else:
        assert safe_load(text) == yaml.safe_load(text)


def test_the_sweep_holds_pairs_of_both_kinds():
    pairs = list(itertools.combinations(SPELLINGS, 2))
    assert sum(_one_key(a, b) for a, b in pairs) >= 60 and sum(not _one_key(a, b) for a, b in pairs) >= 500


def test_check_names_the_file_and_the_path(tmp_path):
    shutil.copytree(CONTENT_ROOT / "fixtures", tmp_path / "fixtures")
    shutil.copytree(CONTENT_ROOT / "lessons", tmp_path / "lessons")
    path = tmp_path / "fixtures" / "orders" / "orders.yaml"
    text = path.read_text("utf-8")
    at = text.index("\n  - ", text.index("orders:")) + 1
    path.write_text(text[:at] + "  - 1: x\n    true: y\n" + text[at:], "utf-8")
    problems = [f"{p.file}: {p.path}: {p.message}" for p in run_checks(tmp_path)]
    line = text[:at].count("\n") + 2
    assert f"{display_name(path)}: $.orders[0].true: not YAML: line {line} column 5: the key 'true' is written " \
           "twice ('1' and 'true' are the same key) in this mapping: YAML would keep only the last one" in problems
