"""The dashboard lists at most MAX_LISTED_LEARNERS learners (issue 13, floods). Learner ids are made by visiting
(``?learner=``): a script saving one answer under each of 20 000 new ids made every rerun of the dashboard send
4.0 MB (the learners table and the drill-down's options, every id in both) and cost 1.5 s of CPU. The table and the
drill-down now list the most recently active; a caption says how many are not listed and where they are, and an id
typed into the box under the drill-down opens any learner of the class."""

import sqlite3

import pytest

import toolcall.dashboard
from tests.app.conftest import fresh_app
from tests.app.test_pairing_page import _element_bytes
from toolcall.progress import ProgressStore

CAPTION = {"en": "The 500 most recently active of 501 learners are listed; the CSV and JSON exports hold every one. "
                 "To see a learner who is not listed, type their id into the box under the list.",
           "zh": "这里只列出最近活跃的 500 名学生（共 501 名）；CSV 和 JSON 导出里有全部学生。要看没列出的学生，"
                 "请在列表下方的框里输入他的 ID。"}
MISSING = {"en": "No learner with the id nobody\\_here has any progress in this class\\.",
           "zh": "本班没有 ID 为 nobody\\_here 的学生的学习记录。"}


@pytest.fixture
def crowded_class(tmp_path, monkeypatch):
    """501 learners with one try each; the oldest, "first-one", is the one left off the list."""
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(tmp_path))
    for name in ("TOOLCALL_DATABASE_URL", "TOOLCALL_INSTRUCTOR_PASSPHRASE", "TOOLCALL_INSTRUCTOR_EMAILS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", "correct horse battery staple")
    store = ProgressStore(tmp_path)
    store.record("first-one", "pk_pass3", "0.5", 0, 1, at="2026-11-01T08:00:00+00:00")
    for i in range(toolcall.dashboard.MAX_LISTED_LEARNERS):
        store.record(f"flood{i:059d}", "pk_pass3", "0.5", 0, 1, at="2026-11-30T08:00:00+00:00")
    store.close()
    with sqlite3.connect(store.path) as db:  # the store stamps "now": make first-one the least recently active
        db.execute("UPDATE progress SET updated_at = ? WHERE learner = ?", ("2026-11-01T08:00:00+00:00", "first-one"))
    db.close()


def _dashboard(lang: str):
    at = fresh_app(lang, state={"dashboard_instructor": True}, page="pages/dashboard.py")
    assert not at.exception
    return at


def _type_into_drill_down(at, learner: str) -> None:
    at.text_input(key="dashboard_learner_id").input(learner).run()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_table_and_the_drill_down_list_the_most_recent_learners_and_say_how_many_more(crowded_class, lang):
    at = _dashboard(lang)
    learners = at.dataframe[1].value
    assert len(learners) == 500 and "first-one" not in set(learners.iloc[:, 0])
    assert CAPTION[lang] in [c.value for c in at.caption]
    options = at.selectbox(key="dashboard_learner").options
    assert len(options) == 500 and "first-one" not in options
    assert [b.label for b in at.text_input] == [{"en": "Or a learner who is not listed, by id",
                                                 "zh": "或者按 ID 查看没列出的学生"}[lang]]
    sizes = _element_bytes(at)
    assert sizes["Dataframe"] + sizes["Selectbox"] < 200_000  # 501 ids of 64 characters: about 110 KB


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_learner_not_listed_opens_by_id_and_an_unknown_id_says_so(crowded_class, lang):
    at = _dashboard(lang)
    _type_into_drill_down(at, "first-one")
    assert not at.exception
    assert len(at.dataframe) == 4 and len(at.dataframe[2].value) == len(at.dataframe[3].value) == 1  # progress, tries
    _type_into_drill_down(at, "nobody_here")
    assert not at.exception and [w.value for w in at.warning] == [MISSING[lang]]
    assert len(at.dataframe) == 2


