"""What one session's uploads hold in the server's memory is capped (issue 13; break-it pass brk15scale). Streamlit
kept every file a browser PUT to the upload address, under any file id, until the session ended: 20 files of 19 MB
sent by one session took the server from 260 MB to 643 MB of RSS. ui.uploads keeps each session's newest MAX_FILES
files within max_bytes(), the file just sent always kept; tests/e2e/test_session_uploads_browser.py sends the files
through a real server."""

from streamlit import config
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.uploaded_file_manager import UploadedFileRec

from ui.uploads import MAX_FILES, cap_session_uploads, dropped, max_bytes, max_server_bytes


def _file(file_id: str, size: int) -> UploadedFileRec:
    return UploadedFileRec(file_id=file_id, name=f"{file_id}.jsonl", type="application/octet-stream",
                           data=b"x" * size)


def _kept(manager, session: str) -> list[tuple[str, int]]:
    return [(i, len(f.data)) for i, f in manager.file_storage.get(session, {}).items()]


def test_many_files_under_new_ids_keep_the_newest_within_the_count():
    manager = MemoryUploadedFileManager("/_stcore/upload_file")
    assert cap_session_uploads(manager, limit_files=4, limit_bytes=10_000) is True
    for i in range(20):
        manager.add_file("s1", _file(f"f{i}", 1_000))
    assert _kept(manager, "s1") == [("f16", 1_000), ("f17", 1_000), ("f18", 1_000), ("f19", 1_000)]
    assert (manager._file_count, manager._total_bytes) == (4, 4_000)  # Streamlit's own counts (its metrics) agree


def test_large_files_keep_the_newest_within_the_bytes_and_never_drop_the_one_just_sent():
    manager = MemoryUploadedFileManager("/_stcore/upload_file")
    cap_session_uploads(manager, limit_files=4, limit_bytes=2_500)
    for i, size in enumerate([1_000, 1_000, 1_000, 2_000, 3_000]):
        manager.add_file("s1", _file(f"f{i}", size))
    assert _kept(manager, "s1") == [("f4", 3_000)]  # over the bytes alone, but the file just sent stays
    manager.add_file("s1", _file("f5", 500))
    assert _kept(manager, "s1") == [("f5", 500)]
    manager.add_file("s1", _file("f5", 2_000))  # the same id again (a re-sent file) replaces, not adds
    assert _kept(manager, "s1") == [("f5", 2_000)]
    assert (manager._file_count, manager._total_bytes) == (1, 2_000)


def test_each_session_has_its_own_cap():
    manager = MemoryUploadedFileManager("/_stcore/upload_file")
    cap_session_uploads(manager, limit_files=2, limit_bytes=10_000)
    for i in range(5):
        manager.add_file("s1", _file(f"a{i}", 100))
        manager.add_file("s2", _file(f"b{i}", 200))
    assert _kept(manager, "s1") == [("a3", 100), ("a4", 100)]
    assert _kept(manager, "s2") == [("b3", 200), ("b4", 200)]
    assert manager._total_bytes == 600


def test_capping_twice_is_once_and_a_manager_of_another_kind_is_left_alone():
    manager = MemoryUploadedFileManager("/_stcore/upload_file")
    assert cap_session_uploads(manager, limit_files=1, limit_bytes=10) is True
    add = manager.add_file
    assert cap_session_uploads(manager) is True and manager.add_file is add

    class Other:
        def add_file(self, session_id, file):
            pass

    other = Other()
    assert cap_session_uploads(other) is False and not hasattr(other, "_toolcall_capped")


def test_without_a_running_server_nothing_is_capped():
    assert cap_session_uploads() is False


def test_the_default_cap_is_two_of_the_largest_upload_and_four_files():
    assert MAX_FILES == 4
    assert config.get_option("server.maxUploadSize") == 20  # .streamlit/config.toml
    big = 20 * 1024 * 1024
    assert max_bytes() == 2 * big
    manager = MemoryUploadedFileManager("/_stcore/upload_file")
    cap_session_uploads(manager)
    for i in range(3):
        manager.add_file("s1", UploadedFileRec(f"f{i}", "log.jsonl", "text/plain", bytes(big)))
    assert [i for i, _ in _kept(manager, "s1")] == ["f1", "f2"]
    assert manager._total_bytes == 2 * big


def test_dropped_is_oldest_first():
    files = [("a", 5), ("b", 5), ("c", 5), ("d", 5)]
    assert dropped(files, "d", 4, 20) == []
    assert dropped(files, "d", 2, 20) == ["a", "b"]
    assert dropped(files, "d", 4, 9) == ["a", "b", "c"]
    assert dropped(files, "a", 1, 100) == ["b", "c", "d"]  # the one just sent is kept wherever it sits


def test_every_session_together_keeps_the_newest_within_the_server_cap():
    """One client can open many sessions (tabs, bare websockets), each within its own cap: 30 sessions of two 19 MB
    files held 1.1 GB. Past the server-wide cap the oldest files of any session go, never the one just sent."""
    manager = MemoryUploadedFileManager("/_stcore/upload_file")
    cap_session_uploads(manager, limit_files=4, limit_bytes=2_000, limit_server_bytes=5_000)
    for s in range(4):
        for i in range(2):
            manager.add_file(f"s{s}", _file(f"f{i}", 1_000))
    assert {s: _kept(manager, s) for s in manager.file_storage if manager.file_storage[s]} == {
        "s1": [("f1", 1_000)], "s2": [("f0", 1_000), ("f1", 1_000)], "s3": [("f0", 1_000), ("f1", 1_000)]}
    assert (manager._file_count, manager._total_bytes) == (5, 5_000)
    manager.add_file("s0", _file("big", 5_000))  # alone at the cap: every other file goes, this one stays
    assert [(s, i) for s, files in manager.file_storage.items() for i in files] == [("s0", "big")]
    manager.remove_file("s0", "big")  # a DELETE the page sent: forgotten by the cap's own bookkeeping too
    manager.add_file("s5", _file("g", 100))
    assert manager._total_bytes == 100


def test_the_default_server_cap_is_twenty_four_of_the_largest_upload():
    assert max_server_bytes() == 24 * 20 * 1024 * 1024
    manager = MemoryUploadedFileManager("/_stcore/upload_file")
    cap_session_uploads(manager)
    big = 19 * 1024 * 1024
    for s in range(30):
        for i in range(2):
            manager.add_file(f"s{s}", UploadedFileRec(f"f{i}", "log.jsonl", "text/plain", bytes(big)))
    assert manager._total_bytes == 25 * big <= max_server_bytes()  # was 60 × 19 MiB (1.1 GiB)
    assert [i for i in manager.file_storage["s29"]] == ["f0", "f1"]
