"""What a tool definition costs in the prompt: token counts per tool and per set, and what each
provider documents about the text it adds.

Counts: the definition's compact JSON tokenized with OpenAI's ``o200k_base`` encoding, offline,
by the ``bpe-openai`` package (a Rust port that ships the encoding inside the wheel; tiktoken would
download it at run time). That count is exact *for that text*; neither provider documents the exact
text the tools are rendered into, so the billed count differs:

- OpenAI: "Tools and schemas add tokens that are hard to count locally" (token-counting guide,
  https://developers.openai.com/api/docs/guides/token-counting); nothing about the rendered form is
  documented, so the panel shows only the JSON.
- Anthropic: "When you use tools, we also automatically include a special system prompt for the model
  which enables tool use", with its token count per model and tool_choice
  (https://docs.anthropic.com/zh-CN/docs/tool-use-pricing-and-tokens, also in Spanish at
  https://docs.anthropic.com/es/docs/tool-use-pricing-and-tokens, the same table in ko, ru, fr, it, pt):
  :data:`ANTHROPIC_TOOL_PROMPT`. That table lists only the Claude 3 models (2024, the tool-use launch;
  it also names the tools-2024-04-04 beta). Searched again on 2026-12-01 ("tool use system prompt
  tokens", the pricing page https://platform.claude.com/docs/zh-CN/about-claude/pricing): no figure for
  newer models was found, so the page says where the table is from and how old it is.
  The prompt's text is not published, and Claude's tokenizer is not public: Claude counts here are
  the o200k_base count, labelled an estimate.

When ``bpe-openai`` is missing, :func:`count` falls back to ``ceil(UTF-8 bytes / 4)``, labelled as such.

Only the package's Rust tokenizer (``bpe_openai._bindings``) is loaded: ``import bpe_openai`` builds the
Python-side vocabularies of three encodings (cl100k_base, o200k_base, voyage3_base) while being imported,
0.66 s of CPU on the course machine against 0.08 s for the Rust tokenizer alone (bench/README.md,
section H), and the playground's first page counts tokens. The Rust ``count`` treats text that spells a
special token (``<|endoftext|>``) as ordinary text, as an API does with a tool's description, where the
package's tiktoken-style ``encode`` raised ValueError (tests/unit/test_tokens_fast.py).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import json
import math
import sys
from pathlib import Path
from dataclasses import dataclass
from functools import lru_cache

from toolcall.fixtures import Tool

#: Documented tool-use system prompt tokens: (model, tool_choice) -> tokens (source in the module docstring).
ANTHROPIC_TOOL_PROMPT: tuple[tuple[str, str, int], ...] = (
    ("Claude 3 Opus", "auto", 530), ("Claude 3 Opus", "any, tool", 281),
    ("Claude 3 Sonnet", "auto", 159), ("Claude 3 Sonnet", "any, tool", 235),
    ("Claude 3 Haiku", "auto", 264), ("Claude 3 Haiku", "any, tool", 340),
)
#: The course's tool-count guidance: comfortable range, and the count past which to regroup.
COMFORTABLE = (5, 15)
REGROUP_ABOVE = 20
#: Longest text tokenized (characters); longer text is counted by the byte estimate.
MAX_TOKENIZED = 200_000

O200K = "o200k_base"
BYTES_ESTIMATE = "bytes/4"


#: The extension module of bpe-openai that holds the tokenizers.
BINDINGS = "bpe_openai._bindings"


def _bindings():
    """``bpe_openai._bindings`` without running ``bpe_openai/__init__.py`` (see the module docstring).

    The extension is registered under its own name in ``sys.modules``, so a later ``import bpe_openai``
    reuses it (a PyO3 extension may be initialised only once per process). ImportError when missing."""
    if BINDINGS in sys.modules or "bpe_openai" in sys.modules:
        return importlib.import_module(BINDINGS)
    spec = importlib.util.find_spec("bpe_openai")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("bpe-openai is not installed")
    for folder in spec.submodule_search_locations:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = f"{folder}/_bindings{suffix}"
            if Path(path).is_file():
                loader = importlib.machinery.ExtensionFileLoader(BINDINGS, path)
                module = importlib.util.module_from_spec(importlib.util.spec_from_loader(BINDINGS, loader,
                                                                                        origin=path))
                loader.exec_module(module)
                sys.modules[BINDINGS] = module
                return module
    raise ImportError("bpe-openai has no _bindings extension")


@lru_cache(maxsize=1)
def _encoding():
    """The o200k_base Rust tokenizer (``count(text)`` → tokens), or None without bpe-openai."""
    try:
        return _bindings().tokenizer_for_encoding(O200K)
    except (ImportError, AttributeError, OSError, ValueError):
        return None


@dataclass(frozen=True)
class Count:
    """Tokens of one text and the ``method``: O200K (exact for this text) or BYTES_ESTIMATE."""

    tokens: int
    method: str


def count(text: str) -> Count:
    """Tokens of ``text`` with o200k_base, or ``ceil(len(utf-8 bytes) / 4)`` without the package."""
    encoding = _encoding()
    if encoding is None or len(text) > MAX_TOKENIZED:
        return Count(math.ceil(len(text.encode("utf-8", "replace")) / 4), BYTES_ESTIMATE)
    return Count(encoding.count(text), O200K)


def wire_json(tool: Tool, provider: str) -> str:
    """The definition's compact JSON as it travels in a request's ``tools`` list (``anthropic`` or ``openai``)."""
    value = tool.as_openai() if provider == "openai" else tool.as_anthropic()
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def tool_count_zone(n: int) -> str:
    """``few`` (< 5 tools), ``comfortable`` (5–15), ``crowded`` (16–20) or ``regroup`` (> 20)."""
    if n > REGROUP_ABOVE:
        return "regroup"
    if n > COMFORTABLE[1]:
        return "crowded"
    return "comfortable" if n >= COMFORTABLE[0] else "few"
