"""Open what the playground draws one at a time (ui/playground_pick.py): a panel beside the editor and,
in the outputs panel, one output's card or the free box."""

from __future__ import annotations

from ui.playground_pick import FREE, OUTPUTS


def open_panel(at, panel: str):
    """Pick ``panel`` (one of ui.playground_pick.PANELS) and rerun when it is not open yet."""
    control = at.segmented_control(key="playground_panel")
    if control.value != panel:
        control.set_value(panel).run()
    return at


def show_output(at, output_id: str):
    """Draw the card of the canned output ``output_id`` (or the free box for FREE): the outputs panel
    opened, the output picked."""
    open_panel(at, OUTPUTS)
    radio = at.radio(key="playground_output")
    if radio.value != output_id:
        radio.set_value(output_id).run()
    return at


def show_free(at):
    """Draw the free box."""
    return show_output(at, FREE)


def each_card(at, outputs):
    """Yield ``at`` once per output of ``outputs`` (fixture CannedOutputs), that output's card drawn."""
    for output in outputs:
        show_output(at, output.id)
        assert not at.exception, [e.value for e in at.exception]
        yield output


def in_order(node):
    """The elements under ``node`` (``at.main``) in page order: AppTest keeps a block's children in a dict
    by index, so a caption or note can be matched with the code block drawn right after it."""
    children = getattr(node, "children", None)
    if children is None:
        yield node
        return
    for child in children.values():
        yield from in_order(child)
