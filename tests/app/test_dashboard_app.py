"""The class dashboard's access control through AppTest, in both languages: no data without
an instructor's sign-in, from any page or URL parameter; the signed-in view shows the class."""

import json

import pytest

from tests.app.conftest import PAGES, fresh_app
from toolcall.exercises import load_exercises
from toolcall.i18n import t
from toolcall.instructor import LoginThrottle
from toolcall.progress import ProgressStore

PASSPHRASE = "correct horse battery staple"
SECRET = "alice-private-answer-42"


@pytest.fixture(autouse=True)
def class_data(tmp_path, monkeypatch):
    """A class of two in a fresh data folder; no instructor settings unless a test adds them."""
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(tmp_path))
    for name in ("TOOLCALL_DATABASE_URL", "TOOLCALL_INSTRUCTOR_PASSPHRASE", "TOOLCALL_INSTRUCTOR_EMAILS"):
        monkeypatch.delenv(name, raising=False)
    store = ProgressStore(tmp_path)
    store.record("alice", "pk_pass3", SECRET, 0, 1)
    store.record("alice", "pk_pass3", "0.729", 1, 1)
    store.record("bob", "pk_pass3", SECRET.upper(), 0, 1)
    store.close()


@pytest.fixture
def waits(monkeypatch):
    """The tries' waits in their slots, recorded instead of slept (the clock stands still)."""
    import ui.instructor

    recorded: list[float] = []
    throttle = LoginThrottle(sleep=recorded.append, clock=lambda: 0.0)
    monkeypatch.setattr(ui.instructor, "_throttle", lambda: throttle)
    return recorded


def texts(at) -> str:
    """Everything the session shows, as one string (data frames as CSV)."""
    parts = []
    for kind in ("markdown", "code", "text", "caption", "info", "warning", "error", "success", "title", "subheader",
                 "metric", "selectbox", "json", "table"):
        for element in at.get(kind):
            parts.append(str(getattr(element, "value", "")) + str(getattr(element, "options", "")))
    parts += [df.value.to_csv() for df in at.dataframe]
    return "\n".join(parts)


def open_dashboard(lang: str, query: dict | None = None):
    at = fresh_app(lang, query)
    at.switch_page("pages/dashboard.py").run()
    assert not at.exception
    return at


@pytest.mark.parametrize("lang, needle", [("en", "TOOLCALL_INSTRUCTOR_PASSPHRASE"), ("zh", "教师口令")])
def test_without_settings_the_page_explains_and_shows_nothing(lang, needle):
    at = open_dashboard(lang, {"learner": "alice"})
    assert needle in at.info[0].value and "TOOLCALL_INSTRUCTOR_PASSPHRASE" in at.info[0].value
    assert (len(at.metric), len(at.dataframe), len(at.text_input)) == (0, 0, 0)
    assert SECRET.casefold() not in texts(at).casefold()


@pytest.mark.parametrize("lang, wrong", [("en", "That is not the instructor passphrase"), ("zh", "口令不对")])
def test_a_student_sees_only_the_sign_in_and_wrong_tries_wait_longer(monkeypatch, waits, lang, wrong):
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", PASSPHRASE)
    at = open_dashboard(lang, {"learner": "bob", "dashboard_learner": "alice", "dashboard_instructor": "true"})
    assert at.text_input(key="dashboard_passphrase").proto.type == 1  # TextInput.PASSWORD: typed text hidden
    assert (len(at.metric), len(at.dataframe)) == (0, 0)
    for guess in ("password", PASSPHRASE + " "):
        at.text_input(key="dashboard_passphrase").input(guess)
        at.button[0].click().run()
        assert wrong in at.error[0].value
        assert (len(at.metric), len(at.dataframe)) == (0, 0)
    assert waits == [0.0, 1.0]
    assert "dashboard_passphrase" not in at.session_state  # the typed text is not kept
    assert SECRET.casefold() not in texts(at).casefold()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_past_a_minute_of_queued_tries_the_page_says_busy_and_checks_nothing(monkeypatch, waits, lang):
    """Tries from all sessions share one queue of slots; one that would wait more than a minute is not checked."""
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", PASSPHRASE)
    at = open_dashboard(lang)
    for _ in range(6):
        at.text_input(key="dashboard_passphrase").input("password")
        at.button[0].click().run()
    assert waits == [0, 1, 3, 7, 15, 31]
    at.text_input(key="dashboard_passphrase").input(PASSPHRASE)
    at.button[0].click().run()
    assert not at.exception
    assert [e.value for e in at.error] == [t("dashboard.passphrase_busy", lang, seconds="1")]
    assert (len(at.metric), len(at.dataframe), waits[-1]) == (0, 0, 31)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("passphrase, problem", [("first line of it\nsecond line", "control"), (" " * 14, "blank"),
                                                 ("x" * 201, "long"), ("too short", "short"),
                                                 ("\ufeffopen sesame 12", "invisible"), ('"open sesame 12"', "quoted")])
