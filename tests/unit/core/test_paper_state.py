"""A paper's state copied for an import's merge and its undo: independent, and alike."""

from __future__ import annotations

from datetime import datetime

from refman.core.paper_state import PaperState


def _state() -> PaperState:
    return PaperState(
        id=7,
        title="Tidal resonance",
        title_provisional=False,
        abstract="We measure it.",
        year=2021,
        venue="arXiv",
        authors=["ines varga"],
        authors_complete=True,
        attributions=["ines varga"],
        subjects=["physics.ao-ph"],
        tags=["ocean"],
        user_edited={"title"},
        added_at=datetime(2026, 1, 2, 3, 4, 5, 600),
        names={"ines varga": "Ines Varga"},
        extra={"editor": [{"family": "Lund"}]},
        version=4,
    )


def test_a_copy_is_the_snapshot_of_the_same_version_and_changes_alone() -> None:
    state = _state()
    made = state.copy()
    again = PaperState.from_json(state.to_json())
    assert made.to_json() == again.to_json() and made.version == 4
    assert made.same_as(state)
    made.tags.append("tides")
    made.user_edited.add("year")
    made.names["x"] = "X"
    assert state.tags == ["ocean"] and state.user_edited == {"title"} and "x" not in state.names
    assert not made.same_as(state)


def test_states_alike_but_for_the_version_read_are_the_same() -> None:
    state, other = _state(), _state()
    other.version = 9
    assert state.same_as(other)
    other.modified_at = datetime(2026, 2, 1)
    assert not state.same_as(other)