def test_a_class_within_the_cap_is_listed_whole_without_the_box(crowded_class, monkeypatch):
    monkeypatch.setattr(toolcall.dashboard, "MAX_LISTED_LEARNERS", 501)
    at = _dashboard("en")
    assert len(at.dataframe[1].value) == 501 and len(at.selectbox(key="dashboard_learner").options) == 501
    assert len(at.text_input) == 0 and not any("most recently active" in c.value for c in at.caption)


#: As Markdown (plain()): the page shows "first-\u043ene is not a learner id (1 to 64 characters: …"
NOT_AN_ID = {
    "en": "first\\-\\\\u043ene is not a learner id \\(1 to 64 characters\\: letters A–Z and a–z, digits, \\_ and \\-\\), so "
          "no learner of this class has it\\.",
    "zh": "first\\-\\\\u043ene 不是学习者编号（1 到 64 个字符，只能用字母 A–Z、a–z、数字、\\_ 和 \\-），本班没有学生用这个编号。"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_id_with_a_look_alike_letter_is_shown_escaped_with_the_rule(crowded_class, lang):
    """"first-оne" with a Cyrillic о (pasted from a chat) read "No learner with the id first-оne has any progress",
    the id of a learner the class has, as it looked (break-it pass brk13text)."""
    at = _dashboard(lang)
    _type_into_drill_down(at, "first-\u043ene")
    assert not at.exception and [w.value for w in at.warning] == [NOT_AN_ID[lang]]


def test_a_render_reads_the_rows_of_the_listed_learners_only(crowded_class, monkeypatch):
    """The page read every learner's rows to list 500 (100 000 learners × 5 exercises: 6.9 s and 594 MB per rerun,
    break-it pass brk13scale); it now reads the listed learners' rows and the database counts the class."""
    read = []
    recent = ProgressStore.class_recent_progress

    def whole(self, *args, **kwargs):
        raise AssertionError("the page read every learner's rows")

    monkeypatch.setattr(ProgressStore, "class_progress", whole)
    monkeypatch.setattr(ProgressStore, "class_recent_progress",
                        lambda self, *a, **k: read.extend(rows := recent(self, *a, **k)) or rows)
    at = _dashboard("en")
    assert len(read) == 500 and "first-one" not in {row[0] for row in read}
    assert [m.value for m in at.metric][0] == "501"


ON_SERVER = {"en": "This class has 501 learners: the page offers its files for up to 500 (the server holds a download "
                   "whole in its memory). Write them on the server instead, in the app's folder with its settings "
                   "(TOOLCALL_DATA_DIR or TOOLCALL_DATABASE_URL); the command reads a page of rows at a time, "
                   "whatever the class:",
             "zh": "这个班有 501 名学生，页面只为不超过 500 名学生的班级提供下载（下载的文件会整个放在服务器内存里）。"
                   "请改在服务器上生成：在应用所在的文件夹、用应用的设置（TOOLCALL_DATA_DIR 或 TOOLCALL_DATABASE_URL）"
                   "运行下面的命令；无论班级多大，它每次只读一页数据："}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_past_the_page_export_limit_the_page_names_the_command_instead_of_a_download(crowded_class, monkeypatch,
                                                                                     lang):
    """Streamlit holds a download's whole bytes in the server's memory (594 MB for 100 000 learners' JSON, issue 13):
    past MAX_PAGE_EXPORT_LEARNERS the page offers no download and shows the command that writes the files."""
    monkeypatch.setattr(toolcall.dashboard, "MAX_PAGE_EXPORT_LEARNERS", 500)
    at = _dashboard(lang)
    assert [i.value for i in at.info] == [ON_SERVER[lang]]
    assert (f"python -m toolcall export class-progress.json --lang {lang}\n"
            "python -m toolcall export class-progress.csv") in [c.value for c in at.main.code]
    assert not [e for e in at.get("download_button")]
    monkeypatch.setattr(toolcall.dashboard, "MAX_PAGE_EXPORT_LEARNERS", 501)
    at = _dashboard(lang)
    assert not at.info and len(at.get("download_button")) == 2