def test_a_passphrase_no_one_could_type_says_why_and_offers_no_box(monkeypatch, lang, passphrase, problem):
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", passphrase)
    at = open_dashboard(lang)
    assert [w.value for w in at.warning] == [t(f"dashboard.passphrase_unusable.{problem}", lang, min=12, max=200)]
    assert [i.value for i in at.info] == [t("dashboard.not_configured", lang)] and len(at.text_input) == 0


@pytest.mark.parametrize("page", PAGES)
def test_no_page_or_url_parameter_shows_another_learners_data(monkeypatch, page):
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", PASSPHRASE)
    query = {"learner": "carol", "dashboard_learner": "alice", "dashboard_instructor": "True",
             "exercises_learner": "alice", "app_lang": "English"}
    at = fresh_app("en", query)
    at.switch_page(page).run()
    assert not at.exception
    assert SECRET.casefold() not in texts(at).casefold()
    assert "alice" not in texts(at)


@pytest.mark.parametrize("lang, learners", [("en", "Learners seen"), ("zh", "出现过的学生")])
def test_the_instructor_sees_the_class(monkeypatch, waits, lang, learners):
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", PASSPHRASE)
    at = open_dashboard(lang)
    at.text_input(key="dashboard_passphrase").input(PASSPHRASE)
    at.button[0].click().run()
    assert not at.exception and waits == [0.0]  # the right try took its slot too, at once
    metrics = {m.label: m.value for m in at.metric}
    assert metrics[learners] == "2"
    exercises = at.dataframe[0].value
    title = load_exercises().by_id()["pk_pass3"].title[lang]
    row = exercises[exercises.iloc[:, 0] == title].iloc[0]
    assert list(row.iloc[1:5]) == [2, 1, 0, "1.5"]  # tried, solved, revealed, median tries
    untried = exercises[exercises.iloc[:, 0] != title]
    assert set(untried.iloc[:, 4]) == {"—"}  # nobody tried them: a dash, never "None"
    assert row.iloc[5] == f"\"{SECRET.casefold()}\" (×2)"  # alice's and BOB's: grouped ignoring case, quoted
    at.selectbox(key="dashboard_learner").select("alice").run()
    answers = at.dataframe[3].value.iloc[:, 2].tolist()
    assert answers == [SECRET, "0.729"]


@pytest.mark.parametrize("lang, button", [("en", "Sign in with your organisation"), ("zh", "用机构账号登录")])
def test_with_an_oidc_login_configured_a_student_sees_only_its_button(monkeypatch, lang, button):
    """[auth] in secrets plus an instructor e-mail list: st.login's button, no passphrase, no data."""
    monkeypatch.setattr("ui.instructor.authlib_installed", lambda: True)
    at = oidc_dashboard(monkeypatch, lang)
    assert not at.exception
    assert [b.label for b in at.button] == [button]
    assert (len(at.text_input), len(at.metric), len(at.dataframe)) == (0, 0, 0)
    assert SECRET.casefold() not in texts(at).casefold()


def oidc_dashboard(monkeypatch, lang):
    """The dashboard, run once, with an [auth] section in secrets and one instructor e-mail (and a passphrase,
    which the login wins over)."""
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", PASSPHRASE)
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_EMAILS", "ada@uni.example")
    at = fresh_app(lang, {"learner": "bob"})
    at.secrets["auth"] = {"redirect_uri": "http://localhost:8501/oauth2callback", "cookie_secret": "x" * 32,
                          "client_id": "id", "client_secret": "secret",
                          "server_metadata_url": "https://idp.example/.well-known/openid-configuration"}
    return at.switch_page("pages/dashboard.py").run()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_oidc_login_without_authlib_says_what_to_install_instead_of_a_button_that_raises(monkeypatch, lang):
    """st.login needs Authlib, which requirements.txt does not install: the sign-in button raised
    StreamlitMissingAuthlibError, a traceback on the page (newcomer pass, session 11, following the README's
    [auth] example). Now the page names the missing package and offers no button."""
    monkeypatch.setattr("ui.instructor.authlib_installed", lambda: False)
    at = oidc_dashboard(monkeypatch, lang)
    assert not at.exception
    assert [e.value for e in at.error] == [t("dashboard.oidc_needs_authlib", lang)]
    assert (len(at.button), len(at.text_input), len(at.metric), len(at.dataframe)) == (0, 0, 0, 0)


