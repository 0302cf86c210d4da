"""`check` reads each fixture file once per run: it opened and parsed fixtures/tools/refund_order.json 40 times,
the other tools 23 to 31 times, 242 opens of 63 files (issue 13, break-it pass brk12cli). The memo is the run's
own (toolcall.fixtures.one_read_per_run): nothing is kept after it."""

import collections

from toolcall import CONTENT_ROOT, fixtures
from toolcall.check import run_checks


def test_every_fixture_file_is_read_once_per_run(monkeypatch):
    reads: collections.Counter = collections.Counter()
    read = fixtures.read_text_bounded

    def counted(path, *args, **kwargs):
        reads[str(path)] += 1
        return read(path, *args, **kwargs)

    monkeypatch.setattr(fixtures, "read_text_bounded", counted)
    assert run_checks(CONTENT_ROOT) == []
    data_files = {p for p in reads if "/schemas/" not in p}
    expected = {str(p) for kind in ("tools", "orders", "outputs", "exercises", "scenarios", "selection", "transcripts",
                                    "pairing") for p in (CONTENT_ROOT / "fixtures" / kind).glob("*.*")
                if p.suffix in (".json", ".yaml", ".yml")}
    assert expected <= {str(fixtures.Path(p).resolve()) for p in data_files}
    assert {p: n for p, n in reads.items() if n > 1 and "/schemas/" not in p} == {}
    assert fixtures._RUN_MEMO.get() is None  # dropped with the run


def test_a_caller_changing_what_it_got_does_not_change_the_next_read(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("a: [1]\n", encoding="utf-8")
    with fixtures.one_read_per_run():
        fixtures.read_data(path)["a"].append(2)
        assert fixtures.read_data(path) == {"a": [1]}
