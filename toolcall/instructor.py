"""Who may open the class dashboard: the decisions, without streamlit (pages/instructor.py
reads the settings and draws the sign-in).

Two ways in, in this order:
1. OpenID Connect through Streamlit's st.login, when secrets hold an ``[auth]`` section
   (https://docs.streamlit.io/develop/api-reference/user/st.login); the signed-in e-mail
   must be in TOOLCALL_INSTRUCTOR_EMAILS (a provider lets anyone with an account sign in).
2. An instructor passphrase (TOOLCALL_INSTRUCTOR_PASSPHRASE, from secrets or the
   environment), compared in constant time (hmac.compare_digest); tries are answered one
   slot at a time for the whole process (for every process of a class served by deploy/serve_class.py:
   SharedLoginThrottle), and each wrong one widens the slots (LoginThrottle).
Without either the dashboard explains how to configure it and shows nothing.
"""

from __future__ import annotations

import fcntl
import hmac
import json
import math
import os
import re
import stat
import threading
import time
import unicodedata
from contextlib import contextmanager

from toolcall.text import INVISIBLE, drop_hidden

#: The shortest passphrase accepted as configured.
MIN_PASSPHRASE_CHARS = 12


#: The longest passphrase the sign-in box takes (its max_chars): a longer one could never be typed.
MAX_PASSPHRASE_CHARS = 200


def passphrase_problem(passphrase: str) -> str | None:
    """Why a configured passphrase cannot be used, as a code (the sentence is ``dashboard.passphrase_unusable.<code>``):
    ``short`` (under MIN_PASSPHRASE_CHARS characters), ``blank`` (white space only), ``control`` (a line break,
    tab or other control character: a password box cannot take one, so a passphrase written as a multi-line TOML
    string locked the instructor out), ``invisible`` (a character a page draws as nothing: a zero-width space, a
    byte-order mark, a soft hyphen or a direction mark, which a passphrase copied from a document or a chat
    brings along, and which the instructor reading it would never type: toolcall.text.INVISIBLE), ``quoted`` (in
    quotes an env file or a systemd Environment= line keeps: the instructor typed the words, never the quotes, and
    read "wrong passphrase"), ``long`` (over MAX_PASSPHRASE_CHARS, the box's limit). None when usable."""
    if len(passphrase) < MIN_PASSPHRASE_CHARS:
        return "short"
    if not passphrase.strip():
        return "blank"
    if any(ord(c) < 32 or 127 <= ord(c) < 160 or c in "\u2028\u2029" for c in passphrase):
        return "control"
    if any(c in INVISIBLE for c in passphrase):
        return "invisible"
    if passphrase[0] == passphrase[-1] and passphrase[0] in "\"'" and passphrase[1:-1].strip():
        return "quoted"
    return "long" if len(passphrase) > MAX_PASSPHRASE_CHARS else None


def auth_mode(oidc_configured: bool, instructor_emails: frozenset[str], passphrase: str) -> str:
    """``"oidc"`` (an [auth] section and a non-empty e-mail list), else ``"passphrase"`` (one
    with no :func:`passphrase_problem`), else ``"none"``."""
    if oidc_configured and instructor_emails:
        return "oidc"
    if passphrase_problem(passphrase or "") is None:
        return "passphrase"
    return "none"


def parse_emails(value: object) -> frozenset[str]:
    """Instructor e-mails from a list (secrets) or a string (environment), case-folded, invisible characters
    dropped (:func:`email_key`); anything else gives an empty set. Every address written in them counts, however
    they are separated (commas, semicolons, white space) and with or without a display name: a list copied from a
    mail program ("Ada Lovelace <ada@uni.edu>; bob@uni.edu") made one entry that matched no one, and a signed-in
    instructor read "your account is not on this class's instructor list" (break-it pass brk13text)."""
    items = [value] if isinstance(value, str) else value if isinstance(value, (list, tuple)) else []
    return frozenset(email_key(found) for e in items for found in _ADDRESS.findall(drop_hidden(str(e))))


