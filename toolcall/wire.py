"""Wire-format names, defined once: every module that builds or reads a provider's messages imports them here.

A wire format is the JSON shape one API uses for tool calls and their results:

* ``anthropic`` (Messages API): ``tool_use`` / ``tool_result`` content blocks, ids ``toolu_…`` in
  ``tool_use_id``; https://docs.anthropic.com/en/docs/build-with-claude/tool-use
* ``openai`` (Chat Completions): ``tool_calls`` on the assistant message, ``role: "tool"`` replies,
  ids ``call_…`` in ``tool_call_id``; https://platform.openai.com/docs/guides/function-calling
* ``responses`` (OpenAI Responses API): a ``function_call`` output item (``call_id``, ``name``,
  ``arguments`` as a JSON string) answered by a ``function_call_output`` input item (``call_id``,
  ``output`` a string); no ``role: "tool"`` message.
  https://platform.openai.com/docs/api-reference/responses/create
* ``mcp`` (Model Context Protocol, specification 2025-11-25): a JSON-RPC 2.0 ``tools/call`` request
  (``params.name``, ``params.arguments``) answered by a ``CallToolResult`` (``content``, optional
  ``structuredContent``, ``isError``) or a JSON-RPC error (``-32602`` for an unknown tool or a malformed
  request). https://modelcontextprotocol.io/specification/2025-11-25/server/tools and
  https://modelcontextprotocol.io/community/seps/1303-input-validation-errors-as-tool-execution-errors
* ``gemini`` (Gemini API): a ``functionCall`` part (``name``, ``args`` an object, optional ``id``)
  answered by a ``functionResponse`` part (``name``, ``response`` an object, optional ``id``).
  https://ai.google.dev/gemini-api/docs/function-calling and
  https://googleapis.github.io/js-genai/classes/types.FunctionResponse.html
"""

from __future__ import annotations

ANTHROPIC = "anthropic"
OPENAI = "openai"
RESPONSES = "responses"
MCP = "mcp"
GEMINI = "gemini"
#: Not a format: "detect it from the transcript's shape" (the pairing checker's default).
AUTO = "auto"

#: The wire formats a tool_result can be built in (CLI ``result --format``, the playground's radio,
#: the step-through, the converter).
FORMATS: tuple[str, ...] = (ANTHROPIC, OPENAI, RESPONSES, MCP, GEMINI)
#: What the pairing checker accepts (CLI ``pairing --format``, the pairing page's radio): AUTO or a format.
PAIRING_CHOICES: tuple[str, ...] = (AUTO, *FORMATS)
#: The harness lab's scenarios are written for these two only (their steps are per format in
#: fixtures/harness/*.yaml); the other forms are taught on the playground, walkthrough and pairing pages.
HARNESS_FORMATS: tuple[str, ...] = (ANTHROPIC, OPENAI)
#: The step-through (toolcall/transcripts.py, the walkthrough page, ``check``'s transcript checks): every
#: form that talks to a model. MCP does not (it is the host ↔ tool-server leg); its messages are shown on
#: the playground's cards, the pairing page and the converter.
STEP_FORMATS: tuple[str, ...] = (ANTHROPIC, OPENAI, RESPONSES, GEMINI)
#: Forms whose ids are named ``call_id`` / ``tool_call_id`` / ``id`` and carry no error flag
#: (the error is said in the content text).
NO_ERROR_FLAG: tuple[str, ...] = (OPENAI, RESPONSES)
