"""Selection lab charts: the heatmap holds the confusion counts, the bars the taxonomy in order."""

from toolcall import FIXTURES_DIR
from toolcall.eval_charts import confusion_chart, taxonomy_chart
from toolcall.eval_import import read_log
from toolcall.evaluation import TAXONOMY, analyse
from toolcall.i18n import t


def analysis():
    return analyse(read_log((FIXTURES_DIR / "eval_runs" / "shop_vague.en.jsonl").read_bytes()), 3)


def test_confusion_heatmap_counts():
    result = analysis()
    spec = confusion_chart(result.confusion, "zh").to_dict()
    values = next(iter(spec["datasets"].values()))
    cell = {(v["expected"], v["chosen"]): v["runs"] for v in values}
    assert sum(cell.values()) == int(result.confusion.values.sum()) == 310
    assert cell[("refund_order", "refund_order")] == int(result.confusion.loc["refund_order", "refund_order"])
    assert cell[(t("eval.no_tool", "zh"), t("eval.no_tool", "zh"))] == int(result.confusion.iloc[-1, -1])


def test_taxonomy_bars_in_fixed_order():
    result = analysis()
    spec = taxonomy_chart(result.taxonomy, "en").to_dict()
    values = next(iter(spec["datasets"].values()))
    assert [v["class"] for v in values] == [t(f"eval.taxonomy.{n}", "en") for n in TAXONOMY]
    assert [v["runs"] for v in values] == [result.taxonomy[n] for n in TAXONOMY]
