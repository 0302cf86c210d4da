"""Wire-format names, defined once: every module that builds or reads a provider's messages imports them here.

A wire format is the JSON shape one provider's API uses for tool calls: ``anthropic`` (Messages API:
``tool_use`` / ``tool_result`` content blocks, ids ``toolu_…`` in ``tool_use_id``) and ``openai``
(Chat Completions: ``tool_calls`` on the assistant message, ``role: "tool"`` replies, ids ``call_…``
in ``tool_call_id``). Sources: https://docs.anthropic.com/en/docs/build-with-claude/tool-use and
https://platform.openai.com/docs/guides/function-calling. New formats (``responses``, ``mcp``,
``gemini``) are added here.
"""

from __future__ import annotations

ANTHROPIC = "anthropic"
OPENAI = "openai"
#: Not a format: "detect it from the transcript's shape" (the pairing checker's default).
AUTO = "auto"

#: The wire formats a tool_result can be built in (CLI ``result --format``, the playground's radio).
FORMATS: tuple[str, ...] = (ANTHROPIC, OPENAI)
#: What the pairing checker accepts (CLI ``pairing --format``, the pairing page's radio): AUTO or a format.
PAIRING_CHOICES: tuple[str, ...] = (AUTO, *FORMATS)
