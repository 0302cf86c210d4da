"""Read a text file the app can afford: one regular file, at most ``limit`` characters.

Every file the core reads for a user (fixtures, lessons, exercises, the command line's
``--tool``, ``--schema`` and transcript files, stdin) goes through ``read_text_bounded`` or
``read_stream_bounded``. They refuse what is not a regular file (a FIFO would block forever,
``/dev/zero`` never ends, a directory is not a file) and a symlink loop, refuse from the size
alone a file that cannot fit (a 1 GB sparse file is not read), and otherwise read at most
``limit + 1`` characters: one more than allowed is enough to say "too large".
"""

from __future__ import annotations

import contextvars
import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TextIO

#: Default character limit for content files (a fixture or lesson is a few kB; 2 MB is generous).
MAX_FILE_CHARS = 2_000_000
#: UTF-8 uses at most 4 bytes per character: a file larger than 4 × limit bytes cannot fit.
_BYTES_PER_CHAR = 4


#: Why a file was not read: each code's English sentence (``files.<code>`` in
#: toolcall/locales/<lang>/files.yaml holds it in every language, with the same parameters).
READ_ERRORS: dict[str, str] = {
    "no_such_file": "no such file",
    "no_such_folder": "no such folder",
    "symlink_loop": "a symlink loop (the link points back to itself)",
    "dangling_link": "a link to {target}, which does not exist",
    "unexpanded": "{part} was not expanded (no shell read it), so this path does not exist as written; did you mean "
                  "{meant}?",
    "permission_denied": "permission denied (the file's permissions do not let this program read it)",
    "not_a_folder_in_path": "a part of the path is a file, not a folder",
    "cannot_list": "permission denied (the folder's permissions do not let this program list the files in it)",
    "name_too_long": "the name is too long for the file system",
    "io_error": "an input/output error (the disk or the device failed)",
    "os_error": "{reason}",
    "not_regular": "{kind}, not a regular file",
    "not_folder": "{kind}, not a folder",
    "too_large_file": "too large: {size:,} bytes; the limit is {limit:,} {unit}",
    "more_than_bytes": "too large: more than {limit:,} bytes",
    "more_than_chars": "too large: more than {limit:,} characters",
    "not_utf8": "not UTF-8 text (byte {byte})",
    "utf16": "UTF-16 text (it starts with a UTF-16 byte-order mark); save it as UTF-8",
    "nul": "a NUL byte at character {at}: UTF-16 text without a byte-order mark, or not a text file; save it as "
           "UTF-8 text",
    "empty_file": "an empty file",
    "empty": "empty",
    "only_space": "empty (only white space)",
}
#: What a path is when it is not what was wanted (``files.kind.<key>``), in English.
KINDS = {"file": "a file", "folder": "a folder", "fifo": "a FIFO (named pipe)", "char_device": "a character device",
         "block_device": "a block device", "socket": "a socket", "other": "not a regular file"}


class ReadError(Exception):
    """A file that was not read, and why: ``code`` (a READ_ERRORS key) and ``params``; ``str(exc)``
    is the English sentence, ``text(lang)`` the sentence in ``lang``. ``kind`` and ``unit``
    parameters are keys (KINDS; ``characters``/``bytes``), translated in ``text``."""

    def __init__(self, code: str, **params):
        if code not in READ_ERRORS:
            raise ValueError(f"unknown read error code {code!r}")
        self.code, self.params = code, params
        english = {**params, **({"kind": KINDS[params["kind"]]} if "kind" in params else {})}
        super().__init__(READ_ERRORS[code].format(**english))

    def text(self, lang: str = "en") -> str:
        """The sentence in ``lang`` (``files.<code>``; the OS's own reason is passed through)."""
        if lang == "en":
            return str(self)
        from toolcall.i18n import t  # here, not at the top: the catalogue is read through this module

        params = dict(self.params)
        if "kind" in params:
            params["kind"] = t(f"files.kind.{params['kind']}", lang)
        if "unit" in params:
            params["unit"] = t(f"files.unit.{params['unit']}", lang)
        return t(f"files.{self.code}", lang, **params)


