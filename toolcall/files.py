"""Read a text file the app can afford: one regular file, at most ``limit`` characters.

Every file the core reads for a user (fixtures, lessons, exercises, the command line's
``--tool``, ``--schema`` and transcript files, stdin) goes through ``read_text_bounded`` or
``read_stream_bounded``. They refuse what is not a regular file (a FIFO would block forever,
``/dev/zero`` never ends, a directory is not a file) and a symlink loop, refuse from the size
alone a file that cannot fit (a 1 GB sparse file is not read), and otherwise read at most
``limit + 1`` characters: one more than allowed is enough to say "too large".
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO, TextIO

#: Default character limit for content files (a fixture or lesson is a few kB; 2 MB is generous).
MAX_FILE_CHARS = 2_000_000
#: UTF-8 uses at most 4 bytes per character: a file larger than 4 × limit bytes cannot fit.
_BYTES_PER_CHAR = 4


class ReadError(Exception):
    """A file that was not read, and why (``str(exc)`` is the sentence to show)."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _stat(path: Path | str, missing: str = "no such file") -> os.stat_result:
    """``os.stat(path)`` (symlinks followed), or ReadError: ``missing``, a symlink loop, or the OS's reason."""
    try:
        return os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ReadError("a symlink loop (the link points back to itself)") from None
        if exc.errno == errno.ENOENT:
            raise ReadError(missing) from None
        raise ReadError(exc.strerror or str(exc)) from None


def _open_regular(path: Path | str, max_bytes: int, limit_text: str) -> int:
    """A read-only descriptor of the regular file at ``path`` (symlinks followed), refused (ReadError,
    naming the problem) when missing, a symlink loop, not a regular file, or over ``max_bytes``
    (the message then says ``limit_text``, e.g. "2,000,000 characters")."""
    info = _stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise ReadError(f"{_kind(info.st_mode)}, not a regular file")
    if info.st_size > max_bytes:
        raise ReadError(f"too large: {info.st_size:,} bytes; the limit is {limit_text}")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise ReadError(exc.strerror or str(exc)) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced between stat and open
        kind = _kind(os.fstat(fd).st_mode)
        os.close(fd)
        raise ReadError(f"{kind}, not a regular file")
    return fd


def read_text_bounded(path: Path | str, limit: int = MAX_FILE_CHARS) -> str:
    """The UTF-8 text of the regular file at ``path`` (symlinks followed), at most ``limit``
    characters. Raises ReadError naming the problem: missing, a symlink loop, not a regular
    file (folder, FIFO, device, socket), larger than ``limit`` characters, not UTF-8, or the
    OS's reason. Never blocks on a FIFO (it is refused before it is opened, and opened
    non-blocking), never reads more than ``limit + 1`` characters."""
    fd = _open_regular(path, _BYTES_PER_CHAR * limit + _BYTES_PER_CHAR, f"{limit:,} characters")
    try:
        with os.fdopen(fd, encoding="utf-8") as fh:
            fd = -1
            text = read_stream_bounded(fh, limit)
    except UnicodeDecodeError as exc:
        raise ReadError(f"not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise ReadError(exc.strerror or str(exc)) from None
    finally:
        if fd >= 0:
            os.close(fd)
    return text


def read_bytes_bounded(source: Path | str | BinaryIO, limit: int) -> bytes:
    """At most ``limit`` bytes of the regular file at ``source`` (refused as read_text_bounded
    refuses), or of an open binary stream such as ``sys.stdin.buffer``. Raises ReadError "too
    large" when there are more; never reads more than ``limit + 1`` bytes."""
    if isinstance(source, (str, Path)):
        try:
            with os.fdopen(_open_regular(source, limit, f"{limit:,} bytes"), "rb") as fh:
                data = fh.read(limit + 1)
        except OSError as exc:
            raise ReadError(exc.strerror or str(exc)) from None
    else:
        data = source.read(limit + 1)
    if len(data) > limit:
        raise ReadError(f"too large: more than {limit:,} bytes")
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
        raise ReadError(f"too large: more than {limit:,} characters")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReadError(f"not UTF-8 text (byte {exc.start})") from None
    if len(text) > limit:
        raise ReadError(f"too large: more than {limit:,} characters")
    return text


def check_path(path: Path | str, kind: str, max_bytes: int | None = None) -> None:
    """Raise ReadError, naming the problem, unless ``path`` can be what a command expects:
    ``kind`` "folder" (an existing directory, symlinks followed) or "file" (a regular file of 1 to
    ``max_bytes`` bytes: not a folder, FIFO, device or socket, not empty). Looks at the file's
    metadata only (nothing is opened or read), so a command can refuse every bad path before it
    starts; its reader still refuses what changed in between."""
    info = _stat(path, "no such folder" if kind == "folder" else "no such file")
    if kind == "folder":
        if not stat.S_ISDIR(info.st_mode):
            raise ReadError(("a file" if stat.S_ISREG(info.st_mode) else _kind(info.st_mode)) + ", not a folder")
        return
    if not stat.S_ISREG(info.st_mode):
        raise ReadError(f"{_kind(info.st_mode)}, not a regular file")
    if max_bytes is not None and info.st_size > max_bytes:
        raise ReadError(f"too large: {info.st_size:,} bytes; the limit is {max_bytes:,} bytes")
    if info.st_size == 0:
        raise ReadError("an empty file")


def read_stream_bounded(stream: TextIO, limit: int) -> str:
    """At most ``limit`` characters from ``stream`` (stdin, an open file); raises ReadError
    "too large" when there are more. Reads ``limit + 1`` characters at most."""
    text = stream.read(limit + 1)
    if len(text) > limit:
        raise ReadError(f"too large: more than {limit:,} characters")
    return text
