"""What the selection lab sends for an upload is bounded in bytes, not only in rows and cells (issue 13, floods;
break-it pass brk14lab). The per-case table listed SHOWN_CASES rows whatever their width: a case id and a tool name
may be 200 characters each, every look-alike shown as a six-character \\uXXXX, so 1 000 such cases (a 0.9 MB upload)
sent a 2.57 MB table on every rerun; the confusion matrix of 20 × 20 such names sent 1.08 MB. Now the table lists
the rows that fit in SHOWN_CASE_CHARS characters and says how many it lists, and the chart cuts each name."""

import json

import pytest

from tests.app.test_eval_lab_page import lab
from tests.app.test_pairing_page import _element_bytes
from toolcall.i18n import t
from toolcall.text import escape_invisible
from ui.eval_lab import SHOWN_CASE_CHARS

TOOLS = [{"name": "t", "input_schema": {"type": "object"}}]


def _log(ids: list[str], expected: list[str], chosen: list[str]) -> bytes:
    lines = [{"case_id": case, "run": 0, "model": "m", "expected_calls": [{"name": e, "arguments": {}}],
              "actual_calls": [{"name": c, "arguments": {}}]} for case, e, c in zip(ids, expected, chosen)]
    lines[0]["tools"] = TOOLS
    return "\n".join(json.dumps(x, ensure_ascii=False) for x in lines).encode()


def _upload(lang: str, data: bytes):
    at = lab(lang)
    base = sum(_element_bytes(at).values())
    at.file_uploader(key="eval_upload").set_value(("runs.jsonl", data, "text/plain")).run()
    assert not at.exception, [e.value for e in at.exception]
    return at, sum(_element_bytes(at).values()) - base


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_thousand_lookalike_cases_list_what_fits_and_say_so(lang):
    ids = [f"{i:04d}" + "\u0430" * 196 for i in range(1000)]
    at, sent = _upload(lang, _log(ids, ["\u0430" * 200] * 1000, ["t"] * 1000))
    table = at.dataframe[-1].value
    shown = table.shape[0]
    row = sum(len(v) for v in table.iloc[0] if isinstance(v, str))
    # two names of 1 180 and 1 200 characters, three "—" and the k > n note (115 characters in English, 66 in Chinese)
    assert (row, shown) == {"en": (2498, 80), "zh": (2449, 81)}[lang] and shown == SHOWN_CASE_CHARS // row
    assert table[t("eval.col_case", lang)].tolist() == [escape_invisible(i).replace("\u0430", "\\u0430")
                                                          for i in ids[:shown]]
    texts = sum(len(v) for row in table.to_dict("records") for v in row.values() if isinstance(v, str))
    assert texts <= SHOWN_CASE_CHARS
    assert t("eval.cases_not_shown", lang, shown=str(shown), total="1,000") in [c.value for c in at.caption]
    assert sent < 400_000  # 2 580 503 bytes before


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_matrix_of_long_lookalike_names_sends_little(lang):
    expected = [f"{i:02d}" + "\u0430" * 198 for i in range(20)]
    chosen = [f"{j:02d}" + "\u0431" * 198 for j in range(20)]
    data = _log([f"c{n}" for n in range(20)], expected, chosen)  # 20 runs: the crosstab fills all 400 cells
    at, sent = _upload(lang, data)
    assert sent < 150_000, sent  # 1.08 MB of chart before, from this 16 KB upload


def test_short_rows_still_list_a_thousand():
    at, _ = _upload("en", _log([f"c{i}" for i in range(1003)], ["t"] * 1003, ["t"] * 1003))
    assert at.dataframe[-1].value.shape[0] == 1000
