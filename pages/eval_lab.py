"""Selection lab: write a selection test set, grade recorded runs BFCL-style, read the confusion
matrix, the failure taxonomy and pass^k per case, then upload your own logs."""

from pages.common import run_inside_app
from ui.eval_lab import render

run_inside_app()
render()
