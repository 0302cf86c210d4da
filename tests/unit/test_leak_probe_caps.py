"""The strict panel's leak matrix probes at most MAX_PROBES constraints moved into descriptions, and says how many
it left: each probe is validated against every column (up to VALIDATION_BUDGET each), so a schema with a moved
constraint on each of 400 properties took 82 s of CPU per rerun of the panel. Cases derived from the cap."""

import pytest

from toolcall.fixtures import load_outputs
from toolcall.strict import MAX_PROBES, leak_matrix

OUTPUTS = load_outputs().outputs


def constrained(n: int) -> dict:
    return {"type": "object", "properties": {f"a{i}": {"type": "string", "maxLength": 5} for i in range(n)}}


@pytest.mark.parametrize("n", [1, MAX_PROBES, MAX_PROBES + 1, 10 * MAX_PROBES])
def test_probe_rows_are_capped_and_the_rest_counted(n):
    matrix = leak_matrix(constrained(n), OUTPUTS)
    probes = [r for r in matrix.rows if r.id.startswith("probe:")]
    assert len(probes) == min(n, MAX_PROBES)
    assert matrix.unprobed == max(0, n - MAX_PROBES)
    assert len(matrix.rows) == len(OUTPUTS) + len(probes)
