"""The recorded runs are exactly what the seeded script makes from the stated probabilities."""

import importlib.util

import pytest
import yaml

from toolcall import FIXTURES_DIR, REPO_ROOT

SPEC = importlib.util.spec_from_file_location("make_eval_runs", REPO_ROOT / "scripts" / "make_eval_runs.py")
make = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(make)
SIM = yaml.safe_load((FIXTURES_DIR / "eval_runs" / "simulation.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("version", SIM["versions"])
def test_fixture_is_reproducible(lang, version):
    path = FIXTURES_DIR / "eval_runs" / f"shop_{version}.{lang}.jsonl"
    assert path.read_text(encoding="utf-8").splitlines() == make.generate_lines(lang, version)


def test_every_case_has_probabilities_summing_to_one():
    """Every simulated case is a case of the set; a case an instructor adds to the set has no
    simulated runs until simulation.yaml gives it probabilities (the lab says it has too few runs)."""
    from toolcall.selection import load_set

    for lang in ("en", "zh"):
        ids = {c.id for c in load_set(FIXTURES_DIR / "selection" / f"shop.{lang}.yaml").cases}
        assert set(SIM["cases"]) <= ids, set(SIM["cases"]) - ids
    for case, table in SIM["cases"].items():
        for version in SIM["versions"]:
            assert sum(table[version].values()) == pytest.approx(1.0), (case, version)
