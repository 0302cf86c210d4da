"""toolcall/pages_registry.py is the one list of pages: files, schema enums and locale keys agree with it."""

import json

from toolcall import FIXTURES_DIR, REPO_ROOT
from toolcall.i18n import LANGS, catalogue
from toolcall.pages_registry import EXERCISE_PAGE_IDS, LESSON_PAGE_IDS, PAGES, page, tour


def test_every_page_file_is_registered_and_every_entry_has_its_file():
    files = sorted(p.stem for p in (REPO_ROOT / "pages").glob("*.py"))
    assert files == sorted(p.id for p in PAGES)
    assert not [p for p in (REPO_ROOT / "pages").iterdir() if p.suffix == ".py" and p.stem.startswith("_")]


def test_url_paths_are_the_file_names_and_home_is_the_root():
    """Streamlit serves a fresh server's first deep link by file name: a url_path that differs from
    the file name shows "Page not found"; the one default page is served at /."""
    assert [p.id for p in PAGES if p.default] == ["home"]
    assert page("home").url_path == ""
    assert {p.url_path for p in PAGES if not p.default} == {p.id for p in PAGES} - {"home"}
    assert page("passk_lab").script == "pages/passk_lab.py"


def test_lesson_schema_enum_is_the_registry():
    schema = json.loads((FIXTURES_DIR / "schemas" / "lesson.schema.json").read_text(encoding="utf-8"))
    assert tuple(schema["properties"]["page"]["enum"]) == LESSON_PAGE_IDS


def test_exercise_schema_enum_is_the_registry():
    schema = json.loads((FIXTURES_DIR / "schemas" / "exercise.schema.json").read_text(encoding="utf-8"))
    assert tuple(schema["properties"]["exercises"]["items"]["properties"]["page"]["enum"]) == EXERCISE_PAGE_IDS


def test_every_title_and_pitch_key_exists_in_both_languages():
    keys = [p.title_key for p in PAGES] + [p.pitch_key for p in PAGES if p.pitch_key]
    for lang in LANGS:
        assert [k for k in keys if k not in catalogue(lang)] == [], lang
        assert [k for k in (f"exercises.page.{i}" for i in EXERCISE_PAGE_IDS) if k not in catalogue(lang)] == []


def test_the_home_tour_has_every_page_but_home_once():
    """Every student page has one card; home itself and instructor-only pages have none."""
    assert sorted(p.id for p in tour()) == sorted(p.id for p in PAGES if not p.default and not p.instructor_only)
    assert [p.id for p in tour()][:2] == ["playground", "walkthrough"]


def test_the_home_cards_come_in_the_sidebar_order():
    """Issue 14: the home page listed the pages in another order than the sidebar."""
    nav = [p.id for p in PAGES]
    cards = [p.id for p in tour()]
    assert cards == sorted(cards, key=nav.index)
