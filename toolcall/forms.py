"""The same tool call in every wire form: the call the model writes, the tool definition, and tool_choice.

The result sent back is built by toolcall/results.py (``tool_result_message``); the form names are
in toolcall/wire.py. Shapes, per form (sources):

* Anthropic Messages: call ``{"type": "tool_use", "id", "name", "input": {…}}``; tool
  ``{name, description, input_schema}``; tool_choice ``{"type": "auto" | "any" | "none"}`` or
  ``{"type": "tool", "name"}`` (https://docs.anthropic.com/en/docs/build-with-claude/tool-use).
* OpenAI Chat Completions: call ``{"id", "type": "function", "function": {"name", "arguments": "<JSON text>"}}``;
  tool ``{"type": "function", "function": {name, description, parameters[, strict]}}``; tool_choice
  ``"auto" | "required" | "none"`` or ``{"type": "function", "function": {"name"}}``
  (https://platform.openai.com/docs/api-reference/chat/create).
* OpenAI Responses: call ``{"type": "function_call", "call_id", "name", "arguments": "<JSON text>"}``; tool in
  the flatter form ``{"type": "function", "name", "description", "parameters", "strict"}``; tool_choice
  ``"auto" | "required" | "none"`` or ``{"type": "function", "name"}``
  (https://platform.openai.com/docs/api-reference/responses/create,
  https://platform.openai.com/docs/guides/function-calling?api-mode=responses).
* MCP (specification 2025-11-25): call ``{"jsonrpc": "2.0", "id", "method": "tools/call", "params": {"name",
  "arguments": {…}}}``; tool ``{name, description, inputSchema[, outputSchema]}`` from ``tools/list``; no
  tool_choice: which tool to call is decided by the host's model API, not by MCP
  (https://modelcontextprotocol.io/specification/2025-11-25/server/tools).
* Gemini: call part ``{"functionCall": {"id", "name", "args": {…}}}``; tool
  ``{"functionDeclarations": [{name, description, parameters | parametersJsonSchema}]}`` (``parameters`` takes
  an OpenAPI-style subset; a schema using more goes in ``parametersJsonSchema``: toolcall/strict decides);
  tool_choice is ``toolConfig.functionCallingConfig.mode`` ``AUTO | ANY | NONE`` (``VALIDATED`` also exists),
  with ``allowedFunctionNames`` (https://ai.google.dev/gemini-api/docs/function-calling,
  https://ai.google.dev/api/caching#FunctionCallingConfig).
"""

from __future__ import annotations

import json
from typing import Any

from toolcall.fixtures import Tool
from toolcall.parsing import parse_tool_input
from toolcall.results import tool_call_entry
from toolcall.wire import ANTHROPIC, FORMATS, GEMINI, MCP, OPENAI, RESPONSES
from toolcall.text import quoted_head

#: The tool_choice intents every form can say (MCP none of them: see the module docstring).
CHOICES: tuple[str, ...] = ("auto", "required", "none", "named")


def _check(fmt: str) -> None:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {FORMATS}")


def call_message(fmt: str, call: str, name: str, raw: str) -> dict[str, Any]:
    """The call of tool ``name`` with id ``call`` and argument text ``raw``, as ``fmt`` writes it.

    Chat Completions and Responses carry ``raw`` as a string, unchanged. Anthropic, MCP and Gemini
    carry an object: ``raw`` must be a JSON object (ValueError otherwise: those forms cannot even
    hold broken arguments). Raises ValueError for an unknown ``fmt``.
    """
    _check(fmt)
    if fmt not in (OPENAI, RESPONSES):
        parsed = parse_tool_input(raw)
        if not parsed.ok:
            raise ValueError(f"{fmt} carries arguments as an object; {quoted_head(raw, 60)} is not a JSON object "
                             f"({parsed.code})")
    return tool_call_entry(fmt, call, name, raw)


def tool_definition(fmt: str, tool: Tool, output_schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """``tool`` as ``fmt`` declares it (see the module docstring).

    Responses: ``strict`` is true only when OpenAI's strict mode would take the schema as it is
    (toolcall.strict finds nothing it refuses); otherwise false, so the request is not refused.
    Gemini: ``parameters`` when the schema stays in its OpenAPI subset, else ``parametersJsonSchema``
    (the same decision as the strict panel's). MCP: ``outputSchema`` when ``output_schema`` is given.
    Raises ValueError for an unknown ``fmt``.
    """
    _check(fmt)
    if fmt == ANTHROPIC:
        return tool.as_anthropic()
    if fmt == OPENAI:
        return tool.as_openai()
    if fmt == MCP:
        out: dict[str, Any] = {"name": tool.name, "description": tool.description, "inputSchema": tool.input_schema}
        if output_schema is not None:
            out["outputSchema"] = output_schema
        return out
    from toolcall.strict import report  # the strict rules: only these two forms need them

    if fmt == RESPONSES:
        strict = not report(tool.input_schema, "openai", tool.name, tool.description).refused
        return {"type": "function", "name": tool.name, "description": tool.description,
                "parameters": tool.input_schema, "strict": strict}
    declaration = report(tool.input_schema, "gemini", tool.name, tool.description).declaration
    return {"functionDeclarations": [declaration]}


def tool_choice(fmt: str, intent: str, name: str | None = None) -> Any:
    """How ``fmt`` spells ``intent`` (one of CHOICES; ``named`` forces tool ``name``), or None for MCP,
    which has no tool_choice. Gemini's value is the request's whole ``toolConfig``.
    Raises ValueError for an unknown ``fmt`` or ``intent``, or ``named`` without a name."""
    _check(fmt)
    if intent not in CHOICES:
        raise ValueError(f"unknown intent {intent!r}; expected one of {CHOICES}")
    if intent == "named" and not name:
        raise ValueError("a named tool_choice needs the tool's name")
    if fmt == MCP:
        return None
    if fmt == ANTHROPIC:
        return {"type": "tool", "name": name} if intent == "named" else {
            "type": {"auto": "auto", "required": "any", "none": "none"}[intent]}
    if fmt == GEMINI:
        mode = {"auto": "AUTO", "required": "ANY", "none": "NONE", "named": "ANY"}[intent]
        config: dict[str, Any] = {"mode": mode}
        if intent == "named":
            config["allowedFunctionNames"] = [name]
        return {"functionCallingConfig": config}
    if intent != "named":
        return intent
    return {"type": "function", "function": {"name": name}} if fmt == OPENAI else {"type": "function", "name": name}


def arguments_text(fmt: str, call: dict[str, Any]) -> str:
    """The argument text of a call built by ``call_message`` (objects as compact JSON)."""
    _check(fmt)
    if fmt == OPENAI:
        return call["function"]["arguments"]
    if fmt == RESPONSES:
        return call["arguments"]
    value = {ANTHROPIC: lambda c: c["input"], MCP: lambda c: c["params"]["arguments"],
             GEMINI: lambda c: c["functionCall"]["args"]}[fmt](call)
    return json.dumps(value, ensure_ascii=False)
