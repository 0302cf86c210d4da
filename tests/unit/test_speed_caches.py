"""The caches and deferred imports that make the app fast (issue 18) give the same answers as the
uncached code, stay bounded, and defer only what they say they defer."""

import subprocess
import sys

from toolcall import REPO_ROOT, lazy
from toolcall.judge import _canned, evaluate_canned, evaluate_canned_cached, summarize
from toolcall.presets import PRESETS, apply_preset, schema_text
from toolcall.validation import CHECK_CACHE_BYTES, _checks, check_schema, check_schema_cached
from toolcall.wire import FORMATS


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_importing_jsonschema_through_toolcall_does_not_build_the_iri_parser():
    assert _run("import toolcall, jsonschema, sys; print('rfc3987_syntax.syntax_helpers' in sys.modules)") == "False"


def test_iri_formats_are_still_checked_by_rfc3987_syntax_when_asserted():
    # the stand-in forwards to the real parser at the first call: same verdicts as the library's
    code = ("import toolcall, sys; from jsonschema import FormatChecker; fc = FormatChecker();"
            "print(fc.conforms('http://example.com/ä', 'iri'), fc.conforms('not an iri', 'iri'),"
            " fc.conforms('../a b', 'iri-reference'), 'rfc3987_syntax.syntax_helpers' in sys.modules)")
    assert _run(code) == "True False False True"


def test_the_stand_in_is_not_loaded_by_dunder_lookups():
    stub = sys.modules.get(lazy.RFC3987_SYNTAX)
    if stub is None or not getattr(stub, "__toolcall_deferred__", False):
        return  # the real module was imported first in this process (nothing deferred to check)
    assert not hasattr(stub, "__wrapped__")  # inspect.unwrap asks this of every module
    assert isinstance(stub.__file__, str) and stub.__file__.endswith("__init__.py")


def test_the_playground_modules_import_no_numpy_pandas_pyarrow_or_altair():
    code = ("import sys; sys.argv = ['x']; import ui.cards, ui.common, ui.lesson_widgets, ui.exercise_widgets, "
            "ui.strict_panel, toolcall.judge, toolcall.presets, toolcall.validation, toolcall.markdown;"
            "print(sorted(m for m in ('numpy', 'pandas', 'pyarrow', 'altair') if m in sys.modules))")
    assert _run(code) == "[]"


def test_cached_check_is_the_check_and_is_shared(schema):
    text = schema_text(schema)
    for lang in ("en", "zh"):
        assert check_schema_cached(text, lang) == check_schema(text, lang)
        assert check_schema_cached(text, lang) is check_schema_cached(text, lang)
    bad = '{"type": "object", "properties": {"a": {"type": "strin"}}}'
    assert check_schema_cached(bad, "en") == check_schema(bad, "en")
    assert check_schema_cached(bad, "en").ok is False


def test_check_cache_is_bounded_by_entries_and_characters():
    assert _checks.max_entries == 256 and _checks.max_bytes == CHECK_CACHE_BYTES
    for i in range(300):
        check_schema_cached(f'{{"type": "object", "description": "{i}"}}', "en")
    assert len(_checks._data) <= 256
    huge = '{"type": "object", "description": "' + "x" * CHECK_CACHE_BYTES + '"}'
    check_schema_cached(huge, "en")  # over the limit: refused by check_schema and never kept
    assert (huge, "en") not in _checks


def test_cached_canned_judgements_equal_fresh_ones(outputs, schema, tool, book):
    for preset in PRESETS:
        loosened = apply_preset(schema, preset)
        for fmt in FORMATS:
            for assert_format in (False, True):
                fresh = evaluate_canned(outputs.outputs, loosened, tool.name, book, "zh", fmt, assert_format)
                cached = evaluate_canned_cached(outputs.outputs, loosened, tool.name, book, "zh", fmt, assert_format)
                again = evaluate_canned_cached(outputs.outputs, loosened, tool.name, book, "zh", fmt, assert_format)
                assert again is cached
                assert [c.card for c in cached] == [c.card for c in fresh]
                assert summarize(cached) == summarize(fresh)


def test_canned_cache_key_tells_languages_formats_and_schemas_apart(outputs, schema, tool, book):
    en = evaluate_canned_cached(outputs.outputs, schema, tool.name, book, "en", FORMATS[0])
    zh = evaluate_canned_cached(outputs.outputs, schema, tool.name, book, "zh", FORMATS[0])
    other = evaluate_canned_cached(outputs.outputs, schema, tool.name, book, "en", FORMATS[1])
    loose = evaluate_canned_cached(outputs.outputs, apply_preset(schema, "enum_removed"), tool.name, book, "en",
                                   FORMATS[0])
    assert len({id(en), id(zh), id(other), id(loose)}) == 4
    assert summarize(loose).leaked == ("enum_violation",) and summarize(en).leaked == ()
    assert _canned.max_entries == 128


def test_a_whitespace_only_edit_reuses_the_meta_schema_verdict(schema):
    text = schema_text(schema)
    first = check_schema(text, "en")
    assert first.ok and check_schema(text + "\n\n", "en") is first
    spaced = '{ "type": "object",  "properties": {"a": {"type": "strin"}} }'
    refused = check_schema(spaced, "zh")
    assert refused.code == "SCHEMA_INVALID" and refused.path == "/properties/a/type"
    assert check_schema(spaced.replace(" ", ""), "zh") is refused
    assert check_schema(spaced, "en") is not refused  # the language is part of the key
