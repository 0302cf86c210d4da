"""toolcall.tokens counts with bpe-openai's Rust tokenizer alone (no ``import bpe_openai``, whose import
builds three vocabularies): the counts are the package's own, and text spelling a special token is text."""

import subprocess
import sys
from pathlib import Path

import pytest

from toolcall import FIXTURES_DIR
from toolcall.fixtures import load_tool
from toolcall.i18n import LANGS
from toolcall.tokens import O200K, count, wire_json

bpe_openai = pytest.importorskip("bpe_openai")
REPO = Path(__file__).resolve().parents[2]
TEXTS = ["", " ", "hello world", "<|fim_prefix|>x<|fim_suffix|>", "日本語のテキスト 🤖 " * 40, "a" * 5000, "\t\n\r x \u200b y", "ORD-20260917\n"]
SPECIAL = ["<|endoftext|>", "say <|endoftext|> then <|endofprompt|>"]


def _package_count(text: str) -> int:
    return len(bpe_openai.get_encoding(O200K).encode(text, disallowed_special=()))


@pytest.mark.parametrize("path", sorted((FIXTURES_DIR / "tools").glob("*.json")), ids=lambda p: p.stem)
def test_every_fixture_tool_counts_as_the_package_counts_it(path):
    tool = load_tool(path)
    for lang in LANGS:
        for provider in ("openai", "anthropic"):
            text = wire_json(tool.for_lang(lang), provider)
            assert count(text).tokens == _package_count(text), (path.stem, lang, provider)
            assert count(text).method == O200K


@pytest.mark.parametrize("text", TEXTS + SPECIAL)
def test_texts_count_as_the_package_counts_them_as_text(text):
    assert count(text).tokens == _package_count(text)


@pytest.mark.parametrize("text", SPECIAL)
def test_a_special_token_typed_in_a_description_is_counted_not_raised(text):
    """The package's tiktoken-style encode() raises ValueError on it by default: the page would crash."""
    with pytest.raises(ValueError):
        bpe_openai.get_encoding(O200K).encode(text)
    assert count(text).tokens > 1


def test_counting_does_not_import_the_python_package():
    code = ("import sys; from toolcall.tokens import count; n = count('hello world').tokens; "
            "print(n, 'bpe_openai' in sys.modules, 'bpe_openai.compat' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["2", "False", "False"], out.stderr