#: An e-mail address inside a list as people write one: no white space, separators, angle brackets or quotes in it.
_ADDRESS = re.compile(r"[^\s,;<>\"'()\[\]]+@[^\s,;<>\"'()\[\]]+")


def email_key(email: object) -> str:
    """An e-mail address as compared: white space around it stripped, case folded, and every character a page draws
    as nothing dropped (a byte-order mark at the start of a settings file, a zero-width space pasted along from a
    document: no address holds one, and with it the instructor's own address never matched), and the quotes an env
    file keeps around the list (``"ada@uni.edu,bob@uni.edu"`` made ``"ada@uni.edu`` and ``bob@uni.edu"``)."""
    return drop_hidden(str(email)).strip().strip("\"'").strip().casefold()


def passphrase_matches(given: str, expected: str) -> bool:
    """Whether ``given`` equals ``expected``, in time independent of where they differ
    (hmac.compare_digest on UTF-8 bytes), both prepared as RFC 8265's OpaqueString profile prepares passwords: every
    non-ASCII space (a no-break space from a document, the ideographic space a Chinese input method types) as an
    ASCII space, then Unicode NFC, so "café" typed on one keyboard (é, one character) matches "café" written in the
    settings file by another (e + combining acute). An empty ``expected`` matches nothing."""
    if not expected:
        return False
    return hmac.compare_digest(_prepared(str(given)), _prepared(expected))


def _prepared(passphrase: str) -> bytes:
    """RFC 8265 OpaqueString preparation (non-ASCII spaces as U+0020, then NFC), as UTF-8."""
    spaced = "".join(" " if c != " " and unicodedata.category(c) == "Zs" else c for c in passphrase)
    return unicodedata.normalize("NFC", spaced).encode("utf-8")


def email_allowed(email: object, instructor_emails: frozenset[str]) -> bool:
    """Whether a signed-in user's e-mail is an instructor's."""
    return isinstance(email, str) and email_key(email) in instructor_emails


class LoginThrottle:
    """Passphrase tries, process-wide: every try is checked and answered in a time slot of
    its own, so the number of sessions does not multiply the guessing rate.

    Slots are handed out in arrival order; the slot after one taken with ``n`` wrong tries
    counted (consecutive wrong tries so far plus the tries still waiting, each presumed
    wrong) starts ``min(base · 2^n, cap)`` seconds later: 1, 2, 4, 8… s up to 30 s by
    default. A try whose slot would start more than ``max_queue`` seconds from now is
    refused without being checked. A right and a wrong passphrase are answered at the same
    point of their slot (right after it starts), so the time of an answer tells nothing.
    Across any number of sessions at most one try per slot is checked: under a sustained
    attack one per ``cap`` seconds (120 an hour by default). A right try resets the count;
    wrong tries slow the instructor's own next try too, by at most ``max_queue`` seconds
    (then "busy", nothing checked).

    ``sleep`` and ``clock`` (seconds, monotonic) are injectable for tests."""

    def __init__(self, base: float = 1.0, cap: float = 30.0, max_queue: float = 60.0,
                 sleep=time.sleep, clock=time.monotonic):
        self.base, self.cap, self.max_queue = base, cap, max_queue
        self._sleep, self._clock = sleep, clock
        self.failures = 0
        self._waiting = 0
        self._next_slot = float("-inf")
        self._lock = threading.Lock()

    def delay(self, wrong: int | None = None) -> float:
        """Seconds between a slot taken with ``wrong`` wrong tries counted (default: the
        consecutive failures so far) and the next slot."""
        n = self.failures if wrong is None else wrong
        return min(self.base * 2 ** min(n, 64), self.cap)

    def attempt(self, given: str, expected: str) -> tuple[str, float]:
        """Check ``given`` against ``expected`` in this try's slot.

        Returns ``("ok", waited)``, ``("wrong", waited)`` or ``("busy", seconds)``: for
        "busy" nothing was checked and ``seconds`` is how long until a slot is free
        again (rounded up to a whole second). Waits (blocking the caller) until the slot."""
        with self._state():
            now = self._clock()
            start = max(now, self._next_slot)
            wait = start - now
            if wait > self.max_queue:
                return "busy", float(math.ceil(wait - self.max_queue))
            self._next_slot = start + self.delay(self.failures + self._waiting)
            self._enter(start)
        ok = None
        try:
            self._sleep(wait)
            ok = passphrase_matches(given, expected)
        finally:
            with self._state():
                self._leave(start)
                if ok is not None:  # checked (not interrupted while waiting)
                    self.failures = 0 if ok else self.failures + 1
                if ok and not self._waiting:  # the slot after it was reserved presuming a wrong try
                    self._next_slot = min(self._next_slot, start + self.base)
        return ("ok" if ok else "wrong"), wait

    @contextmanager
    def _state(self):
        """The throttle's state (failures, _next_slot, _waiting), held for this block alone."""
        with self._lock:
            yield

    def _enter(self, start: float) -> None:
        """A try is waiting for its slot at ``start``."""
        self._waiting += 1

    def _leave(self, start: float) -> None:
        """The try of the slot at ``start`` was checked (or gave up)."""
        self._waiting -= 1