def test_authlib_installed_asks_the_import_system(monkeypatch):
    """True exactly when importlib finds a module named authlib."""
    import importlib.util

    from ui.instructor import authlib_installed

    asked = []
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: asked.append(name))
    assert (authlib_installed(), asked) == (False, ["authlib"])
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: object())
    assert authlib_installed() is True


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_refused_name_map_is_explained_in_the_page_language_as_plain_text(monkeypatch, waits, lang):
    """Issue 13: the reason was English on the Chinese page and rendered as Markdown (a learner id
    quoted from the file could format the message or link somewhere)."""
    from toolcall.dashboard import NameMapError, parse_name_map
    from toolcall.i18n import t
    from toolcall.markdown import plain

    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", PASSPHRASE)
    at = open_dashboard(lang)
    at.text_input(key="dashboard_passphrase").input(PASSPHRASE)
    at.button[0].click().run()
    bad = b"learner,name\nalice,A\n**[x](https://evil.example)**,B\n"
    at.file_uploader(key="dashboard_names_file").set_value(("names.csv", bad, "text/csv")).run()
    assert not at.exception
    with pytest.raises(NameMapError) as refused:
        parse_name_map(bad)
    shown = plain(t("dashboard.names_error", lang, detail=refused.value.render(lang)))
    assert shown in [e.value for e in at.error]
    assert "\\*\\*\\[x\\]" in shown and "https://" not in shown  # literal stars and brackets, no live link


def test_nothing_a_learner_typed_shows_invisible_characters_on_the_dashboard(monkeypatch, waits, tmp_path):
    """Issue 13 (invisible characters in displayed text): "0.5" and "0.5" + U+200B were two
    different common wrong answers that looked the same; a U+202E in an answer reversed the cell."""
    from toolcall.text import HIDDEN

    store = ProgressStore(tmp_path)
    for answer in ("0.5\u200b", "0.5", "\u202e0.9", "0.7\U000e0041"):
        store.record("carol", "pk_pass3", answer, 0, 1)
    store.close()
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", PASSPHRASE)
    at = open_dashboard("en")
    at.text_input(key="dashboard_passphrase").input(PASSPHRASE)
    at.button[0].click().run()
    at.selectbox(key="dashboard_learner").select("carol").run()
    assert not at.exception
    shown = texts(at)
    assert "0.5\\u200b" in shown and "\\u202e0.9" in shown and "0.7\\udb40\\udc41" in shown
    assert not set(shown) & HIDDEN


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_wrong_answers_show_the_option_texts_the_students_saw(monkeypatch, waits, tmp_path, lang):
    """The common wrong answers and a learner's answers read as the options shown on the Exercises
    page, in the page's language, not as their ids (``["strict_validate", "cap_retries"]``)."""
    ex = load_exercises().by_id()["ex_misconceptions"]
    picked = ex.wrong_answers[0]["answer"]
    store = ProgressStore(tmp_path)
    for who in ("alice", "bob"):
        store.record(who, ex.id, json.dumps(picked), 0, 1)
    store.close()
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", PASSPHRASE)
    at = open_dashboard(lang)
    at.text_input(key="dashboard_passphrase").input(PASSPHRASE)
    at.button[0].click().run()
    sep = t("word.list_sep", lang)
    shown = sep.join(ex.labels("options")[i][lang] for i in picked)
    exercises = at.dataframe[0].value
    assert exercises[exercises.iloc[:, 0] == ex.title[lang]].iloc[0, 5] == f"{json.dumps(shown, ensure_ascii=False)} (×2)"
    at.selectbox(key="dashboard_learner").select("bob").run()
    assert at.dataframe[3].value.iloc[:, 2].tolist() == [SECRET.upper(), shown]  # typed text stays as typed


