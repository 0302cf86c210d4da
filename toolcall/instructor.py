"""Who may open the class dashboard: the decisions, without streamlit (pages/instructor.py
reads the settings and draws the sign-in).

Two ways in, in this order:
1. OpenID Connect through Streamlit's st.login, when secrets hold an ``[auth]`` section
   (https://docs.streamlit.io/develop/api-reference/user/st.login); the signed-in e-mail
   must be in TOOLCALL_INSTRUCTOR_EMAILS (a provider lets anyone with an account sign in).
2. An instructor passphrase (TOOLCALL_INSTRUCTOR_PASSPHRASE, from secrets or the
   environment), compared in constant time (hmac.compare_digest); each failed try makes
   the next answer wait longer (LoginThrottle).
Without either the dashboard explains how to configure it and shows nothing.
"""

from __future__ import annotations

import hmac
import threading
import time

#: The shortest passphrase accepted as configured.
MIN_PASSPHRASE_CHARS = 12


def auth_mode(oidc_configured: bool, instructor_emails: frozenset[str], passphrase: str) -> str:
    """``"oidc"`` (an [auth] section and a non-empty e-mail list), else ``"passphrase"`` (one
    of at least MIN_PASSPHRASE_CHARS characters), else ``"none"``."""
    if oidc_configured and instructor_emails:
        return "oidc"
    if len(passphrase or "") >= MIN_PASSPHRASE_CHARS:
        return "passphrase"
    return "none"


def parse_emails(value: object) -> frozenset[str]:
    """Instructor e-mails from a list (secrets) or a comma-separated string (environment),
    case-folded; anything else gives an empty set."""
    items = value.split(",") if isinstance(value, str) else value if isinstance(value, (list, tuple)) else []
    return frozenset(str(e).strip().casefold() for e in items if str(e).strip())


def passphrase_matches(given: str, expected: str) -> bool:
    """Whether ``given`` equals ``expected``, in time independent of where they differ
    (hmac.compare_digest on UTF-8 bytes). An empty ``expected`` matches nothing."""
    if not expected:
        return False
    return hmac.compare_digest(str(given).encode("utf-8"), expected.encode("utf-8"))


def email_allowed(email: object, instructor_emails: frozenset[str]) -> bool:
    """Whether a signed-in user's e-mail is an instructor's."""
    return isinstance(email, str) and email.strip().casefold() in instructor_emails


class LoginThrottle:
    """Failed passphrase tries, process-wide: the n-th consecutive failure waits
    ``min(base · 2^(n-1), cap)`` seconds before its answer (1, 2, 4, 8… s by default), so
    guessing is slow from any number of sessions; a success resets the count."""

    def __init__(self, base: float = 1.0, cap: float = 30.0, sleep=time.sleep):
        self.base, self.cap, self._sleep = base, cap, sleep
        self.failures = 0
        self._lock = threading.Lock()

    def delay(self) -> float:
        """Seconds the next failure will wait."""
        return min(self.base * 2 ** self.failures, self.cap)

    def failed(self) -> float:
        """Count a failure and wait its delay; returns the seconds waited."""
        with self._lock:
            wait = self.delay()
            self.failures += 1
        self._sleep(wait)
        return wait

    def succeeded(self) -> None:
        with self._lock:
            self.failures = 0
