"""What counts as English prose left in Chinese text (issue 12, "Chinese without English left in").

Heuristic: after removing code (fenced blocks and `inline code`), link targets, URLs, English quoted whole in
“ ” (a parser's own message) and the
proper names and terms in ALLOWED, no run of three or more consecutive ASCII words made of
letters may remain. Two English words in a row (a term such as "pass rate") are tolerated;
three are a sentence fragment. Identifiers (tool_use, pass^k, ORD-20260917) are not words.
"""

import re

#: Proper names, titles and field terms that stay in English in the Chinese text (longest first).
ALLOWED = sorted([
    "Building effective agents", "Prompt engineering your tools", "agent-computer interface",
    "Writing effective tools for agents", "Erik Schluntz", "Barry Zhang", "JSON Schema", "Chat Completions",
    "Messages API", "Converse API", "Responses API", "Claude Opus", "Claude Sonnet", "Structured Outputs",
    "Function calling", "Tool use", "Gemini Developer API",
], key=len, reverse=True)

_FENCED = re.compile(r"```.*?```", re.S)
_INLINE = re.compile(r"`[^`]*`")
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_URL = re.compile(r"https?://\S+")
#: An English text quoted whole in Chinese quotation marks, e.g. the JSON parser's own message after 解析器原文：
#: a quotation shown as it is, not prose left untranslated.
_QUOTED = re.compile(r"“[\x20-\x7e]*”")
ENGLISH_RUN = re.compile(r"(?<![\w^@$/.-])[A-Za-z]+(?:['’][a-z]+)?(?:[ \t]+[A-Za-z]+(?:['’][a-z]+)?){2,}(?![\w(])")


def prose(text: str) -> str:
    """``text`` with code, link targets, URLs and allowed names removed."""
    text = _QUOTED.sub(" ", _URL.sub(" ", _LINK_TARGET.sub("]", _INLINE.sub(" ", _FENCED.sub(" ", text)))))
    for name in ALLOWED:
        text = text.replace(name, " ")
    return text


def english_runs(text: str) -> list[str]:
    """Runs of three or more ASCII words in the prose of ``text``."""
    return ENGLISH_RUN.findall(prose(text))


#: A CJK character (or closing CJK punctuation) followed by an ASCII colon and a space or the end: in
#: Chinese prose the colon is the full-width "：" (issue 14, "资料来源: ").
_ASCII_COLON = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]:(?:[ \t]|$)", re.M)


def ascii_colons(text: str) -> list[str]:
    """Places in the prose of ``text`` where a Chinese word is followed by an ASCII colon."""
    return _ASCII_COLON.findall(prose(text))
