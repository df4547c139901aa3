"""Reflections: pure grouping and titles, then writing, idempotency, updates, hand edits and
the reflections that come by themselves after observe, on real vaults."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tota_vault import Vault
from tota_vault.errors import WriteError
from tota_vault.notes import parse_note
from tota_vault.reflect import (
    Group,
    cover_probe,
    covered_by,
    covers_of,
    linked_titles,
    pending_topics,
    plan_reflections,
    ready_topics,
    reflection_key,
    reflection_text,
)
from tota_vault.rows import MemoryRow
from tota_vault.seal import SealState, seal_state

NOW = datetime(2026, 11, 29, 12, 0)


def row(path, text, subject="user", key=None, type="habit", confidence=0.8):
    return MemoryRow(
        path=path, title=path.rsplit("/", 1)[-1][:-3], text=text, subject=subject,
        key=key, type=type, status="active", confidence=confidence,
        sources=(f"c#{path}",), created="2026-01-01T10:00:00", memory_id=path,
    )  # fmt: skip


FILLER = [row(f"habit/f{i}.md", f"Unrelated{i} statement{i} gardening{i}") for i in range(20)]


def test_memories_naming_the_same_thing_form_one_group():
    fixes = [row(f"habit/n{i}.md", f"Fixed a bug in Negativo, set {i}") for i in range(4)]
    groups = plan_reflections(fixes + FILLER)
    assert [(g.theme, g.label, len(g.members)) for g in groups] == [("negativo", "Negativo", 4)]
    assert groups[0].key == "reflection/user/negativo"


@pytest.mark.parametrize(
    "texts",
    [
        [
            "Checks the logs every morning {i}.",
            "Skims every changelog {i}.",
            "Every sprint {i} ends.",
        ],
        ["Is an engineer {i}.", "Mentors another engineer {i}.", "The engineer {i} left."],
        ["Maintains legacy code {i}.", "Fears the legacy parser {i}.", "Legacy tests {i} fail."],
    ],
)
def test_a_shared_plain_word_forms_no_group(texts):
    """Stray words ("every", "engineer", "legacy") never make a reflection on their own."""
    rows = [
        row(f"habit/w{i}{j}.md", text.format(i=i)) for i in range(3) for j, text in enumerate(texts)
    ]
    assert plan_reflections(rows + FILLER) == []


def test_subjects_are_never_mixed_and_small_groups_are_skipped():
    rows = [row(f"habit/a{i}.md", f"Pottery night {i}", subject="Caroline") for i in range(2)]
    rows += [row(f"habit/b{i}.md", f"Pottery night {i}", subject="Melanie") for i in range(2)]
    assert plan_reflections(rows + FILLER) == []


def test_memories_sharing_a_topic_form_one_group_and_a_memory_may_be_in_two():
    trips = [
        row(f"episode/t{i}.md", f"Trip {i}", type="episode")._replace(
            tags="tota/episode topic/travel"
        )
        for i in range(3)
    ]
    trips[0] = trips[0]._replace(tags=trips[0].tags + " topic/food")
    food = [
        row(f"episode/f{i}.md", f"Dinner {i}", type="episode")._replace(
            tags="tota/episode topic/food"
        )
        for i in range(2)
    ]
    groups = plan_reflections(trips + food + FILLER)
    assert [(g.theme, len(g.members)) for g in groups] == [("topic/food", 3), ("topic/travel", 3)]
    assert groups[1].key == "reflection/user/topic-travel" and groups[1].label == "travel"


def test_a_topic_reflection_carries_its_topic_tag(vault: Vault):
    for city in ("Rome", "Paris", "Lisbon"):
        vault.remember("episode", f"Took a trip to {city}.", sources=[f"c#{city}"])
    report = vault.reflect(now=NOW)
    assert report.created == ["reflection/Trip.md"]  # the word every member shares
    note = parse_note((vault.root / report.created[0]).read_bytes(), report.created[0])
    assert note.memory.tags == ("tota/reflection", "topic/travel")
    assert note.memory.text.startswith("3 memories of the user about “travel”")


def test_a_shared_key_groups_memories():
    rows = [row(f"goal/g{i}.md", f"Plan {i}", key="goal/marathon") for i in range(3)]
    groups = plan_reflections(rows + FILLER)
    assert [(g.theme, g.label) for g in groups] == [("goal/marathon", "marathon")]
    assert groups[0].key == "reflection/user/goal-marathon"


def test_reflection_text_links_every_member():
    pottery = [row(f"habit/p{i}.md", f"Went to a class, week {i}", key="habit/pottery")
               for i in range(3)]  # fmt: skip
    text = reflection_text(plan_reflections(pottery + FILLER)[0])
    assert text.startswith("3 memories of the user about “pottery”")
    assert text.count("[[") == 3 and "- [[p0]]" in text


def _vault_with_pottery(vault: Vault, n: int = 4) -> None:
    for i in range(n):
        vault.remember("habit", f"Made pottery at the studio in week {i + 1}.", sources=[f"c#{i}"])
    for word in ("tea", "jazz", "rain", "cats", "maps", "figs", "chess", "kites"):
        vault.remember("preference", f"Likes {word} a lot.")


def test_reflect_writes_once_updates_when_members_change(vault: Vault):
    _vault_with_pottery(vault)
    first = vault.reflect(now=NOW)
    assert len(first.created) == 1
    path = vault.root / first.created[0]
    note = parse_note(path.read_bytes(), first.created[0])
    assert note.memory.evidence.value == "system" and note.memory.type.value == "reflection"
    assert seal_state(path.read_text()) is SealState.SEALED
    assert len(note.memory.sources) == 4
    for link in note.body.split("## Members")[1].split("[[")[1:]:
        assert (vault.root / "habit" / (link.split("]]")[0] + ".md")).exists()

    before = path.read_bytes()
    again = vault.reflect(now=NOW)
    assert again.created == [] and again.updated == [] and path.read_bytes() == before

    vault.remember("habit", "Made pottery at the studio in week 5.")
    third = vault.reflect(now=NOW)
    assert third.updated == [first.created[0]] and third.created == []
    assert "5 memories" in path.read_text()
    assert len(list((vault.root / "reflection").glob("*.md"))) == 1


def test_a_reflection_a_person_edited_is_left_alone(vault: Vault):
    _vault_with_pottery(vault)
    path = vault.root / vault.reflect(now=NOW).created[0]
    path.write_text(path.read_text().replace("memories of", "memories (my notes) of"))
    vault.sync(quiet=3600)  # seen, not yet patched: the person may still be typing
    edited = path.read_bytes()
    vault.remember("habit", "Made pottery at the studio in week 5.")
    report = vault.reflect(now=NOW)
    assert report.left_alone == [str(path.relative_to(vault.root))]
    assert path.read_bytes() == edited


def test_decay_lists_then_archives_and_confirm_revives(vault: Vault):
    old = vault.remember("episode", "Ran a 5k in the rain.", durability=0.2,
                         confidence=0.6, when=datetime(2024, 1, 1))  # fmt: skip
    fresh = vault.remember("identity", "Lives in Porto.", when=datetime(2026, 11, 1))
    stale = vault.decay(now=NOW)
    assert [r.path for r in stale] == [old.path]
    assert "status: active" in (vault.root / old.path).read_text()  # listing changes nothing
    vault.decay(apply=True, now=NOW)
    archived = (vault.root / old.path).read_text()
    assert "status: archived" in archived and "Ran a 5k" in archived
    assert not any(r.path == old.path for r in vault.recall("ran 5k rain"))
    assert [r.path for r in vault.recall("lives porto")] == [fresh.path]
    vault.confirm(old.memory.id, now=NOW)
    revived = (vault.root / old.path).read_text()
    assert "status: active" in revived and "confirmations: 2" in revived
    assert vault.recall("ran 5k rain", now=NOW)[0].path == old.path


def test_a_key_and_a_name_with_the_same_word_are_two_reflections():
    keyed = [row(f"goal/g{i}.md", f"Plan {i} for the term", key="goal/arabic") for i in range(3)]
    words = [row(f"habit/w{i}.md", f"Practised Arabic verbs, set {i}") for i in range(3)]
    groups = plan_reflections(keyed + words + FILLER)
    assert sorted(g.key for g in groups) == [
        "reflection/user/arabic",
        "reflection/user/goal-arabic",
    ]


# --- names and titles ------------------------------------------------------------------------


def test_titles_are_never_a_stray_word_on_the_sample_vault(sample_dir):
    """The sample vault once gave `The user and every.md`, `...engineer.md`, `...legacy.md`."""
    with Vault.open(sample_dir) as vault:
        report = vault.reflect(now=NOW)
        titles = [path.split("/", 1)[1][:-3] for path in report.created]
        assert titles and not any(t.lower().startswith("the user and") for t in titles)
        for title in titles:
            assert not {"every", "engineer", "legacy"} & set(title.lower().split())
        # The person's own reflections on running and on Lisbon cover those groups.
        assert "reflection/Training for the Lisbon half-marathon.md" in report.left_alone
        snapshot = {p: p.read_bytes() for p in sample_dir.rglob("*.md")}
        again = vault.reflect(now=datetime(2027, 1, 1))
        assert again.created == again.updated == []
        assert {p: p.read_bytes() for p in sample_dir.rglob("*.md")} == snapshot


def _group(theme, texts, subject="user"):
    members = tuple(row(f"habit/t{i}.md", text, subject=subject) for i, text in enumerate(texts))
    return Group(subject, theme, members)


def test_a_persons_reflection_that_links_half_the_members_covers_the_group():
    group = _group("topic/sport", ["Runs.", "Swims.", "Cycles.", "Rows."])
    mine = MemoryRow(path="reflection/Mine.md", subject="user", key=None,
                     body="Sport.\n\n- [[t0]]\n- [[T1|runs]]\n")  # fmt: skip
    assert covered_by(group, covers_of([mine])) == "reflection/Mine.md"
    assert covered_by(group, covers_of([mine._replace(body="- [[t0]]")])) is None  # one of four
    assert covered_by(group, covers_of([mine._replace(subject="Ana")])) is None  # someone else
    tota = mine._replace(key="reflection/user/topic-sport")
    assert covered_by(group, covers_of([tota])) is None  # tota's own is updated, not a cover


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(min_value=1, max_value=12),
    links=st.lists(st.sets(st.integers(min_value=0, max_value=13)), max_size=5),
)
def test_the_cover_probe_finds_every_reflection_that_may_cover_a_group(n, links):
    """Looking up reflections by half the titles and one (`cover_probe`) decides as all."""
    group = _group("topic/sport", [f"Does sport number {i}." for i in range(n)])
    reflections = [
        MemoryRow(path=f"reflection/Mine {j}.md", subject="user", key=None,
                  body="".join(f"- [[t{i}]]\n" for i in sorted(linked)))
        for j, linked in enumerate(links)
    ]  # fmt: skip
    probe = {t.casefold() for t in cover_probe(group)}
    assert len(probe) == n // 2 + 1
    found = [r for r in reflections if probe & {t.casefold() for t in linked_titles(r.body)}]
    assert covered_by(group, covers_of(found)) == covered_by(group, covers_of(reflections))


def test_the_cover_probe_asks_for_every_spelling_of_a_title():
    """FTS5 does not fold "ß" to "ss" as casefold does: both spellings are asked for."""
    names = ["Hauptstraße", "HAUPTSTRASSE", "Walks the dog daily", "Cooks pasta on Sundays",
             "Reads novels at night", "Plays chess with Sam"]  # fmt: skip
    group = Group("user", "topic/home", tuple(row(f"habit/{t}.md", f"{t}.") for t in names))
    titles = [m.title for m in group.members]
    assert len(cover_probe(group)) == 4  # three of five titles as folded, one of them twice
    assert set(cover_probe(group)) >= {titles[0], titles[1]}


# --- reflections that come by themselves -----------------------------------------------------


@pytest.mark.parametrize(
    ("pending", "new", "kept", "due"),
    [
        ({}, [("user", "topic/food", "a")], {("user", "topic/food"): ["a"]}, {}),
        ({("user", "topic/food"): ["a", "b"]}, [("user", "topic/food", "c")], {},
         {("user", "topic/food"): ["a", "b", "c"]}),
        ({("user", "topic/food"): ["a", "b"]}, [("user", "topic/food", "b")],
         {("user", "topic/food"): ["a", "b"]}, {}),  # the same memory counts once
        ({("Ana", "topic/art"): ["x"]}, [("user", "topic/food", p) for p in "abc"],
         {("Ana", "topic/art"): ["x"]}, {("user", "topic/food"): ["a", "b", "c"]}),
    ],
)  # fmt: skip
def test_new_members_wait_in_their_topic_until_it_is_due(pending, new, kept, due):
    assert pending_topics(pending, new, 3) == (kept, due)


@pytest.mark.parametrize(
    ("due", "linked", "waiting", "ready"),
    [
        ({("user", "t"): ["a", "b", "c"]}, {}, {}, {("user", "t"): ["a", "b", "c"]}),  # new topic
        ({("user", "t"): ["a", "b", "c"]}, {("user", "t"): 6}, {}, {("user", "t"): ["a", "b", "c"]}),
        ({("user", "t"): ["a", "b", "c"]}, {("user", "t"): 8}, {("user", "t"): ["a", "b", "c"]}, {}),
        ({("user", "t"): list("abcd")}, {("user", "t"): 8}, {}, {("user", "t"): list("abcd")}),
        ({("user", "t"): list("abcdefg")}, {("user", "t"): 16}, {("user", "t"): list("abcdefg")},
         {}),  # a reflection of 16 waits for 8 new members
        ({("user", "t"): list("abc"), ("Ana", "t"): list("abc")}, {("user", "t"): 16},
         {("user", "t"): list("abc")}, {("Ana", "t"): list("abc")}),  # each subject its own
    ],
)  # fmt: skip
def test_a_large_reflection_waits_for_new_members_in_proportion_to_its_size(
    due, linked, waiting, ready
):
    assert ready_topics(due, linked) == (waiting, ready)


FOOD = [
    "I love cooking Thai curries for my friends.",
    "I bake sourdough bread every weekend.",
    "I make pizza from scratch on Fridays.",
]


MORE_FOOD = ["I grill fish on the barbecue.", "I cook ramen on Sundays.", "I eat tacos a lot."]


def _observe(vault: Vault, texts: list[str], start: int = 0) -> None:
    for i, text in enumerate(texts, start):
        vault.observe([{"role": "user", "content": text, "id": str(i)}], conversation_id="c1")


def _files(vault: Vault) -> dict[str, bytes]:
    return {p.relative_to(vault.root).as_posix(): p.read_bytes() for p in vault.root.rglob("*.md")}


def test_a_topic_that_gains_enough_members_is_reflected_on_after_observe(vault: Vault):
    _observe(vault, FOOD[:2])
    assert not (vault.root / "reflection").exists() or not list(
        (vault.root / "reflection").iterdir()
    )
    _observe(vault, FOOD[2:], start=2)
    (path,) = (vault.root / "reflection").glob("*.md")
    note = parse_note(path.read_bytes(), path.name)
    assert note.memory.key == "reflection/user/topic-food"
    assert note.body.count("[[") == 3 and len(note.memory.sources) == 3
    _observe(vault, MORE_FOOD, start=10)  # three more: the same reflection, grown
    assert [p.name for p in (vault.root / "reflection").glob("*.md")] == [path.name]
    note = parse_note(path.read_bytes(), path.name)
    assert note.body.count("[[") == 6 and note.memory.text.startswith("6 memories")
    before = _files(vault)
    _observe(vault, FOOD)  # the same messages again: nothing new is learned
    report = vault.reflect(now=NOW)  # and a whole run finds the reflection as it would write it
    assert report.created == [] and report.updated == []
    assert _files(vault) == before


def _hand_edited_reflection(vault: Vault, words: str):
    """The food reflection, observed and then edited by a person (its summary's first words)."""
    _observe(vault, FOOD)
    (path,) = (vault.root / "reflection").glob("*.md")
    path.write_text(path.read_text().replace("3 memories", words))
    vault.sync()
    return path, path.read_bytes()


def test_the_automatic_pass_never_writes_over_a_hand_edit(vault: Vault):
    path, edited = _hand_edited_reflection(vault, "Three memories (mine)")
    _observe(vault, MORE_FOOD, start=10)
    assert path.read_bytes() == edited
    assert len(list((vault.root / "reflection").glob("*.md"))) == 1


def test_a_persons_reflection_covers_a_topic_that_comes_due_after_observe(vault: Vault):
    """The automatic pass finds a person's reflection by the words of the group's titles
    (`Index.person_reflections(linking=...)`), among others that link nothing of it."""
    _observe(vault, FOOD[:2])
    titles = sorted(p.stem for p in vault.root.rglob("*.md"))
    assert len(titles) == 2
    folder = vault.root / "reflection"
    folder.mkdir(exist_ok=True)
    links = "".join(f"- [[{t}]]\n" for t in titles)
    (folder / "My kitchen.md").write_text(f"---\ntype: reflection\n---\nCooking.\n\n{links}")
    (folder / "Other.md").write_text("---\ntype: reflection\n---\nRunning.\n\n- [[Runs]]\n")
    vault.sync()
    _observe(vault, FOOD[2:], start=2)  # the topic is due: 2 of its 3 members are linked
    assert sorted(p.name for p in folder.glob("*.md")) == ["My kitchen.md", "Other.md"]


def test_person_reflections_linking_reads_only_those_with_the_titles_words(vault: Vault):
    folder = vault.root / "reflection"
    for name, body in [("Kitchen", "- [[Bakes sourdough]]"), ("Runs", "- [[Runs often]]"),
                       ("Theirs", "- [[Bakes sourdough]]"), ("Odd", "- [[+++]]")]:  # fmt: skip
        subject = "subject: Ana\n" if name == "Theirs" else ""
        (folder / f"{name}.md").write_text(f"---\ntype: reflection\n{subject}---\nX.\n\n{body}\n")
    vault.sync()

    def paths(**kw):
        return sorted(r.path for r in vault.index.person_reflections("user", **kw))

    every = ["reflection/Kitchen.md", "reflection/Odd.md", "reflection/Runs.md"]
    assert paths() == every
    assert paths(linking=["bakes Sourdough"]) == ["reflection/Kitchen.md"]
    assert paths(linking=["Nothing like it"]) == []
    assert paths(linking=["+++", "Runs often"]) == every  # a title with no word: read them all


def test_a_plain_or_invalid_note_titled_like_a_member_never_joins_a_reflection(vault: Vault):
    """The automatic pass reads a topic's members by the titles its reflection links: a
    person's plain note (no status) or an invalid one under a member's title is no member."""
    _observe(vault, FOOD)
    (path,) = (vault.root / "reflection").glob("*.md")
    title = "Makes pizza from scratch on Fridays"
    assert f"[[{title}]]" in path.read_text("utf-8")
    (vault.root / "journal").mkdir()
    diary = "My cooking diary: curries, food, cooking every day.\n"  # the topic's own words
    (vault.root / "journal" / f"{title}.md").write_text(diary, "utf-8")
    (vault.root / "preference" / f"{title}.md").write_text(
        "---\nid: 01JDX3M7Q9T8ZK4W5N6P2R1S0V\ntype: preference\nconfidence: 7\n---\n" + diary,
        "utf-8",
    )
    vault.sync()
    _observe(vault, MORE_FOOD, start=10)  # the topic is due again
    note = parse_note(path.read_bytes(), path.name)
    assert note.memory.text.startswith("6 memories")
    assert note.body.count(f"[[{title}]]") == 1


def test_an_index_fault_while_reflecting_after_observe_is_repaired(vault: Vault, monkeypatch):
    """The reflection after observe runs guarded, as each step does: the damaged index is
    moved aside and rebuilt from the notes (said in one line), and the reflection is made."""
    from tota_vault.index import Index

    real = Index.apply
    faults = []

    def apply(self, *args, upserts=(), **kwargs):  # type: ignore[no-untyped-def]
        if not faults and any(r.path.startswith("reflection/") for r in upserts):
            faults.append(1)  # damaged once, as a disk does
            raise sqlite3.DatabaseError("database disk image is malformed")
        return real(self, *args, upserts=upserts, **kwargs)

    monkeypatch.setattr(Index, "apply", apply)
    notices: list[str] = []
    vault.on_notice = notices.append
    _observe(vault, FOOD[:2])
    report = vault.observe([{"role": "user", "content": FOOD[2], "id": "2"}], conversation_id="c1")
    assert faults and [o.action for o in report.outcomes] == ["create"]
    assert any("was damaged" in n for n in notices), notices
    assert len(list((vault.root / "reflection").glob("*.md"))) == 1
    assert vault.search("memories", type="reflection")


@pytest.mark.parametrize(
    ("fault", "says"),
    [
        (WriteError("reflection/Food.md: cannot write (No space left on device)"),
         "reflections not updated: reflection/Food.md: cannot write (No space left on device)"),
        (sqlite3.OperationalError("database or disk is full"), "reflections not updated: "),
    ],
)  # fmt: skip
def test_reflections_that_fail_leave_what_was_learned(vault: Vault, monkeypatch, fault, says):
    """A reflection's own failure, or the index's that no repair mends (a full disk), is said
    in the report; the memory learned before it is kept, indexed, and its turn too."""
    from tota_vault import reflect

    def failing(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise fault

    _observe(vault, FOOD[:2])
    monkeypatch.setattr(reflect, "note_new_members", failing)
    report = vault.observe([{"role": "user", "content": FOOD[2], "id": "2"}], conversation_id="c1")
    assert [o.action for o in report.outcomes] == ["create"]
    assert len(report.notes) == 1 and report.notes[0].startswith(says)
    monkeypatch.undo()
    assert [h.path for h in vault.search("pizza")] == [report.outcomes[0].path]
    assert vault.open_index().turns().counts()["turns"] == 3


@pytest.mark.parametrize(
    ("theme", "key"),
    [
        ("topic/food", "reflection/user/topic-food"),
        ("c", "reflection/user/c"),
        ("c++", "reflection/user/c-plus-plus"),
        ("c#", "reflection/user/c-sharp"),
        ("ferrovia labs", "reflection/user/ferrovia-labs"),
        ("at&t", "reflection/user/at-and-t"),
    ],
)
def test_a_reflection_key_tells_names_apart(theme: str, key: str):
    """Two themes never share a key: "C" and "C++" writing one reflection in turn made every
    run of reflect change it."""
    assert reflection_key("user", theme) == key


def test_the_report_names_the_reflection_observe_wrote(vault: Vault):
    """A user-style review: `tota extract --json` said 11 created and wrote 12 notes, the
    twelfth a reflection no report named."""
    messages = [{"role": "user", "content": t, "id": str(i)} for i, t in enumerate(FOOD)]
    report = vault.observe(messages, conversation_id="c1")
    (path,) = (vault.root / "reflection").glob("*.md")
    assert report.reflections == [path.relative_to(vault.root).as_posix()]
    assert report.to_dict()["reflections"] == report.reflections
    again = vault.observe(messages, conversation_id="c1")
    assert again.reflections == []  # nothing new learned, nothing reflected


def test_tota_extract_says_which_reflections_it_wrote(tmp_path):
    from typer.testing import CliRunner

    from tota_vault.cli import app

    chat = tmp_path / "food.txt"
    chat.write_text("".join(f"User: {text}\n" for text in FOOD), "utf-8")
    root = tmp_path / "v"
    runner = CliRunner()
    shown = runner.invoke(app, ["--vault", str(root), "extract", str(chat), "-v"])
    assert shown.exit_code == 0, shown.output
    (path,) = (root / "reflection").glob("*.md")
    assert "Reflections written or updated: 1" in shown.stdout
    assert f"reflect   reflection/{path.name}" in shown.stdout
    again = runner.invoke(app, ["--vault", str(root), "extract", str(chat), "--json"])
    assert json.loads(again.stdout)["reflections"] == []


def test_a_large_reflection_is_rewritten_after_observe_only_as_its_topic_grows_by_half(
    vault: Vault,
):
    """A reflection of nine waits for four new members (`AUTO_GROWTH`), not three."""
    even_more = ["I bake bagels at home.", "I cook risotto for my family.",
                 "I cook lentil soup in winter.", "I bake apple pie in autumn.",
                 "I make pasta by hand.", "I bake cookies with my kids.",
                 "I cook curry every Tuesday."]  # fmt: skip
    _observe(vault, FOOD + MORE_FOOD + even_more[:3])
    (path,) = (vault.root / "reflection").glob("*.md")
    assert parse_note(path.read_bytes(), path.name).body.count("[[") == 9
    before = path.read_bytes()
    _observe(vault, even_more[3:6], start=20)  # three new: a third of nine, not yet half
    assert path.read_bytes() == before
    _observe(vault, even_more[6:], start=30)  # the fourth: the reflection is rewritten
    assert parse_note(path.read_bytes(), path.name).body.count("[[") == 13


# --- what leaves a reflection: forgotten and superseded members -------------------------------


def _reflection(vault: Vault) -> tuple[str, str]:
    (path,) = (vault.root / "reflection").glob("*.md")
    return path.name, path.read_text("utf-8")


def _vault_text(vault: Vault) -> str:
    return "".join(p.read_text("utf-8") for p in vault.root.rglob("*.md"))


def test_a_forgotten_memory_leaves_the_reflection_that_linked_it(vault: Vault):
    _observe(vault, FOOD + MORE_FOOD)
    assert "[[Grills fish on the barbecue]]" in _reflection(vault)[1]
    vault.forget("Grills fish on the barbecue")
    name, text = _reflection(vault)
    assert "fish" not in _vault_text(vault).lower()  # its words are nowhere in the vault
    assert text.count("[[") == 5 and "5 memories" in text
    report = vault.reflect(now=NOW)
    assert report.created == [] and report.updated == []  # as a whole run would write it


def test_a_reflection_left_with_too_few_members_is_deleted_with_the_forgotten_words(
    vault: Vault,
):
    _observe(vault, FOOD)
    vault.forget("Bakes sourdough bread every weekend")
    assert list((vault.root / "reflection").glob("*.md")) == []
    assert "sourdough" not in _vault_text(vault).lower()
    assert [r.type for r in vault.index.get()].count("reflection") == 0


def test_a_hand_edited_reflection_is_never_rewritten_but_named_after_a_forget(vault: Vault):
    path, edited = _hand_edited_reflection(vault, "My three dishes")
    notices: list[str] = []
    vault.on_notice = notices.append
    vault.forget("Bakes sourdough bread every weekend")
    assert path.read_bytes() == edited
    assert any(n.startswith(f"reflection/{path.name} still links the forgotten") for n in notices)


def test_a_superseded_value_leaves_the_reflection_after_observe(vault: Vault):
    chat = [*FOOD, "I am vegetarian.", *MORE_FOOD]
    _observe(vault, chat)
    assert "[[Is vegetarian]]" in _reflection(vault)[1]
    _observe(vault, ["I am no longer vegetarian."], start=50)
    name, text = _reflection(vault)
    assert "[[Is vegetarian]]" not in text and "Is vegetarian." not in text


def test_new_members_read_from_their_columns_are_the_members_whole_rows_give(vault: Vault):
    """`note_new_members` reads only `_MEMBER_COLUMNS` of the new memories: the members (who,
    slot, topics, names) are those their whole rows give, tags and all."""
    from tota_vault import reflect

    _observe(vault, FOOD + MORE_FOOD)
    # A topic its statement does not give: only the tags column tells it.
    vault.remember("habit", "Practises piano scales every evening.", tags=["topic/food"])
    paths = sorted(_files(vault))
    whole = {r.path: reflect._member_of_row(r) for r in vault.index.rows_at(paths)}
    narrow = vault.index.rows_at(paths, columns=reflect._MEMBER_COLUMNS)
    assert {r.path: reflect._member_of_row(r) for r in narrow} == whole
    topics = [m.topics for m in whole.values() if m is not None]
    assert len(topics) == 7 and all("topic/food" in t for t in topics), topics
