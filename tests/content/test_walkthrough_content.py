"""The walkthrough and pairing fixtures pass their checkers; a broken copy is caught with its path."""

import re
import shutil

import pytest
import yaml

from toolcall import REPO_ROOT
from toolcall.check import check_pairing_examples, check_walkthroughs


@pytest.fixture
def content(tmp_path):
    """A copy of the repo's fixtures/ to break."""
    shutil.copytree(REPO_ROOT / "fixtures", tmp_path / "fixtures")
    return tmp_path


def edit(path, change):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


WALK = "fixtures/transcripts/refund_walkthrough.yaml"
PAIR = "fixtures/pairing/examples.yaml"


def test_repo_content_passes():
    assert check_walkthroughs(REPO_ROOT) == []
    assert check_pairing_examples(REPO_ROOT) == []


def test_wrong_outcome_is_reported(content):
    edit(content / WALK, lambda d: d["variants"][2].update(outcome="failed"))
    assert [str(p) for p in check_walkthroughs(content)] == [
        f"{content / WALK}: $.variants[2].outcome: states failed, but the app concludes succeeded"]


def test_too_few_attempts_for_the_cap_is_reported(content):
    edit(content / WALK, lambda d: d["variants"][3]["attempts"].pop())
    problems = check_walkthroughs(content)
    assert [p.path for p in problems] == ["$.variants[3]"]
    assert problems[0].message.startswith("attempts: only 2, all with errors")


def test_unknown_tool_is_reported(content):
    edit(content / WALK, lambda d: d["variants"][0]["attempts"][0]["calls"][0].update(tool="cancel_order"))
    assert [p.message for p in check_walkthroughs(content)] == [
        "calls tools not listed (or not loadable) in tools: ['cancel_order']"]


def test_raw_that_is_not_an_object_is_reported(content):
    edit(content / WALK, lambda d: d["variants"][0]["attempts"][0]["calls"][0].update(raw='{"order_id": '))
    problems = check_walkthroughs(content)
    assert [p.path for p in problems] == ["$.variants[0]"]
    assert "is not a JSON object" in problems[0].message


def test_schema_problem_names_the_path(content):
    edit(content / WALK, lambda d: d["variants"][1].pop("label"))
    assert [(p.path, p.message) for p in check_walkthroughs(content)] == [
        ("$.variants[1]", "'label' is a required property")]


def test_pairing_example_with_wrong_expectation_is_reported(content):
    edit(content / PAIR, lambda d: d["examples"][0].update(expect=["orphan_result"]))
    assert [(p.path, p.message) for p in check_pairing_examples(content)] == [
        ("$.examples[0].expect", "expected ['orphan_result'], the checker reports ['tool_use_without_result']")]


def test_pairing_example_with_wrong_format_is_reported(content):
    edit(content / PAIR, lambda d: d["examples"][0].update(format="openai"))
    assert [(p.path, p.message) for p in check_pairing_examples(content)] == [
        ("$.examples[0].format", "declared openai, detected anthropic")]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_pairing_example_missing_a_language_is_reported(content, language):
    """Newcomer pass: every example is shown in the page's language, so an instructor's new example
    without its zh (or en) text fails check, naming the file and the JSON path."""
    edit(content / PAIR, lambda d: d["examples"][-1]["text"].pop(language))
    last = len(yaml.safe_load((content / PAIR).read_text("utf-8"))["examples"]) - 1
    assert [(p.file, p.path, p.message) for p in check_pairing_examples(content)] == [
        (str(content / PAIR), f"$.examples[{last}].text", f"'{language}' is a required property")]


def test_pairing_example_whose_verdict_changes_with_the_language_is_reported(content):
    """The zh text of an example must break the same rules as its en text: check names the language."""
    examples = yaml.safe_load((content / PAIR).read_text("utf-8"))["examples"]
    i = next(i for i, e in enumerate(examples) if e["expect"])
    edit(content / PAIR, lambda d: d["examples"][i]["text"].update(zh="[]"))
    assert [(p.path, p.message) for p in check_pairing_examples(content)] == [
        (f"$.examples[{i}].expect", f"expected {examples[i]['expect']}, the checker reports [] (its text.zh)")]


IDENTIFIER = re.compile(r"(?<![A-Za-z0-9-])[A-Z]{2,5}-[0-9]{6,}(?:-[0-9]+)*(?![A-Za-z0-9-])")


def _bumped(identifier: str, text: str) -> str:
    """``identifier`` with its last digit changed to one that makes it appear nowhere in ``text``."""
    return next(identifier[:-1] + d for d in "7395128640" if identifier[:-1] + d not in text)


def _final_identifiers():
    """(variant index, language, identifier) for every identifier in a shipped final answer."""
    data = yaml.safe_load((REPO_ROOT / WALK).read_text(encoding="utf-8"))
    return [(v, lang, m) for v, variant in enumerate(data["variants"]) for lang, text in (variant.get("final") or {}).items()
            for m in sorted(set(IDENTIFIER.findall(text)))]


def test_a_final_answer_quoting_a_refund_number_the_backend_never_gave_is_reported(content):
    # the final answer said "refund RF-20260917-007" while the backend returned RF-20260917-001: check passed
    v, lang, found = next(c for c in _final_identifiers() if c[2].startswith("RF-"))
    text = (content / WALK).read_text(encoding="utf-8")
    wrong = _bumped(found, text)
    edit(content / WALK, lambda d: d["variants"][v]["final"].update({lang: d["variants"][v]["final"][lang]
                                                                          .replace(found, wrong)}))
    assert [str(p) for p in check_walkthroughs(content)] == [
        f"{content / WALK}: $.variants[{v}].final.{lang}: names {wrong}, which neither the user nor any tool result "
        "said"]


@pytest.mark.parametrize("v, lang, found", _final_identifiers())
def test_every_identifier_of_a_final_answer_must_come_from_the_conversation(content, v, lang, found):
    wrong = _bumped(found, (content / WALK).read_text(encoding="utf-8"))
    edit(content / WALK, lambda d: d["variants"][v]["final"].update({lang: d["variants"][v]["final"][lang]
                                                                          .replace(found, wrong)}))
    assert [(p.path, p.message) for p in check_walkthroughs(content)] == [
        (f"$.variants[{v}].final.{lang}", f"names {wrong}, which neither the user nor any tool result said")]