def _signed_in(lang):
    at = open_dashboard(lang)
    at.text_input(key="dashboard_passphrase").input(PASSPHRASE)
    at.button[0].click().run()
    assert not at.exception
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_exercise_table_lists_rows_as_the_exercises_page_does_with_readable_harness_runs(
        monkeypatch, waits, tmp_path, lang):
    """Newcomer session 7: harness rows were titled ``harness:plain_call`` with escaped JSON as their common
    wrong answer, and the rows came in another order than the Exercises page's (selection lab first). Same
    titles in the same order as the Exercises page; a scenario's wrong runs read as wrong moves by step; the
    drill-down says the run's status as the Exercises page does."""
    from toolcall.harness import load_scenarios

    store = ProgressStore(tmp_path)
    store.record("carol", "harness:plain_call",
                 json.dumps({"format": "anthropic", "wrong_per_step": [1, 0, 2], "moves": ["validate_run_return"]}),
                 1.5, 3)
    store.close()
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", PASSPHRASE)
    at = _signed_in(lang)
    dashboard = at.dataframe[0].value
    page = fresh_app(lang, {"learner": "carol"}, page="pages/exercises.py").dataframe[0].value
    assert list(dashboard.iloc[:, 0]) == list(page[t("exercises.col_title", lang)])
    assert [title for title in dashboard.iloc[:, 0] if ":" in title and title.split(":")[0].isascii()
            and title.split(":")[0].islower()] == []  # no raw "kind:id" left
    title = next(s for s in load_scenarios().scenarios if s.id == "plain_call").title[lang]
    row = dashboard[dashboard.iloc[:, 0] == title].iloc[0]
    steps = t("harness.summary.sep", lang).join([t("harness.summary.step", lang, n=1, count=1),
                                                 t("harness.summary.step", lang, n=3, count=2)])
    readable = t("harness.summary.wrong", lang, format="Anthropic", steps=steps)
    assert row.iloc[5] == f"{json.dumps(readable, ensure_ascii=False)} (×1)"
    at.selectbox(key="dashboard_learner").select("carol").run()
    detail = at.dataframe[2].value
    assert detail[t("exercises.col_status", lang)].tolist() == [t("exercises.status.finished", lang, score="1.5",
                                                                  max="3")]
    assert detail.iloc[0, 0] == title


def test_uploaded_names_show_on_the_same_run_and_in_the_export(monkeypatch, waits):
    """A newcomer's pass: the names appeared only after another click (the page read them before it read the
    upload), and "Download CSV" pressed at once exported an empty name column."""
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", PASSPHRASE)
    at = open_dashboard("en")
    at.text_input(key="dashboard_passphrase").input(PASSPHRASE)
    at.button[0].click().run()
    assert "Ada Lovelace" not in texts(at)
    names = b"learner,name\nalice,Ada Lovelace\nbob,Bob Babbage\n"
    at.file_uploader(key="dashboard_names_file").set_value(("names.csv", names, "text/csv")).run()
    assert not at.exception
    shown = texts(at)
    assert "Ada Lovelace" in shown and "Bob Babbage" in shown
    assert at.session_state["dashboard_names"] == {"alice": "Ada Lovelace", "bob": "Bob Babbage"}


