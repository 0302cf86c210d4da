"""The instructor's promise: adding one entry of each kind is a file edit, and nothing else.

A copy of the content (fixtures/, lessons/) gets one more canned output, exercise, lesson pair,
pairing example, tool, harness scenario, selection case, order in the order book and recorded runs (the
selection case's probabilities in simulation.yaml, its logs regenerated with scripts/make_eval_runs.py, as the
README's instructor section says); ``toolcall check`` passes on it, and
the content, unit and AppTest modules that read the content pass against the copy
(``TOOLCALL_CONTENT_ROOT``), so no test hard-codes a count a fixture controls.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from toolcall import CONTENT_ROOT, REPO_ROOT

#: A test module that calls one of these reads the content through ``TOOLCALL_CONTENT_ROOT``.
CONTENT_READERS = re.compile(
    r"\b(?:load_(?:exercises|scenarios|outputs|examples|lessons|walkthrough|orders|tool|set)\(|scenario_files\("
    r"|exercise_files\(|lesson_files\(|FIXTURES_DIR|LESSONS_DIR|CONTENT_ROOT)")
#: Modules that read the content by other means (the catalogue, the CLI, a fixture helper).
ALSO = ["tests/content/test_i18n.py", "tests/content/test_walkthrough_content.py", "tests/unit/test_canned_outputs.py",
        "tests/unit/test_presets_and_backend.py", "tests/unit/test_cli.py"]


def content_modules() -> list[str]:
    """The content, unit and AppTest modules that read the content, found by what they call (so a new
    page's AppTest module joins when it loads the page's fixtures), plus :data:`ALSO`; run against
    the copy in a subprocess."""
    found = {str(path.relative_to(REPO_ROOT)) for folder in ("content", "unit", "app")
             for path in (REPO_ROOT / "tests" / folder).glob("test_*.py")
             if CONTENT_READERS.search(path.read_text("utf-8"))}
    return sorted((found | set(ALSO)) - {str(Path(__file__).resolve().relative_to(REPO_ROOT))})


MODULES = content_modules()


def _append(path, key, entry):
    """Append ``entry`` to the list ``key`` as text, keeping the file's own formatting (other tests
    edit the shipped text by search and replace)."""
    text = path.read_text("utf-8")
    block = yaml.safe_dump([entry], allow_unicode=True, sort_keys=False, width=1000)
    block = "".join("  " + line for line in block.splitlines(keepends=True))
    data = yaml.safe_load(text)
    if list(data)[-1] == key:
        text = text.rstrip("\n") + "\n" + block
    else:  # insert before the next top-level key
        after = list(data)[list(data).index(key) + 1]
        head, sep, tail = text.partition(f"\n{after}:")
        head = head[:head.rfind("\n#")] if head.rstrip().split("\n")[-1].startswith("#") else head
        text = head.rstrip("\n") + "\n" + block + text[len(head.rstrip("\n")) + 1:]
    assert yaml.safe_load(text)[key][-1] == entry
    path.write_text(text, "utf-8")


def add_one_of_each(root):
    """Add one entry of every kind under ``root`` (a copy of the content). Every id and file name
    starts with ``added_by_test`` so an instructor's own new entry (say a ``negative_amount`` output)
    never collides with the test's."""
    fx = root / "fixtures"
    _append(fx / "outputs" / "refund_order.yaml", "outputs", {
        "id": "added_by_test_negative_amount", "label": {"en": "A negative amount", "zh": "金额是负数"},
        "raw": '{"order_id": "ORD-20260917", "amount_cents": -1999, "reason": "damaged"}',
        "catches": "minimum", "expected": "rejected"})
    _append(fx / "exercises" / "general.yaml", "exercises", {
        "id": "added_by_test_exercise", "page": "exercises", "type": "choice", "multiple": False,
        "title": {"en": "Who runs the tool?", "zh": "谁来执行工具？"},
        "prompt": {"en": "Who runs refund_order?", "zh": "refund_order 由谁执行？"},
        "options": [
            {"id": "model", "text": {"en": "The model", "zh": "模型"},
             "explanation": {"en": "It only writes the request.", "zh": "模型只写申请单。"}},
            {"id": "code", "text": {"en": "Your code", "zh": "你的代码"},
             "explanation": {"en": "Yes: your harness runs it.", "zh": "对，由你的程序执行。"}}],
        "answer": ["code"], "wrong_answers": [{"answer": ["model"], "feedback": {
            "en": "The model only proposes the call.", "zh": "模型只是提出调用。"}}],
        "hints": [{"en": "Who holds the database?", "zh": "数据库在谁手里？"}],
        "explanation": {"en": "Your code runs every tool.", "zh": "每个工具都由你的代码执行。"}})
    for lang, title, body in (("en", "An added lesson", "The model writes the request; your code runs it. " * 60),
                              ("zh", "新增的一课", "模型只写申请单，执行的是你的代码。" * 40)):
        (root / "lessons" / lang / "99-added-by-test.md").write_text(
            f"---\ntitle: {title}\nsummary: {title}.\npage: lessons\norder: 99\n---\n{body}\n", "utf-8")
    pairing = yaml.safe_load((fx / "pairing" / "examples.yaml").read_text("utf-8"))
    first = pairing["examples"][0]
    # the same rules broken in another transcript: check refuses two examples that read the same
    text = {lang: body.replace("ORD-20260917", "ORD-20261231") for lang, body in first["text"].items()}
    assert text != first["text"]
    _append(fx / "pairing" / "examples.yaml", "examples", {**first, "id": "added_by_test_example", "text": text,
                                                           "label": {"en": "Added", "zh": "新增的例子"}})
    tool = (fx / "tools" / "get_order.json").read_text("utf-8").replace('"get_order"', '"added_by_test_check_stock"', 1)
    (fx / "tools" / "added_by_test_check_stock.json").write_text(tool, "utf-8")
    scenario = yaml.safe_load((fx / "scenarios" / "01-plain-call.yaml").read_text("utf-8"))
    scenario.update(id="added_by_test_scenario", order=99, title={"en": "Added scenario", "zh": "新增的场景"})
    (fx / "scenarios" / "99-added-by-test.yaml").write_text(yaml.safe_dump(scenario, allow_unicode=True, sort_keys=False),
                                                    "utf-8")
    for lang, request in (("en", "Refund my cup, order ORD-20260917, it arrived broken: 25.99."),
                          ("zh", "订单 ORD-20260917 的杯子碎了，退我 25.99 元。")):
        _append(fx / "selection" / f"shop.{lang}.yaml", "cases", {
            "id": "added_by_test_rf", "request": request, "expected_tool": "refund_order",
            "expected_arguments": {"order_id": ["ORD-20260917"], "amount_cents": [2599], "reason": ["damaged"]},
            "should_not_call": ["cancel_order"]})
    _append(fx / "orders" / "orders.yaml", "orders", {
        "order_id": "ORD-20261215", "customer_id": "CUST-1001", "paid_cents": 3300, "status": "unshipped",
        "item": {"en": "Teapot", "zh": "茶壶"}})
    text = (fx / "eval_runs" / "simulation.yaml").read_text("utf-8").rstrip("\n")
    (fx / "eval_runs" / "simulation.yaml").write_text(
        text + '\n  added_by_test_rf: {vague: {right: 0.5, yuan_string: 0.5}, good: {right: 1.0}}\n', "utf-8")
    subprocess.run([sys.executable, "scripts/make_eval_runs.py"], check=True, capture_output=True, cwd=REPO_ROOT,
                   timeout=300, env={**os.environ, "TOOLCALL_CONTENT_ROOT": str(root)})


