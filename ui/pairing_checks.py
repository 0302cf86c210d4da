"""The pairing page's check and conversion of a pasted transcript, remembered per input (pages/pairing.py): a rerun
(any click on the page) checks and converts nothing again. In SizedCaches, bounded by entries AND by the bytes each
result keeps alive: under st.cache_data they were bounded by count only (16 reports of up to 1.7 MB each, 16
conversions of up to 1.7 MB; issue 13, memory kind). Keyed by a digest of the text, so the cache does not also keep
a megabyte of paste per entry. Results are shared between sessions: read them, never change them."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from toolcall import convert, pairing  # the modules, so a test can stand in for their functions
from toolcall.safe_validator import SizedCache

#: Pairing reports kept: at most 16, holding at most 4 MiB (a report of a 1 MB paste keeps up to ~1.7 MB).
_reports = SizedCache(16, 4 * 1024 ** 2)
#: Converter results kept, same bounds (a 300 000-character conversion keeps up to ~1.7 MB).
_conversions = SizedCache(16, 4 * 1024 ** 2)


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def checked(text: str, fmt: str, language: str) -> pairing.Report:
    """``check_pairing(text, fmt, language)``, remembered per input."""
    key = (_digest(text), fmt, language)
    hit = _reports.get(key)
    if hit is None:
        hit = pairing.check_pairing(text, fmt, language)
        _reports.put(key, hit)
    return hit


def conversion(text: str, source: str, target: str, language: str) -> tuple[Any, list, Any, int, Any]:
    """``(converted, losses, error, problems, unchecked)`` (losses: the capped lines of
    toolcall.convert.loss_report, at most a line per kind of loss, not one per loss; problems: the pairing
    checker's count on the converted transcript, in ``target``; unchecked: the checker's reason when it
    cannot read that transcript, else None: a form can be longer or nest deeper than the paste) for one
    converter input, remembered per input like :func:`checked`: the box is pre-filled from the transcript
    above, so a large paste would otherwise be re-read and converted on every click anywhere on the page."""
    key = (_digest(text), source, target, language)
    hit = _conversions.get(key)
    if hit is None:
        hit = _convert(text, source, target, language)
        _conversions.put(key, hit)
    return hit


def _convert(text: str, source: str, target: str, language: str) -> tuple[Any, list, Any, int, Any]:
    messages, error = pairing.read_transcript(text, language)
    if error:
        return None, [], error, 0, None
    result, losses = convert.convert(messages, source, target)
    report = pairing.check_pairing(json.dumps(result, ensure_ascii=False), target, language)
    return result, convert.loss_report(losses, language), None, len(report.violations) + report.more, report.error
