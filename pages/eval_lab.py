"""Selection lab: write a selection test set, grade recorded runs BFCL-style, read the confusion
matrix, the failure taxonomy and pass^k per case, then upload your own logs."""

from ui.eval_lab import render
from ui.page import start

start("eval_lab")
render()
