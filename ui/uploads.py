"""What one session's uploads may hold in the server's memory, capped (issue 13: bytes one session makes the server
hold, summed over everything it does).

Streamlit keeps every file a browser PUTs to ``/_stcore/upload_file/<session>/<file id>`` in memory, whole, until the
session ends or the browser sends a DELETE for it; ``server.maxUploadSize`` caps each file, nothing caps their number.
The page's uploaders take one file each, but the upload address takes any file id: one session that sent 20 files
of 19 MB under new ids (a script, or the browser's console) took the server from 260 MB to 643 MB of RSS, held until
the session ended, and every further file added its size (break-it pass brk15scale). :func:`cap_session_uploads`
makes the server's upload manager keep, per session, the newest :data:`MAX_FILES` files within :data:`max_bytes`
(the file just sent is always kept; the server refused it if it passed maxUploadSize), dropping the oldest first, and
every session together within :func:`max_server_bytes` (one client can open many sessions: tabs, or bare websockets;
30 sessions of two 19 MB files each held 1.1 GB). An uploader whose file was dropped shows an empty box, and the
page shows what it kept of that file (the eval lab's analysis, the dashboard's names), as after a visit to another
page.
"""

from __future__ import annotations

import contextlib
import itertools
from typing import Any

#: Files one session keeps: the app has two single-file uploaders (the eval lab's log, the dashboard's name map),
#: and a replaced file's DELETE may arrive after its replacement.
MAX_FILES = 4
#: Bytes one session's files may hold together, in server.maxUploadSize units: the largest log and one more.
MAX_UPLOADS_OF_LARGEST = 2
#: Bytes every session's files may hold together, in server.maxUploadSize units (480 MiB at 20 MB). Each session's
#: cap alone let one client hold 40 MiB per session it opened (a tab, or a bare websocket): 12 of them hold this.
#: Past it the oldest files of any session go first: a page already read its file when it was sent (the eval lab
#: keeps the analysis, the dashboard the names), so a file dropped later costs an empty upload box.
MAX_SERVER_UPLOADS_OF_LARGEST = 24


def max_bytes() -> int:
    """Bytes one session's uploads may hold together: MAX_UPLOADS_OF_LARGEST × server.maxUploadSize (MiB, as
    Streamlit reads it; 20 in .streamlit/config.toml, so 40 MiB)."""
    from streamlit import config

    return MAX_UPLOADS_OF_LARGEST * int(config.get_option("server.maxUploadSize")) * 1024 * 1024


def max_server_bytes() -> int:
    """Bytes all sessions' uploads may hold together: MAX_SERVER_UPLOADS_OF_LARGEST × server.maxUploadSize."""
    return max_bytes() // MAX_UPLOADS_OF_LARGEST * MAX_SERVER_UPLOADS_OF_LARGEST


def dropped(files: list[tuple[Any, int]], newest: Any, limit_files: int, limit_bytes: int) -> list[Any]:
    """The ids to drop from ``files`` (``(id, bytes)``, oldest first: one session's, or every session's) so that at
    most ``limit_files`` files of at most ``limit_bytes`` bytes together remain: the oldest first, never ``newest``."""
    count, size = len(files), sum(n for _, n in files)
    out = []
    for file_id, n in files:
        if count <= limit_files and size <= limit_bytes:
            break
        if file_id == newest:
            continue
        out.append(file_id)
        count, size = count - 1, size - n
    return out


def cap_session_uploads(manager: Any = None, limit_files: int = MAX_FILES, limit_bytes: int | None = None,
                        limit_server_bytes: int | None = None) -> bool:
    """Make ``manager`` (default: the running server's upload manager) keep at most ``limit_files`` files of at
    most ``limit_bytes`` bytes (default: :func:`max_bytes`, read at each upload) per session, the newest, and at most
    ``limit_server_bytes`` (default: :func:`max_server_bytes`) for every session together, the newest. Once per
    manager; returns True when the manager is capped (now or before), False without a running server or with a
    manager that is not Streamlit's in-memory one (nothing is changed then)."""
    if manager is None:
        from streamlit import runtime

        if not runtime.exists():
            return False
        manager = runtime.get_instance().uploaded_file_mgr
    if getattr(manager, "_toolcall_capped", False):
        return True
    if not hasattr(manager, "file_storage") or not hasattr(manager, "remove_file"):
        return False
    add = manager.add_file
    lock = getattr(manager, "_lock", None) or contextlib.nullcontext()
    counter, added = itertools.count(), {}  # (session, file id) -> when it was sent, for the server-wide cap

    def add_file(session_id: str, file: Any) -> None:
        add(session_id, file)
        with lock:
            added[(session_id, file.file_id)] = next(counter)
            held = [(added.get((s, i), -1), s, i, len(f.data)) for s, files in manager.file_storage.items()
                    for i, f in files.items()]
            for key in set(added) - {(s, i) for _, s, i, _ in held}:  # removed since (DELETE, session ended)
                del added[key]
        held.sort()
        mine = [(i, n) for _, s, i, n in held if s == session_id]
        cap = max_bytes() if limit_bytes is None else limit_bytes
        gone = {(session_id, i) for i in dropped(mine, file.file_id, limit_files, cap)}
        everyone = [((s, i), n) for _, s, i, n in held if (s, i) not in gone]
        server_cap = max_server_bytes() if limit_server_bytes is None else limit_server_bytes
        gone |= set(dropped(everyone, (session_id, file.file_id), len(everyone), server_cap))
        for s, i in gone:
            manager.remove_file(s, i)

    manager.add_file = add_file
    manager._toolcall_capped = True
    return True
