"""ui.widgets.css_string and uploader_css: the app's words drawn over Streamlit's English, quoted so that
no text ends the CSS string or the style element."""

import re

from ui.widgets import css_string, uploader_css


def unescape(literal: str) -> str:
    """A CSS string literal as made by css_string back to its text (six-digit escapes, each ending in a space)."""
    assert literal[0] == literal[-1] == '"'
    return re.sub(r"\\([0-9a-f]{6}) ", lambda m: chr(int(m.group(1), 16)), literal[1:-1])


def test_css_string_escapes_all_but_letters_and_digits():
    assert css_string('a "b" 最大') == '"a\\000020 \\000022 b\\000022 \\000020 \\006700 \\005927 "'
    for text in ('"; } body { display: none', "</style><script>", "a\\b\nc", "20 MB · JSONL、JSON"):
        literal = css_string(text)
        assert unescape(literal) == text
        assert re.fullmatch(r'"([A-Za-z0-9]|\\[0-9a-f]{6} )*"', literal)


def test_uploader_css_names_the_keyed_uploader_and_the_words(monkeypatch):
    monkeypatch.setattr("ui.widgets.tr", lambda key, **kw: {"widgets.uploader.button": "上传文件",
                                                           "widgets.uploader.type_gap": "、"}.get(key, f"{kw}"))
    css = uploader_css("eval_upload", 20, ["jsonl", "json"])
    assert css.startswith("<style>") and css.endswith("</style>") and css.count("<") == 2
    contents = [unescape(m) for m in re.findall(r'content: ("[^"]*");', css)]
    assert contents == ["上传文件", "{'limit': 20, 'types': 'JSONL、JSON'}"]
    assert css.count(".st-key-eval_upload [data-testid=stFileUploaderDropzone]") == 4
