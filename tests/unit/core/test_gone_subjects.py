"""Where a filter's tag or person went that the library no longer holds: a tag merged into
another (merged on since: the last), none once deleted or once its merge is undone; a person
merged into another; a person the library never held."""

from __future__ import annotations

from refman.core.gone_subjects import GoneSubjects, gone_subjects, name_went
from refman.core.library import LibraryService
from refman.core.people_ops import MergePeople
from tests.helpers.fixtures import sourced
from tests.helpers.pages import generated_page


def _gone(library: LibraryService, tag_ids: list[int], person: int | None) -> GoneSubjects:
    with library.db.reading() as session:
        return gone_subjects(session, tag_ids, person)


def test_a_tag_merged_on_is_followed_to_the_last_and_forgotten_by_an_undo(
    library: LibraryService,
) -> None:
    library.import_pages([sourced(generated_page(3))])
    ids = library.paper_ids()
    for name, paper in (("ml", ids[0]), ("learning", ids[1]), ("machine learning", ids[2])):
        library.tag([paper], [name])
    tag_id = {t.name: t.id for t in library.tags()}
    assert _gone(library, list(tag_id.values()), None) == GoneSubjects()
    library.rename_tag("ml", "learning")
    last = library.rename_tag("learning", "machine learning")
    assert _gone(library, [tag_id["ml"]], None).tags == ((tag_id["ml"], "machine learning"),)
    with library.db.reading() as session:
        assert name_went(session, "LEARNING") == "machine learning"
    library.apply(last.inverse)  # type: ignore[arg-type]
    with library.db.reading() as session:
        assert name_went(session, "learning") is None  # (the tag is back)
    assert _gone(library, [tag_id["ml"], tag_id["learning"]], None).tags == (
        (tag_id["ml"], "learning"),
    )
    library.delete_tag("learning")
    assert _gone(library, [tag_id["learning"]], None).tags == ((tag_id["learning"], None),)


def test_a_person_merged_is_followed_and_one_never_held_is_gone(library: LibraryService) -> None:
    library.import_pages([sourced(generated_page(2))])
    library.import_pages([sourced(generated_page(1, owner="Another Author"))])
    people = {p.name: p.id for p in library.people()}
    library.apply(MergePeople(people["Another Author"], people["Prolific Author"]))
    went = _gone(library, [], people["Prolific Author"])
    assert went == GoneSubjects((), True, (people["Another Author"], "Another Author"))
    assert _gone(library, [], 999) == GoneSubjects((), True, None)
    assert _gone(library, [], people["Another Author"]) == GoneSubjects()