@pytest.fixture(scope="module")
def grown(tmp_path_factory):
    root = tmp_path_factory.mktemp("content")
    shutil.copytree(CONTENT_ROOT / "fixtures", root / "fixtures")
    shutil.copytree(CONTENT_ROOT / "lessons", root / "lessons")
    add_one_of_each(root)
    return root


def test_check_passes_on_content_with_one_more_entry_of_each_kind(grown):
    run = subprocess.run([sys.executable, "-m", "toolcall", "check", str(grown)], capture_output=True, text=True,
                         cwd=REPO_ROOT, timeout=300)
    assert (run.returncode, run.stdout.strip()) == (0, "all content checks passed"), run.stdout + run.stderr


def test_the_added_entries_are_loaded_from_the_content_root(grown):
    code = ("from toolcall.fixtures import load_outputs; from toolcall.exercises import load_exercises; "
            "from toolcall.harness import load_scenarios; "
            "print(load_outputs().outputs[-1].id, 'added_by_test_exercise' in load_exercises().by_id(), "
            "'added_by_test_scenario' in {s.id for s in load_scenarios().scenarios}); "
            "from toolcall.fixtures import load_orders; from toolcall.eval_import import read_recorded; "
            "from toolcall import FIXTURES_DIR; print(load_orders().orders[-1].order_id, "
            "sum(r.case_id == 'added_by_test_rf' for r in read_recorded(FIXTURES_DIR / 'eval_runs' / "
            "'shop_good.zh.jsonl').log.runs))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT, timeout=120,
                         env={**os.environ, "TOOLCALL_CONTENT_ROOT": str(grown)})
    assert run.stdout.split() == ["added_by_test_negative_amount", "True", "True", "ORD-20261215", "10"], run.stderr


@pytest.mark.slow  # reruns the content, unit and app tests in a subprocess: minutes; .ci/run runs it
def test_content_unit_and_app_tests_pass_against_the_grown_content(grown):
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *MODULES],
                         capture_output=True, text=True, cwd=REPO_ROOT, timeout=1500,
                         env={**os.environ, "TOOLCALL_CONTENT_ROOT": str(grown)})
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


def test_every_page_an_instructor_fills_is_tested_against_the_copy():
    """Each page whose lessons or exercises come from files (the registry says which) has an
    AppTest module among MODULES: the exercises page and the harness lab were once missing."""
    from toolcall.pages_registry import PAGES

    texts = {m: (REPO_ROOT / m).read_text("utf-8") for m in MODULES if m.startswith("tests/app/")}
    for page in PAGES:
        if page.exercises or page.lessons:
            assert any(page.script in text for text in texts.values()), page.script
    assert {"tests/app/test_exercises_app.py", "tests/app/test_harness_lab_page.py"} <= set(MODULES)
