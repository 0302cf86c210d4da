"""The home page's cards: each pitch says what the page does and does not open by repeating the card's own
title, which sits right above it (the Be the loop card began "Be the loop: …"). Derived from the registry."""

import re

import pytest

from toolcall.i18n import LANGS, t
from toolcall.pages_registry import tour


def _words(text: str) -> str:
    return re.sub(r"[\W_]+", " ", text).strip().lower()


@pytest.mark.parametrize("lang", LANGS)
def test_no_pitch_opens_with_its_cards_title(lang):
    for page in tour():
        title, pitch = _words(t(page.title_key, lang)), _words(t(page.pitch_key, lang))
        assert not pitch.startswith(title), (page.id, lang, pitch[:60])
        head = re.split(r"[:：]", t(page.pitch_key, lang), maxsplit=1)[0]
        assert _words(head) != title, (page.id, lang)
