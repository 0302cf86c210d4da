"""evaluation.case_rows and pair_rates give, from the per-case counts alone, exactly what case_table and
summary_rates give from the graded runs: what the selection lab keeps to show an upload at another k
(ui.eval_lab._for_k, break-it pass brk12web2)."""

import random
from collections import Counter

import pytest

from toolcall.evaluation import Call, Run, RunLog, analyse, case_counts, case_rows, pair_rates, summary_rates


def log_of(seed: int) -> RunLog:
    rng = random.Random(seed)
    runs = []
    for case in range(60):
        for run in range(rng.randint(1, 8)):
            calls = (Call("t", {}, None),) if rng.random() < 0.6 else ()
            runs.append(Run(f"c{case}", run, "m", None, calls, 0, rng.random() < 0.5, len(runs) + 1))
    return RunLog(runs, tool_sets=[{"t": {"type": "object"}}], fmt="native")


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("k", [1, 2, 5, 9])
def test_counts_give_the_same_rows_and_means(seed, k):
    whole = analyse(log_of(seed), k)
    counts = case_counts(whole.graded)
    assert case_rows(counts, k) == whole.cases
    assert pair_rates(dict(Counter((n, c) for _, _, n, c in counts)), k) == summary_rates(whole.cases)


def test_every_case_refused():
    assert pair_rates({(1, 1): 3}, 2) == {"pass^k": None, "pass@k": None, "naive": None}