#: The byte-order marks of UTF-16 (little- and big-endian; UTF-32's start the same way), which Windows editors
#: write when "Unicode" is chosen: such a file fails as UTF-8 at byte 0.
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def not_utf8(exc: UnicodeDecodeError) -> ReadError:
    """The ReadError for bytes that are not UTF-8: ``utf16`` when they start with a UTF-16 byte-order mark (the
    usual cause, and "byte 0" alone does not say it), else ``not_utf8`` with the offset of the first bad byte."""
    if exc.start == 0 and bytes(exc.object[:2]) in _UTF16_BOMS:
        return ReadError("utf16")
    return ReadError("not_utf8", byte=exc.start)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISCHR(mode):
        return "char_device"
    if stat.S_ISBLK(mode):
        return "block_device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "other"


#: OS errors with a sentence of their own in every language; any other is passed through as ``os_error``.
_OS_ERRORS = {errno.EACCES: "permission_denied", errno.EPERM: "permission_denied",
              errno.ENOTDIR: "not_a_folder_in_path", errno.ENAMETOOLONG: "name_too_long", errno.EIO: "io_error"}


def os_failure(exc: OSError) -> ReadError:
    """The ReadError for an OS error: its own code when the language files word it (permission, a file
    used as a folder, a name too long, an I/O error), else ``os_error`` with the OS's reason."""
    code = _OS_ERRORS.get(exc.errno)
    return ReadError(code) if code else ReadError("os_error", reason=exc.strerror or str(exc))


def _stat(path: Path | str, missing: str = "no_such_file") -> os.stat_result:
    """``os.stat(path)`` (symlinks followed), or ReadError: ``missing``, a symlink loop, or the OS's reason."""
    try:
        return os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ReadError("symlink_loop") from None
        if exc.errno == errno.ENOENT:
            if os.path.islink(path):  # listed in its folder, so "no such file" named the wrong problem
                raise ReadError("dangling_link", target=_link_target(path)) from None
            if (unexpanded := _unexpanded(str(path))) is not None:
                raise unexpanded from None
            raise ReadError(missing) from None
        raise os_failure(exc) from None


def _unexpanded(path: str) -> ReadError | None:
    """``unexpanded`` for a ``path`` that starts with ``~`` or holds ``$NAME`` that no shell expanded (quoted, or
    after ``=`` in ``--selection=~/set.yaml``, which most shells leave as written), naming what it would be;
    None when expanding changes nothing. Such a path read "no such file", beside a file the user could list
    (break-it pass brk13text)."""
    from toolcall import SHELL_VARIABLE
    from toolcall.text import escape_line, escaped_head

    meant = os.path.expandvars(os.path.expanduser(path))
    if meant == path:
        return None
    part = "~" if path.startswith("~") and os.path.expanduser(path) != path else SHELL_VARIABLE.search(path)
    part = part if isinstance(part, str) else part.group() if part is not None else path
    return ReadError("unexpanded", part=escaped_head(part, MAX_TARGET_CHARS, escape_line),
                     meant=escaped_head(meant, MAX_TARGET_CHARS, escape_line))


#: The most characters of a link's target a message quotes.
MAX_TARGET_CHARS = 200


def _link_target(path: Path | str) -> str:
    """Where the link at ``path`` points, on one line (escape_line) and at most MAX_TARGET_CHARS characters as
    drawn, escapes included (escaped_head)."""
    from toolcall.text import escape_line, escaped_head

    try:
        target = os.readlink(path)
    except OSError:
        return "?"
    return escaped_head(target, MAX_TARGET_CHARS, escape_line)


@dataclass
class ReadBudget:
    """What one run may read in all (read_budget): ``files`` files looked at or opened, ``bytes`` bytes of them
    (by their size before they are read); ``used_files`` and ``used_bytes`` so far."""

    files: int
    bytes: int
    used_files: int = 0
    used_bytes: int = 0


class BudgetSpent(Exception):
    """A run's ReadBudget would be passed by ``path`` (its ``size`` bytes, or one more file): nothing more is read.
    Not a ReadError: it ends the run, where a ReadError is one file's problem."""

    def __init__(self, path: Path | str, size: int, budget: ReadBudget):
        super().__init__(f"{path}: past the read budget")
        self.path, self.size, self.budget = path, size, budget


