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
    runs = len((FIXTURES_DIR / "eval_runs" / "shop_vague.en.jsonl").read_text("utf-8").splitlines())  # 310 as shipped
    assert sum(cell.values()) == int(result.confusion.values.sum()) == runs
    assert cell[("refund_order", "refund_order")] == int(result.confusion.loc["refund_order", "refund_order"])
    assert cell[(t("eval.no_tool", "zh"), t("eval.no_tool", "zh"))] == int(result.confusion.iloc[-1, -1])


def test_taxonomy_bars_in_fixed_order():
    result = analysis()
    spec = taxonomy_chart(result.taxonomy, "en").to_dict()
    values = next(iter(spec["datasets"].values()))
    assert [v["class"] for v in values] == [t(f"eval.taxonomy.{n}", "en") for n in TAXONOMY]
    assert [v["runs"] for v in values] == [result.taxonomy[n] for n in TAXONOMY]


def category_axes(spec) -> list[tuple[str, dict]]:
    """(field, axis) for every nominal or ordinal x/y encoding anywhere in a Vega-Lite spec."""
    found = []
    if isinstance(spec, dict):
        for channel in ("x", "y"):
            enc = spec.get("encoding", {}).get(channel)
            if isinstance(enc, dict) and enc.get("type") in ("nominal", "ordinal"):
                found.append((enc["field"], enc.get("axis") or {}))
        for value in spec.values():
            found += category_axes(value)
    elif isinstance(spec, list):
        for value in spec:
            found += category_axes(value)
    return found


def test_every_category_axis_draws_every_label():
    """At 420 px the confusion matrix showed two of its six column names (Streamlit's theme lets Vega drop
    overlapping labels): a category axis of any selection-lab chart keeps every label."""
    result = analysis()
    axes = (category_axes(confusion_chart(result.confusion, "zh").to_dict())
            + category_axes(taxonomy_chart(result.taxonomy, "zh").to_dict()))
    assert sorted({field for field, _ in axes}) == ["chosen", "class", "expected"]
    assert [field for field, axis in axes if axis.get("labelOverlap") is not False] == []


def test_counts_are_labelled_as_whole_numbers():
    """Runs are counted: with every cell alike (one expected and one chosen tool, or all cells 1) the heatmap's
    colour legend read "1.000000" and "49,305.000000" (Vega's default format for a scale of one value; break-it pass
    brk19web), and the taxonomy's axis is labelled the same way."""
    import pandas as pd

    confusion = pd.DataFrame([[1, 1]], index=["search_orders"], columns=["get_order", "search_orders"])
    cells = confusion_chart(confusion, "en").to_dict()["layer"][0]["encoding"]["color"]
    assert cells["legend"] == {"format": ",d", "tickMinStep": 1}
    bars = taxonomy_chart({"wrong_tool": 49_305}, "en").to_dict()["encoding"]["x"]
    assert bars["axis"] == {"format": ",d", "tickMinStep": 1}
