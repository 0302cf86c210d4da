"""The app's pages, defined once: app.py's navigation, the home page's cards, the page a lesson
or an exercise may name, ``fixtures/schemas/lesson.schema.json``'s enum and the tests all read
:data:`PAGES`.

Adding a page = its file ``pages/<id>.py`` + one :class:`Page` entry here + its locale keys
(``<area>.nav`` and ``home.<id>``) + its tests. A test fails when a file in ``pages/`` is not
listed here, or the reverse.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Page:
    """One page of the app.

    ``id`` is the file name (``pages/<id>.py``) and the URL path (``/<id>``): Streamlit serves a
    fresh server's first deep link by file name, so the two must agree. The default page (home)
    is served at ``/`` and has ``url_path`` ``""``; its id is an address too (``/home`` leads to ``/``, see
    :attr:`url_paths`). ``title_key`` / ``pitch_key`` are catalogue
    keys (the nav title; the home card's one-line pitch, ``None`` for home itself). ``card``:
    the home page shows a card for it (cards come in :data:`PAGES` order, the sidebar's).
    ``lessons`` / ``exercises``: whether a lesson's or an exercise's front matter may name this
    page (lessons then fold above it).
    ``instructor_only``: hidden from the navigation until an instructor signs in (its URL alone
    shows the sign-in and no data).
    """

    id: str
    icon: str
    title_key: str
    pitch_key: str | None = None
    card: bool = False
    lessons: bool = False
    exercises: bool = False
    default: bool = False
    instructor_only: bool = False

    @property
    def script(self) -> str:
        """The page file, relative to the repository root (``pages/playground.py``)."""
        return f"pages/{self.id}.py"

    @property
    def url_path(self) -> str:
        """The URL path without the leading slash: ``""`` for the default page, else the id."""
        return "" if self.default else self.id

    @property
    def url_paths(self) -> tuple[str, ...]:
        """Every URL path (no leading slash) that opens this page: its ``url_path``, and for the
        default page also its id (``("", "home")``), which a student may type or bookmark."""
        return ("", self.id) if self.default else (self.id,)


#: Every page, in navigation order: the order a student meets them (sidebar, home cards, exercise table).
PAGES: tuple[Page, ...] = (
    Page("home", "🏠", "app.nav_home", default=True),
    Page("playground", "🧪", "app.nav_playground", "home.playground", card=True, lessons=True, exercises=True),
    Page("walkthrough", "🔁", "walkthrough.nav", "home.walkthrough", card=True, lessons=True, exercises=True),
    Page("pairing", "🔗", "pairing.nav", "home.pairing", card=True, lessons=True),
    Page("passk_lab", "🎯", "passk.nav", "home.passk_lab", card=True, lessons=True, exercises=True),
    Page("harness_lab", "🔄", "harness.nav", "home.harness_lab", card=True, lessons=True),
    Page("eval_lab", "📊", "eval.nav", "home.eval_lab", card=True, lessons=True, exercises=True),
    Page("lessons", "📖", "lessons.nav", "home.lessons", card=True, lessons=True),
    Page("exercises", "✏️", "exercises.nav", "home.exercises", card=True, exercises=True),
    Page("dashboard", "🧑‍🏫", "dashboard.nav", instructor_only=True),
)

BY_ID: dict[str, Page] = {p.id: p for p in PAGES}

#: Page ids a lesson's ``page`` may name ("lessons" means the reading page only).
LESSON_PAGE_IDS: tuple[str, ...] = tuple(p.id for p in PAGES if p.lessons)
#: Page ids an exercise's ``page`` may name.
EXERCISE_PAGE_IDS: tuple[str, ...] = tuple(p.id for p in PAGES if p.exercises)


def page(page_id: str) -> Page:
    """The page with this id; KeyError names the unknown id."""
    return BY_ID[page_id]


def tour() -> list[Page]:
    """The pages the home page shows as cards, in the order a student meets them."""
    return [p for p in PAGES if p.card]
