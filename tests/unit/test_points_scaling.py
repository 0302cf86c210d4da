"""A description is read for its points in time linear in its length (issue 13, super-linear work).

brk10web3: the when-to-use cue ``\\b(use|call) (it|this)( tool)?\\b.*\\b(when|if|for)\\b`` scanned the rest of the
line once per "use it": a 56 000-character sentence of "use it use it …" took 7 s of CPU in description_points,
which the pass^k lab runs on every rerun and the design review on every edit (about 100 s at 200 000 characters).

Regex work runs in C, where tests/workcount.py counts nothing; so each text is read in a subprocess and charged
the CPU time it took (process time, not the clock, so a busy machine does not decide it): linear work takes about
0.07 s of CPU for each 100 000-character text, the quadratic cue took about 25 s on the first alone. A hard
resource.RLIMIT_CPU stops the subprocess if a cue runs away altogether."""

import re
import subprocess
import sys
import textwrap

import pytest

from toolcall.points import CUES, WHEN_TO_USE, description_points

#: CPU seconds one text may take (linear work: about 0.07 s), and the whole subprocess at most.
TEXT_CPU = 1.5
CPU_LIMIT = 120
#: Characters of each hostile description (half the pasted-definition bound, toolcall.tooldef.MAX_DEFINITION_CHARS).
LENGTH = 100_000

#: The cue as it was: the reference for what the when-to-use cue must still find.
OLD_WHEN_TO_USE = re.compile(r"\b(use|call) (it|this)( tool)?\b.*\b(when|if|for)\b", re.IGNORECASE)


def _words(cue: str) -> list[str]:
    """The English words of a cue pattern (its regular-expression syntax left out)."""
    return re.findall(r"[a-z']+", re.sub(r"\\[bwsd]", " ", cue))


def _hostile() -> list[str]:
    """For every English cue: its words repeated to LENGTH characters without a sentence end, with and without
    the cue's last word (a near miss makes a backtracking pattern try every start); the example first."""
    texts = ["use it " * (LENGTH // 7)]
    for cues in CUES.values():
        for cue in cues:
            words = _words(cue)
            if not words:
                continue  # a Chinese cue: a plain substring
            for piece in (" ".join(words), " ".join(words[:-1]) or words[0]):
                texts.append((piece + " ") * (LENGTH // (len(piece) + 1)))
    return texts


def test_every_hostile_description_is_read_within_a_cpu_limit():
    code = textwrap.dedent(f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_CPU, ({CPU_LIMIT}, {CPU_LIMIT} + 1))
        from tests.unit.test_points_scaling import _hostile
        import time
        from toolcall.points import description_points
        texts = _hostile()
        description_points(texts[0][:1000])  # the patterns compiled, uncharged
        for text in texts:
            start = time.process_time()
            description_points(text)
            if time.process_time() - start > {TEXT_CPU}:
                print(repr(text[:40]))
        print(len(texts))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, (out.returncode, out.stderr[-2000:])  # -SIGXCPU: a cue ran away
    assert out.stdout.splitlines() == [str(len(_hostile()))]  # no text over TEXT_CPU


@pytest.mark.parametrize("text", [
    "Use it when the user asks.", "Call this tool if needed.", "We use it for refunds.", "use it\nwhen x",
    "use item when", "reuse it when", "x use it y use it z for", "call this tool only for A", "USE IT WHEN",
    "when you use it", "use it; for", "use it\nuse it when", "call it when", "use this\n\nfor", "use it_when",
])
def test_the_when_to_use_cue_finds_what_it_found(text):
    """The rewritten cue matches exactly the texts the old one matched."""
    new = re.compile(CUES[WHEN_TO_USE][0], re.IGNORECASE)
    assert bool(new.search(text)) == bool(OLD_WHEN_TO_USE.search(text))


def test_the_example_sentence_states_when_to_use():
    assert [sorted(s.points) for s in description_points("Refund an order. Use it when the customer asks.")] == [
        ["purpose"], ["when_to_use"]]