@pytest.mark.parametrize("lang, expected", [
    ("en", "“names\\.txt” is not a file this box reads: upload a CSV file (its name ends in .csv)."),
    ("zh", "“names\\.txt” 不是这里能读的文件：请上传 CSV 文件（文件名以 .csv 结尾）。"),
])
def test_a_file_of_another_type_is_refused_under_the_box_in_the_page_language(monkeypatch, waits, lang, expected):
    """Streamlit's own refusal was an English tooltip on a red icon, and on a phone (no hover) no reason at
    all; the names it held are not read."""
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", PASSPHRASE)
    at = open_dashboard(lang)
    at.text_input(key="dashboard_passphrase").input(PASSPHRASE)
    at.button[0].click().run()
    at.file_uploader(key="dashboard_names_file").set_value(("names.txt", b"learner,name\nalice,Ada\n",
                                                             "text/plain")).run()
    assert not at.exception
    assert [e.value for e in at.error] == [expected]
    assert "dashboard_names" not in at.session_state


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_empty_passphrase_is_not_a_wrong_try(monkeypatch, waits, lang):
    """A newcomer's pass: Enter on the empty box counted as a wrong try and started the back-off."""
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", PASSPHRASE)
    at = open_dashboard(lang)
    at.button[0].click().run()
    assert not at.exception
    assert [w.value for w in at.warning] == [t("dashboard.empty_passphrase", lang)]
    assert [e.value for e in at.error] == [] and waits == []
    at.text_input(key="dashboard_passphrase").input("wrong")
    at.button[0].click().run()
    assert (len(waits), [e.value for e in at.error]) == (1, [t("dashboard.wrong_passphrase", lang, seconds=f"{waits[0]:g}")])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_learner_flooding_tries_gets_a_bounded_drill_down(tmp_path, monkeypatch, waits, lang):
    """Break-it pass brk10web2: one learner's MAX_STORED_ATTEMPTS long wrong answers to every exercise made the
    drill-down a 1.2 MB table (21 exercises) sent on every rerun of the dashboard, growing with each exercise
    added. Now the newest SHOWN_ATTEMPTS tries are listed with a count of the rest, and what the drill-down adds
    to the page is bounded by the rows shown, whatever the number of exercises."""
    from tests.app.test_pairing_page import _element_bytes
    from toolcall.dashboard import DETAIL_ANSWER_CHARS, SHOWN_ATTEMPTS
    from toolcall.progress import MAX_STORED_ANSWER_CHARS, MAX_STORED_ATTEMPTS

    exercises = load_exercises(__import__("toolcall").FIXTURES_DIR / "exercises").exercises
    store = ProgressStore(tmp_path)
    for ex in exercises:
        for i in range(MAX_STORED_ATTEMPTS):
            store.record("mallory", ex.id, f"{i:04d}" + "W" * (MAX_STORED_ANSWER_CHARS - 4), 0, 1)
    total = len(store.attempts("mallory"))
    store.close()
    assert total == len(exercises) * MAX_STORED_ATTEMPTS > SHOWN_ATTEMPTS
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", PASSPHRASE)
    at = open_dashboard(lang)
    at.text_input(key="dashboard_passphrase").input(PASSPHRASE)
    at.button[0].click().run()
    before = sum(_element_bytes(at).values())
    at.selectbox(key="dashboard_learner").set_value("mallory").run()
    assert not at.exception, [e.value for e in at.exception]
    tries = next(df.value for df in at.dataframe if t("dashboard.col_answer", lang) in df.value.columns)
    assert len(tries) == SHOWN_ATTEMPTS
    assert list(tries[t("dashboard.col_answer", lang)])[-1].startswith(f"{MAX_STORED_ATTEMPTS - 1:04d}")  # the newest
    assert t("dashboard.attempts_shown", lang, shown=f"{SHOWN_ATTEMPTS:,}", total=f"{total:,}") in \
        [c.value for c in at.caption]
    rows = SHOWN_ATTEMPTS + len(exercises)  # the tries, and one progress row per exercise
    assert sum(_element_bytes(at).values()) - before <= rows * (DETAIL_ANSWER_CHARS + 300)


@pytest.mark.parametrize("lang, expected", [
    ("en", "The JSON file holds every graded try, newest first, up to 16 MB of answer text for the whole class; past "
           "that it keeps the newest tries and counts the older ones under attempts_left_out. The CSV holds each "
           "learner's last answer to each exercise, up to 16,000,000 characters of them for the whole class; past "
           "that each is cut to an equal share and ends in “…”."),
    ("zh", "JSON 文件收录每一次判过分的尝试，从最新的往前，全班答案文本最多 16 MB；超出时只保留较新的尝试，较早的不再收录，"
           "数目记在 attempts_left_out 里。CSV 里是每个学生每道题最后一次的答案，全班合计最多 16,000,000 个字符；"
           "超出时每个答案截成同样的长度，结尾标“…”。"),
])
def test_the_export_says_what_its_json_file_holds(monkeypatch, waits, lang, expected):
    """The JSON export read every stored try into one process (4 GB at the store's caps); it now holds the newest
    up to MAX_EXPORT_ANSWER_BYTES, the CSV's last answers up to MAX_CSV_ANSWER_CHARS, and the page says so over the
    buttons."""
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", PASSPHRASE)
    at = _signed_in(lang)
    assert expected in [c.value for c in at.caption]
