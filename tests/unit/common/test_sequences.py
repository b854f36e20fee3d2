"""Long sequences of ids: made distinct once, kept in parts when many (the window's thread
must not wait on one long step over a million ids: see refman.common.sequences)."""

from __future__ import annotations

import gc

import pytest

from refman.common import sequences
from refman.common.sequences import Distinct, PartedIds, frozen, ids_of, unique
from refman.store.bulk import id_json
from tests.helpers.sets import is_parted


def test_unique_keeps_the_first_of_each_in_order_and_trusts_what_it_made() -> None:
    made = unique([5, 3, 5, 9, 3, 1])
    assert made == (5, 3, 9, 1)
    assert isinstance(made, Distinct)
    assert unique(made) is made  # not made distinct again
    assert frozen(made) is made  # the controller's tuple of the selection keeps it
    assert frozen([2, 2]) == (2, 2)  # only a tuple is passed through as it is


def test_the_json_text_of_distinct_ids_is_written_once() -> None:
    made = unique(range(sequences.SLICE * 2 + 7))
    text = id_json(made)
    assert text == "[" + ",".join(map(str, made)) + "]"
    assert id_json(made) is text
    assert id_json(list(made)) == text  # the same text for a list, written again


def test_many_ids_are_kept_in_parts_that_behave_as_one_set() -> None:
    ids = list(range(1, 300_000, 3))
    parted = ids_of(ids[:60_000], ids[50_000:])  # overlapping groups
    assert is_parted(parted)
    assert len(parted) == len(ids)
    assert parted == frozenset(ids) and frozenset(ids) == parted
    assert sorted(parted) == ids
    assert 4 in parted and 5 not in parted
    assert hash(parted) == hash(frozenset(ids))
    more = parted | {2}
    assert is_parted(more) and len(more) == len(ids) + 1
    assert (parted & {4, 5}) == {4}
    assert "100000 ids" in repr(parted)


def test_the_garbage_collector_does_not_walk_the_parts() -> None:
    parted = PartedIds([range(100_000)])
    gc.collect()
    assert not any(gc.is_tracked(part) for part in parted._parts)


@pytest.mark.parametrize("count", [0, 3, sequences.PARTED_FROM - 1])
def test_a_few_ids_make_a_plain_frozenset(count: int) -> None:
    few = ids_of(range(count // 2), iter(range(count // 2, count)))
    assert type(few) is frozenset
    assert few == frozenset(range(count))