#: The environment variable naming the file a class's processes share their LoginThrottle in (set by
#: deploy/serve_class.py to a file in its private run folder).
THROTTLE_FILE_ENV = "TOOLCALL_LOGIN_THROTTLE_FILE"


class SharedLoginThrottle(LoginThrottle):
    """A LoginThrottle whose state is in the file ``path``, shared by every process that opens it (the Streamlit
    processes of one class, deploy/serve_class.py): with one throttle per process, N processes behind nginx gave
    a guesser N slots at a time. Each read and update holds an exclusive lock (flock) on the file. ``clock`` must
    be common to the processes (CLOCK_MONOTONIC is, on Linux). A try still listed as waiting ``stale`` seconds
    after its slot began belongs to a process that died meanwhile and no longer counts. If the file cannot be
    used, the process's own state is used (as LoginThrottle)."""

    def __init__(self, path: str | os.PathLike, stale: float = 10.0, **kwargs):
        super().__init__(**kwargs)
        self.path, self.stale = os.fspath(path), stale
        self._starts: list[float] = []

    @contextmanager
    def _state(self):
        with self._lock:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            except OSError:
                yield  # the file cannot be used: this process's own state
                return
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO there: the read below waited for ever, and every
                os.close(fd)  # sign-in of the class with it (break-it pass brk20new); a device is no state either
                yield
                return
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                self._load(fd)
                yield
                data = json.dumps({"failures": self.failures, "waiting": self._starts,
                                   "next_slot": None if self._next_slot == float("-inf") else self._next_slot})
                os.lseek(fd, 0, os.SEEK_SET)
                os.ftruncate(fd, 0)
                os.write(fd, data.encode())
            finally:
                os.close(fd)  # releases the lock

    def _load(self, fd: int) -> None:
        try:
            data = json.loads(os.read(fd, 1 << 16) or b"{}")
            failures, starts, slot = int(data.get("failures", 0)), data.get("waiting", []), data.get("next_slot")
            starts = [float(t) for t in starts][:10_000]
            slot = float("-inf") if slot is None else float(slot)
        except (ValueError, TypeError, AttributeError, OSError, RecursionError, MemoryError):  # empty or damaged
            # (20 000 "[" ended the sign-in in a RecursionError: brk20new): a fresh throttle
            failures, starts, slot = 0, [], float("-inf")
        now = self._clock()
        self.failures, self._next_slot = failures, slot
        self._starts = [t for t in starts if t > now - self.stale]
        self._waiting = len(self._starts)

    def _enter(self, start: float) -> None:
        self._starts.append(start)
        self._waiting = len(self._starts)

    def _leave(self, start: float) -> None:
        if start in self._starts:
            self._starts.remove(start)
        self._waiting = len(self._starts)