_BUDGET: contextvars.ContextVar[ReadBudget | None] = contextvars.ContextVar("read_budget", default=None)


@contextmanager
def read_budget(files: int, size: int) -> Iterator[ReadBudget]:
    """Within the block, the files this module opens (and those charge() is told of) count against one budget of
    ``files`` files and ``size`` bytes; the one that would pass it raises BudgetSpent before it is read. Each file
    is bounded on its own (MAX_FILE_CHARS …), but a tree of many files each under its cap was read whole: ``check``
    on 60 tool files of 1.9 MB read all 114 MB, 9.5 s of CPU and 154 MB of RSS, growing with every file added
    (issue 13, memory kind; check now refuses such a tree from its sizes, and holds its own reads to a budget)."""
    budget = ReadBudget(files, size)
    token = _BUDGET.set(budget)
    try:
        yield budget
    finally:
        _BUDGET.reset(token)


def charge(path: Path | str, size: int = 0) -> None:
    """Count one file of ``size`` bytes against the current read_budget (none: nothing); BudgetSpent when it would
    pass it, and then nothing is counted."""
    budget = _BUDGET.get()
    if budget is None:
        return
    if budget.used_files + 1 > budget.files or budget.used_bytes + size > budget.bytes:
        raise BudgetSpent(path, size, budget)
    budget.used_files += 1
    budget.used_bytes += size


def _open_regular(path: Path | str, max_bytes: int, limit: int, unit: str) -> int:
    """A read-only descriptor of the regular file at ``path`` (symlinks followed), refused (ReadError,
    naming the problem) when missing, a symlink loop, not a regular file, or over ``max_bytes``
    (the message then gives ``limit`` ``unit``: "characters" or "bytes")."""
    info = _stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise ReadError("not_regular", kind=_kind(info.st_mode))
    if info.st_size > max_bytes:
        raise ReadError("too_large_file", size=info.st_size, limit=limit, unit=unit)
    charge(path, info.st_size)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise os_failure(exc) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced between stat and open
        kind = _kind(os.fstat(fd).st_mode)
        os.close(fd)
        raise ReadError("not_regular", kind=kind)
    return fd


def no_nul(text: str) -> str:
    """``text``, or ReadError ``nul`` when it holds a NUL character, which no JSON, YAML or Markdown text does:
    UTF-16 without a byte-order mark is valid UTF-8 (an ASCII byte, then 0), and was read on as "not JSON: line 1
    column 2: Expecting property name" or shown as ``{\\u0000``, naming neither the encoding nor the fix."""
    at = text.find("\x00")
    if at >= 0:
        raise ReadError("nul", at=at)
    return text


def read_text_bounded(path: Path | str, limit: int = MAX_FILE_CHARS) -> str:
    """The UTF-8 text of the regular file at ``path`` (symlinks followed), at most ``limit``
    characters. Raises ReadError naming the problem: missing, a symlink loop, not a regular
    file (folder, FIFO, device, socket), larger than ``limit`` characters, not UTF-8, holding a NUL
    (no_nul), or the OS's reason. Never blocks on a FIFO (it is refused before it is opened, and opened
    non-blocking), never reads more than ``limit + 1`` characters."""
    fd = _open_regular(path, _BYTES_PER_CHAR * limit + _BYTES_PER_CHAR, limit, "characters")
    try:
        with os.fdopen(fd, encoding="utf-8") as fh:
            fd = -1
            text = read_stream_bounded(fh, limit)
    except UnicodeDecodeError as exc:
        raise not_utf8(exc) from None
    except OSError as exc:
        raise os_failure(exc) from None
    finally:
        if fd >= 0:
            os.close(fd)
    return no_nul(text)


