"""Every widget of ui/ and pages/ that shows its options through a format_func goes through ui.widgets.translated
(which hands the widget its value again after a language switch), unless listed here with why it needs not: the
selection lab's version radio and format select were drawn with st.radio / st.selectbox and translated labels, and
after a switch to Chinese the radio showed nothing picked and fell back to its first option on the next run, and the
select kept its English label (break-it pass brk13lab). A new one is a failing test until someone says why."""

import ast

from toolcall import REPO_ROOT

#: (file, the widget's key as ast.unparse writes it) -> why its labels need no translated().
ALLOWED = {
    ("ui/harness_lab.py", "_key('pick')"): "its key holds the language: a switch draws a fresh picker from harness_scenario",
    ("ui/harness_lab.py", "_key('fmt')"): "its key holds the language: a switch draws a fresh control from harness_format",
    ("ui/eval_lab.py", "'eval_drill_case'"): "case ids, the same in both languages",
    ("pages/dashboard.py", "'dashboard_learner'"): "learner ids and the instructor's names, not translated",
    ("app.py", "LANG_KEY"): "the language switch: each language's own name, the same on both pages",
}


def _widgets_with_labels() -> set[tuple[str, str]]:
    found = set()
    paths = [REPO_ROOT / "app.py", *sorted((REPO_ROOT / "ui").rglob("*.py")), *sorted((REPO_ROOT / "pages").rglob("*.py"))]
    for path in paths:
        name = path.relative_to(REPO_ROOT).as_posix()
        if name == "ui/widgets.py":  # translated() itself
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and any(k.arg == "format_func" for k in node.keywords):
                key = next((ast.unparse(k.value) for k in node.keywords if k.arg == "key"), "")
                found.add((name, key))
    return found


def test_every_widget_with_shown_labels_goes_through_translated():
    assert _widgets_with_labels() == set(ALLOWED)
