"""Entries shown side by side (options, steps, categories, cards, variants …) that read the same in one language
are named by ``check``: students cannot tell them apart.

A choice exercise whose right and wrong options both read "回一个 is_error 的 tool_result，让模型重试" in Chinese
passed check (tests/content_copy.py breaks a copy of the shipped content).
"""

import copy

import yaml

from tests.content_copy import copy_content, problem_set
from toolcall.fixtures import SHOWN_KEYS, display_name, json_path
from toolcall.i18n import LANGS

SAME = "students cannot tell the two apart"


def test_two_options_reading_the_same_in_chinese_are_named(tmp_path):
    """The example: the first choice exercise's second option given the first's Chinese text."""
    root = copy_content(tmp_path)
    path = root / "fixtures" / "exercises" / "general.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    index = next(i for i, ex in enumerate(data["exercises"]) if ex["type"] == "choice")
    options = data["exercises"][index]["options"]
    options[1]["text"]["zh"] = "  " + options[0]["text"]["zh"]  # white space aside
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    at = ["exercises", index, "options"]
    assert {p for p in problem_set(root) if SAME in p[2]} == {
        (display_name(path), json_path([*at, 1, "text", "zh"]), f"shows the same text as "
         f"{json_path([*at, 0, 'text', 'zh'])} ({options[1]['text']['zh']!r}): {SAME}")}


def _shown_lists(data, parts=()):
    """(JSON path parts, key) of every list in ``data`` whose first two entries show an {en, zh} text at key."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _shown_lists(v, (*parts, k))
    elif isinstance(data, list):
        for key in SHOWN_KEYS:
            if len(data) > 1 and all(isinstance(e, dict) and isinstance(e.get(key), dict)
                                     and set(e[key]) == set(LANGS) for e in data[:2]):
                yield list(parts), key
        for i, v in enumerate(data):
            yield from _shown_lists(v, (*parts, i))


def test_every_list_of_shown_texts_in_the_content_is_checked(tmp_path):
    """The sweep: in every YAML content file, each list of entries showing texts gets its second entry's text
    (in every language) made its first's, all at once: each is named at exactly its place, and nothing else is."""
    root = copy_content(tmp_path)
    expected = set()
    for path in sorted((root / "fixtures").glob("*/*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        lists = list(_shown_lists(data))
        for parts, key in lists:
            node = data
            for part in parts:
                node = node[part]
            node[1][key] = copy.deepcopy(node[0][key])
            expected |= {(display_name(path), json_path([*parts, 1, key, lang]), f"shows the same text as "
                          f"{json_path([*parts, 0, key, lang])} ({node[1][key][lang]!r}): {SAME}") for lang in LANGS}
        if lists:
            path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert len({p[0] for p in expected}) >= 4, "options, steps, cards and variants in several files"
    assert {p for p in problem_set(root) if SAME in p[2]} == expected