def read_bytes_bounded(source: Path | str | BinaryIO, limit: int) -> bytes:
    """At most ``limit`` bytes of the regular file at ``source`` (refused as read_text_bounded
    refuses), or of an open binary stream such as ``sys.stdin.buffer``. Raises ReadError "too
    large" when there are more; never reads more than ``limit + 1`` bytes."""
    if isinstance(source, (str, Path)):
        try:
            with os.fdopen(_open_regular(source, limit, limit, "bytes"), "rb") as fh:
                data = fh.read(limit + 1)
        except OSError as exc:
            raise os_failure(exc) from None
    else:
        data = source.read(limit + 1)
    if len(data) > limit:
        raise ReadError("more_than_bytes", limit=limit)
    return data


def read_stdin_bounded(stdin: TextIO, limit: int) -> str:
    """At most ``limit`` characters of standard input, decoded as UTF-8 whatever the locale (a
    POSIX locale would turn bad bytes into lone surrogates, a UTF-8 one into a traceback). Reads
    at most 4 × limit + 4 bytes from ``stdin.buffer`` (a text stream without one, such as a test's
    StringIO, is read as read_stream_bounded reads it). Raises ReadError "too large" or "not UTF-8
    text (byte N)"."""
    buffer = getattr(stdin, "buffer", None)
    if buffer is None:
        return read_stream_bounded(stdin, limit)
    cap = _BYTES_PER_CHAR * limit + _BYTES_PER_CHAR  # this many bytes hold more than limit characters
    data = buffer.read(cap)
    if len(data) >= cap:
        raise ReadError("more_than_chars", limit=limit)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(exc) from None
    if len(text) > limit:
        raise ReadError("more_than_chars", limit=limit)
    return no_nul(text)


def check_path(path: Path | str, kind: str, max_bytes: int | None = None) -> None:
    """Raise ReadError, naming the problem, unless ``path`` can be what a command expects:
    ``kind`` "folder" (an existing directory, symlinks followed, that this program may list: check_listable)
    or "file" (a regular file of 1 to ``max_bytes`` bytes: not a folder, FIFO, device or socket, not empty).
    Looks at the file's metadata only (a file of size 0 is read for one byte: a kernel's file says 0 and has
    text), so a command can refuse every bad path before it starts; its reader still refuses what changed in between."""
    info = _stat(path, "no_such_folder" if kind == "folder" else "no_such_file")
    if kind == "folder":
        if not stat.S_ISDIR(info.st_mode):
            raise ReadError("not_folder", kind="file" if stat.S_ISREG(info.st_mode) else _kind(info.st_mode))
        check_listable(path)
        return
    if not stat.S_ISREG(info.st_mode):
        raise ReadError("not_regular", kind=_kind(info.st_mode))
    if max_bytes is not None and info.st_size > max_bytes:
        raise ReadError("too_large_file", size=info.st_size, limit=max_bytes, unit="bytes")
    if info.st_size == 0 and not _reads_something(path):  # /proc/cpuinfo: size 0, and text to read
        raise ReadError("empty_file")


def check_listable(path: Path | str) -> None:
    """Raise ReadError unless the folder at ``path`` can be listed: ``cannot_list`` when its permissions let this
    program open files in it but not list them (mode ``711``, or ``300``), else the OS's reason. Such a folder
    made ``check`` end in a PermissionError traceback, and every glob over it found nothing without a word
    (``grade --exercises`` said "no exercise files", break-it pass brk16cli). Opens the folder only (no entry is
    read); O_DIRECTORY needs read permission, which is what listing needs."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise ReadError("cannot_list") from None
        raise os_failure(exc) from None
    os.close(fd)


def _reads_something(path: Path | str) -> bool:
    """Whether one byte can be read from the regular file at ``path`` that says its size is 0: a kernel's file
    (/proc, /sys) always says 0 and was called "an empty file". Raises ReadError for the OS's refusal."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise os_failure(exc) from None
    try:
        return os.read(fd, 1) != b""
    except OSError as exc:
        raise os_failure(exc) from None
    finally:
        os.close(fd)


def read_stream_bounded(stream: TextIO, limit: int) -> str:
    """At most ``limit`` characters from ``stream`` (stdin, an open file); raises ReadError
    "too large" when there are more. Reads ``limit + 1`` characters at most."""
    text = stream.read(limit + 1)
    if len(text) > limit:
        raise ReadError("more_than_chars", limit=limit)
    return no_nul(text)
