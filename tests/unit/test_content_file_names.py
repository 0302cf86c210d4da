"""A content file whose name reads as another (a Cyrillic о in ``get_оrder.json`` or ``03-tool-definitiоn.md``, a
zero-width space) is named with the character written out (issue 13, break-it pass brk14content: look-alike
characters escaped, messages naming the actual problem). Before, check said "tool name 'get_order' differs from
the file name", "file name must look like NN-slug.md" and "has no zh version", each about a name that read right."""

import shutil

import pytest

from tests.content_copy import copy_content, problem_set
from toolcall import CONTENT_ROOT
from toolcall.check import APP_READS, lookalike_name
from toolcall.text import LOOKALIKE_BLOCKS

SAID = ("the file name reads as one it is not: it holds {listed}, a letter drawn like a Latin one (Cyrillic, Greek, "
        "fullwidth) or a character shown as nothing; written out it is '{shown}': rename it in ASCII")


def test_a_tool_and_a_lesson_named_with_a_cyrillic_o_are_named_written_out(tmp_path):
    root = copy_content(tmp_path)
    shutil.move(root / "fixtures/tools/get_order.json", root / "fixtures/tools/get_\u043erder.json")
    shutil.copy(root / "lessons/en/03-tool-definition.md", root / "lessons/en/03-tool-definiti\u043en.md")
    problems = {(file.split(str(root) + "/")[-1], where, message) for file, where, message in problem_set(root)}
    assert {
        ("fixtures/tools/get_\u043erder.json", "$", SAID.format(listed="\u043e (U+043E)", shown="get_\\u043erder.json")),
        ("fixtures/tools/get_\u043erder.json", "$.name",
         "tool name 'get_order' differs from the file name 'get_\\u043erder'"),
        ("lessons/en/03-tool-definiti\u043en.md", "$", SAID.format(listed="\u043e (U+043E)",
                                                                  shown="03-tool-definiti\\u043en.md")),
    } <= problems


@pytest.mark.parametrize("ch", sorted({chr(lo) for lo, _ in LOOKALIKE_BLOCKS} | {chr(hi) for _, hi in LOOKALIKE_BLOCKS}
                                      | {"\u200b", "\u202e", "\u00ad"}))
def test_every_lookalike_block_and_hidden_character_is_named(ch):
    assert lookalike_name(f"get_{ch}rder.json") is not None


@pytest.mark.parametrize("name", ["练习.yaml", "01-plain-call.yaml", "shop.zh.yaml", "退款：场景.yaml"])
def test_names_that_read_as_they_are_pass(name):
    assert lookalike_name(name) is None


def test_no_shipped_content_file_is_named():
    names = [p.name for folder in APP_READS if (CONTENT_ROOT / folder).is_dir() for p in (CONTENT_ROOT / folder).iterdir()]
    assert len(names) > 40 and [n for n in names if lookalike_name(n)] == []
