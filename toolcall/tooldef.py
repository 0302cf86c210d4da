"""A whole tool definition as a student edits it: name, description and input_schema.

Reads the playground's three fields (or a pasted definition in the course's form
``{name, description, input_schema}`` or OpenAI's function form ``{type: "function",
function: {name, description, parameters}}``), checks them, and writes the definition back in
either form. Every outcome is a :class:`DefinitionCheck`: ``ok`` with a :class:`Tool`, or a code
with a translated message and the JSON path it is about. Never raises for any str input.

Name rules, the stricter of the two providers' (1 to 64 characters of ``a-z A-Z 0-9 _ -``):
OpenAI's function ``name`` "must be a-z, A-Z, 0-9, or contain underscores and dashes, with a
maximum length of 64" (Chat Completions API reference, ``tools[].function.name``,
https://platform.openai.com/docs/api-reference/chat/create; the same sentence is in the SDKs
generated from its OpenAPI spec). Anthropic's ``tools[].name`` is reported as
``^[a-zA-Z0-9_-]{1,64}$`` by clients that hit its 400 and as up to 128 characters for the current
API (https://docs.anthropic.com/en/api/messages, ``tools``); we did not find the limit on an
Anthropic page in this search, so the 64 both accept is enforced.

The share link (:func:`share_token` / :func:`read_share_token`) packs the course form with
zlib and base64url; both directions are bounded (:data:`MAX_SHARE_CHARS`, :data:`MAX_DEFINITION_CHARS`).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from toolcall.fixtures import Tool, json_path, pointer_parts
from toolcall.i18n import t
from toolcall.parsing import TOO_LARGE, StrictJSONError, json_type, localized_detail, strict_loads
from toolcall.text import editable_json
from toolcall.validation import MAX_SCHEMA_DEPTH, check_schema

#: The providers' tool-name rule (see the module docstring for both sources).
NAME_PATTERN = re.compile(r"^[a-zA-Z0-9_-]{1,64}\Z")
NAME_MAX = 64
#: Our own bounds (not a provider's): a description longer than this is refused at the editor,
#: and so is a pasted definition longer than MAX_DEFINITION_CHARS.
MAX_DESCRIPTION_CHARS = 10_000
MAX_DEFINITION_CHARS = 200_000
#: Longest share token accepted in a URL (characters); browsers and proxies start failing near 8 000.
MAX_SHARE_CHARS = 6_000

COURSE = "course"
OPENAI_FORM = "openai"
FORMS: tuple[str, ...] = (COURSE, OPENAI_FORM)


@dataclass(frozen=True)
class DefinitionCheck:
    """Outcome of reading a definition: ``ok`` and ``tool``, or ``code`` (one of NAME_EMPTY,
    NAME_TOO_LONG, NAME_CHARS, DESCRIPTION_TOO_LONG, DEFINITION_TOO_LARGE, DEFINITION_NOT_JSON,
    DEFINITION_NOT_OBJECT, DEFINITION_NO_SCHEMA, DEFINITION_IS_REQUEST, DEFINITION_FIELD_TYPE, SHARE_TOO_LONG,
    SHARE_CORRUPT
    or a SCHEMA_* code of ``validation.check_schema``), a translated ``message`` and ``path``
    (a JSONPath into the definition, ``$.name``, ``$.input_schema.properties.x``, ``$.input_schema.anyOf[0]``;
    check_schema's JSON Pointer read as one: it was ``$.input_schema/properties/x``, two notations in one path)."""

    ok: bool
    tool: Tool | None = None
    code: str | None = None
    message: str = ""
    path: str = "$"


def _fail(code: str, lang: str, path: str = "$", **params: Any) -> DefinitionCheck:
    return DefinitionCheck(False, code=code, message=t(f"workbench.err.{code}", lang, **params), path=path)


def _not_json(exc: StrictJSONError, lang: str) -> DefinitionCheck:
    """DEFINITION_NOT_JSON with the parser's detail; DEFINITION_TOO_LARGE with its own sentence when reading it ran
    out of memory (TOO_LARGE)."""
    if exc.code == TOO_LARGE:
        return DefinitionCheck(False, code="DEFINITION_TOO_LARGE", message=localized_detail(exc, lang))
    return _fail("DEFINITION_NOT_JSON", lang, detail=localized_detail(exc, lang))


def check_name(name: str, lang: str = "en", path: str = "$.name") -> DefinitionCheck | None:
    """None when ``name`` is a name both providers accept; else the failing DefinitionCheck
    (NAME_EMPTY, NAME_TOO_LONG with ``length``, NAME_CHARS naming the first refused character)."""
    if not name:
        return _fail("NAME_EMPTY", lang, path)
    if len(name) > NAME_MAX:
        return _fail("NAME_TOO_LONG", lang, path, length=len(name), limit=NAME_MAX)
    if not NAME_PATTERN.match(name):
        bad = next(ch for ch in name if not re.match(r"[a-zA-Z0-9_-]", ch))
        # With its code point: a look-alike (Cyrillic о in "refund_оrder") would otherwise read as 'o'.
        return _fail("NAME_CHARS", lang, path, char=f"{bad!r} (U+{ord(bad):04X})")
    return None


def check_description(description: str, lang: str = "en", path: str = "$.description") -> DefinitionCheck | None:
    """None when the description is within MAX_DESCRIPTION_CHARS; else DESCRIPTION_TOO_LONG."""
    if len(description) > MAX_DESCRIPTION_CHARS:
        return _fail("DESCRIPTION_TOO_LONG", lang, path, length=len(description), limit=MAX_DESCRIPTION_CHARS)
    return None


def from_fields(name: str, description: str, schema_text: str, lang: str = "en") -> DefinitionCheck:
    """Build a Tool from the playground's three fields (``tool_name``, ``tool_description``,
    ``schema_editor``). The name is checked first, then the description's size, then the schema
    (its SCHEMA_* codes and messages are ``check_schema``'s, with the path under ``$.input_schema``)."""
    name = name.strip()
    problem = check_name(name, lang) or check_description(description, lang)
    if problem:
        return problem
    checked = check_schema(schema_text, lang)
    if not checked.ok:
        return DefinitionCheck(False, code=checked.code, message=checked.message,
                               path=json_path(["input_schema", *pointer_parts(checked.path or "")]))
    return DefinitionCheck(True, Tool(name, description, checked.schema))


def parse_definition(text: str, lang: str = "en") -> DefinitionCheck:
    """Read a pasted definition, in the course's form or OpenAI's function form (with or without
    the ``{"type": "function", "function": …}`` wrapper). ``description`` may be absent (it becomes
    ""); ``input_schema`` (``parameters``) may not."""
    if len(text) > MAX_DEFINITION_CHARS:
        return _fail("DEFINITION_TOO_LARGE", lang, size=len(text), limit=MAX_DEFINITION_CHARS)
    try:
        value = strict_loads(text, MAX_SCHEMA_DEPTH + 3)
    except StrictJSONError as exc:
        return _not_json(exc, lang)
    return definition_from_value(value, lang)


def definition_from_value(value: Any, lang: str = "en") -> DefinitionCheck:
    """Like :func:`parse_definition` for an already parsed JSON value."""
    if not isinstance(value, dict):
        return _fail("DEFINITION_NOT_OBJECT", lang, type=t(f"type.{json_type(value)}", lang))
    base = "$"
    if value.get("type") == "function" and isinstance(value.get("function"), dict):
        value, base = value["function"], "$.function"
    schema_key = "input_schema" if "input_schema" in value else "parameters" if "parameters" in value else None
    if schema_key is None:
        # a request body or a Gemini tool ({"tools": [...]}, {"functionDeclarations": [...]}) holds definitions: "no
        # input_schema" named a field the student had no reason to add
        for key in ("tools", "functionDeclarations"):
            if isinstance(value.get(key), list):
                return _fail("DEFINITION_IS_REQUEST", lang, f"{base}.{key}", field=key, count=len(value[key]))
        return _fail("DEFINITION_NO_SCHEMA", lang, base)
    for key, kind in (("name", str), ("description", str), (schema_key, dict)):
        if key in value and not isinstance(value[key], kind):
            return _fail("DEFINITION_FIELD_TYPE", lang, f"{base}.{key}", field=key,
                         type=t(f"type.{json_type(value[key])}", lang))
    name, description = value.get("name", ""), value.get("description", "")
    problem = check_name(name, lang, f"{base}.name") or check_description(description, lang, f"{base}.description")
    if problem:
        return problem
    # compact: the schema is held to MAX_SCHEMA_CHARS as written here, and ", " after every comma of a schema
    # written without spaces made a valid one too large
    schema_json = json.dumps(value[schema_key], ensure_ascii=False, separators=(",", ":"))
    result = from_fields(name, description, schema_json, lang)
    if not result.ok and result.path.startswith("$.input_schema"):
        return DefinitionCheck(False, code=result.code, message=result.message,
                               path=f"{base}.{schema_key}" + result.path[len("$.input_schema"):])
    return result


def render(tool: Tool, form: str = COURSE) -> str:
    """The definition as pretty JSON (2-space indent, non-ASCII kept) in ``form``: COURSE
    (``{name, description, input_schema}``) or OPENAI_FORM (``{type, function: {…, parameters}}``); compact
    when indenting would pass MAX_DEFINITION_CHARS (a schema nested 60 deep grows about 60 times when indented:
    its definition was refused by parse_definition, and sent to the browser twice on every edit)."""
    value = tool.as_openai() if form == OPENAI_FORM else tool.as_anthropic()
    return editable_json(value, MAX_DEFINITION_CHARS)


# --- share links ---------------------------------------------------------------------------

def share_token(tool: Tool) -> str | None:
    """The course form, compact JSON, zlib level 9, base64url without padding; None when the
    token would exceed MAX_SHARE_CHARS (the page then says the definition is too long to share)."""
    raw = json.dumps(tool.as_anthropic(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    token = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")
    return token if len(token) <= MAX_SHARE_CHARS else None


#: Longest app address (``st.context.url``, as the browser reports it) a share link is built on; a longer
#: one gives no full link (the page then shows the path to add to the address).
MAX_BASE_URL_CHARS = 2_000


def share_url(base: str | None, page: str, param: str, token: str) -> str | None:
    """The full link that opens ``page`` with ``?<param>=<token>``, built on ``base``, the address of the
    app page the student is on (``st.context.url``: scheme, host, port and path, no query). None when
    ``base`` is missing, longer than MAX_BASE_URL_CHARS, or not an ``http``/``https`` address with a host:
    the caller then shows the relative path. ``/<page>`` is added unless the path already ends with it (the
    playground's own address does); any query or fragment of ``base`` is dropped, the path is
    percent-encoded. ``token`` must already be URL-safe (base64url, :func:`share_token`)."""
    if not base or len(base) > MAX_BASE_URL_CHARS:
        return None
    parts = urlsplit(base.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    path = parts.path.rstrip("/")
    if not path.endswith("/" + page):
        path += "/" + page
    return urlunsplit((parts.scheme, parts.netloc, quote(path, safe="/%-._~"), f"{param}={token}", ""))


def read_share_token(token: str, lang: str = "en") -> DefinitionCheck:
    """Decode a share token into a checked definition. SHARE_TOO_LONG past MAX_SHARE_CHARS,
    SHARE_CORRUPT when it is not base64url, not zlib, inflates past MAX_DEFINITION_CHARS or
    is not UTF-8; then every check of :func:`parse_definition`."""
    if len(token) > MAX_SHARE_CHARS:
        return _fail("SHARE_TOO_LONG", lang, size=len(token), limit=MAX_SHARE_CHARS)
    try:
        packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_DEFINITION_CHARS * 4 + 1)
        if len(raw) > MAX_DEFINITION_CHARS * 4 or not inflater.eof:
            raise ValueError("too large or incomplete")
        text = raw.decode("utf-8")
    except (binascii.Error, zlib.error, ValueError):
        return _fail("SHARE_CORRUPT", lang)
    return parse_definition(text, lang)


def parse_tool_list(text: str, lang: str = "en") -> tuple[list[Tool], DefinitionCheck | None]:
    """Read one definition or a JSON list of them (each in either form). Returns the Tools and
    None, or [] and the first failing check (its path prefixed with ``$[i]`` inside a list); an
    empty list is refused (DEFINITION_LIST_EMPTY). For a file (``lint``): one leading byte-order mark is read past,
    as ``strict``, ``result --tool``, ``pairing`` and ``check`` read one (Windows Notepad writes it; RFC 8259 §8.1
    lets a parser ignore it); ``lint`` alone refused such a file."""
    text = text.removeprefix("\ufeff")
    if len(text) > MAX_DEFINITION_CHARS:
        return [], _fail("DEFINITION_TOO_LARGE", lang, size=len(text), limit=MAX_DEFINITION_CHARS)
    try:
        value = strict_loads(text, MAX_SCHEMA_DEPTH + 4)
    except StrictJSONError as exc:
        return [], _not_json(exc, lang)
    if value == []:  # nothing to review: a score of 100 for no tools would say nothing
        return [], _fail("DEFINITION_LIST_EMPTY", lang)
    items = value if isinstance(value, list) else [value]
    tools = []
    for i, item in enumerate(items):
        checked = definition_from_value(item, lang)
        if not checked.ok:
            path = checked.path if not isinstance(value, list) else f"$[{i}]" + checked.path[1:]
            return [], DefinitionCheck(False, code=checked.code, message=checked.message, path=path)
        tools.append(checked.tool)
    return tools, None
