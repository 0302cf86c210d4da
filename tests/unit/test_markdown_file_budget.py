"""check parses at most MAX_MARKDOWN_FILE_CHARS characters of Markdown per file (issue 13, break-it pass
brk14content: time bounded on every input path). Each text was held to MAX_MARKDOWN_CHARS, but a 1.4 MB exercise file
of 20 hints of ``"[\\n"`` repeated, each under that limit, held check for 75 s. The count is of characters handed to
the parser (work, not wall time), so the next Markdown field a checker adds is held too."""

import json

import toolcall.check as check
from tests.content_copy import edited_copy, problem_set
from toolcall.markdown_hazards import MAX_MARKDOWN_CHARS


def test_a_file_of_many_long_markdown_texts_is_parsed_up_to_the_budget_and_named(tmp_path, monkeypatch):
    text = "word " * 8_000  # 40 000 characters, under MAX_MARKDOWN_CHARS
    assert len(text) < MAX_MARKDOWN_CHARS < check.MAX_MARKDOWN_FILE_CHARS < 8 * len(text)
    # 8 hints: with the exercise's own, within the 10 an exercise may have (fixtures/schemas/exercise.schema.json)
    hints = "".join(f"      - en: {json.dumps(text)}\n        zh: x\n" for _ in range(8))
    root = edited_copy(tmp_path, "fixtures/exercises/general.yaml", "    hints:\n      - en: \"Ask first",
                       "    hints:\n" + hints + "      - en: \"Ask first")
    parsed: dict[str, int] = {"chars": 0}
    hazards = check.markdown_hazards

    def counting(found: str, *args, **kwargs):
        parsed["chars"] += len(found)
        return hazards(found, *args, **kwargs)

    monkeypatch.setattr(check, "markdown_hazards", counting)
    problems = {(where, message) for file, where, message in problem_set(root) if file.endswith("general.yaml")}
    assert problems == {("$.exercises[0].hints[2].en", "the file's Markdown texts pass 100,000 characters here; check "
                                                       "parses at most 100,000 per file, so this text and the ones "
                                                       "after it were not checked")}
    assert parsed["chars"] <= check.MAX_MARKDOWN_FILE_CHARS + 40_000  # the other shipped files hold < 40 000 in all

