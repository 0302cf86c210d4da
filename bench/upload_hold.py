"""What Streamlit's upload manager holds when clients send files under new ids, without and with ui/uploads.py's
caps, in one run (break-it pass brk15scale; bench/README.md, section U). Each "session" sends FILES files of
MB MiB, as a page's console or a script can (the upload address takes any file id); the figures are the bytes the
manager holds (Streamlit's own count, what /_stcore/metrics reports), not RSS.

    python bench/upload_hold.py [--sessions 1 5 30] [--files 20] [--mb 19]
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager  # noqa: E402
from streamlit.runtime.uploaded_file_manager import UploadedFileRec  # noqa: E402

from ui.uploads import cap_session_uploads  # noqa: E402


def held(sessions: int, files: int, size: int, capped: bool) -> int:
    manager = MemoryUploadedFileManager("/_stcore/upload_file")
    if capped:
        cap_session_uploads(manager)
    data = bytes(size)  # one buffer shared by every record: the manager counts len(data), nothing is copied
    for s in range(sessions):
        for i in range(files):
            manager.add_file(f"s{s}", UploadedFileRec(f"f{i}", "log.jsonl", "text/plain", data))
    return manager._total_bytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[1, 5, 30])
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--mb", type=int, default=19)
    args = parser.parse_args()
    size = args.mb * 1024 * 1024
    print(f"{'sessions':>8} {'files each':>10} {'uncapped MiB':>13} {'capped MiB':>11} {'ratio':>7}")
    for n in args.sessions:
        before, after = held(n, args.files, size, False), held(n, args.files, size, True)
        print(f"{n:>8} {args.files:>10} {before / 2**20:>13,.0f} {after / 2**20:>11,.0f} {before / after:>6.1f}x")


if __name__ == "__main__":
    main()
