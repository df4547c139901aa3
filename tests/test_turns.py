"""The conversation turns kept beside the memories: stored redacted, both roles, once; paused,
turned off, counted, cleared and forgotten; quoted by recall, never as a memory."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tota_vault import Vault, manage
from tota_vault.cli import app
from tota_vault.errors import ValidationError
from tota_vault.extract.messages import Message
from tota_vault.index import SCHEMA_VERSION, Index
from tota_vault.recall import context_block
from tota_vault.turns import (
    COMMON_MATCHES,
    NO_WEIGHT,
    SCORED_MATCHES,
    TurnQuery,
    TurnRecord,
    TurnStore,
    plan_query,
    repeats,
    split_source,
    turn_records,
)

runner = CliRunner()
#: Key-shaped, as a person would paste one (the detector's OpenAI family).
SECRET = "sk-proj-" + "4f9KxQ2mZ8vB7nT1wR6yL3pH5jD0cA9eU2sG"
CHAT = [
    {"role": "system", "content": "You are a helpful assistant.", "id": "s0"},
    {"role": "user", "content": "I run every morning, but my left knee hurts.", "id": "m1"},
    {"role": "assistant", "content": "Try swimming on Tuesdays to rest the knee.", "id": "m2"},
    {"role": "user", "content": f"Thanks. My OpenAI key is {SECRET} by the way.", "id": "m3"},
    {"role": "tool", "content": "weather: sunny", "id": "t1"},
]


def kept(vault: Vault) -> list[TurnRecord]:
    return list(vault.index.turns())


def test_both_roles_are_kept_once_and_the_plumbing_is_not(vault: Vault):
    vault.observe(CHAT, conversation_id="c1")
    turns = kept(vault)
    assert [(t.conversation, t.message, t.role) for t in turns] == [
        ("c1", "m1", "user"), ("c1", "m2", "assistant"), ("c1", "m3", "user"),
    ]  # fmt: skip
    vault.observe(CHAT, conversation_id="c1")  # a hook reads the whole conversation again
    assert kept(vault) == turns


def test_a_secret_is_kept_redacted_never_verbatim(vault: Vault):
    vault.observe(CHAT, conversation_id="c1")
    said = next(t.text for t in kept(vault) if t.message == "m3")
    assert SECRET not in said and "[REDACTED" in said and said.startswith("Thanks.")
    raw = vault.index_path.read_bytes() + Path(f"{vault.index_path}-wal").read_bytes()
    assert SECRET.encode() not in raw
    assert not any(SECRET in r.text for r in vault.recall("OpenAI key"))


def test_pause_and_dry_run_keep_nothing(vault: Vault):
    vault.observe(CHAT, conversation_id="c1", dry_run=True)
    vault.pause()
    vault.observe(CHAT, conversation_id="c2")
    assert kept(vault) == []
    vault.resume()
    vault.observe(CHAT, conversation_id="c2")
    assert {t.conversation for t in kept(vault)} == {"c2"}


def test_tota_toml_turns_them_off(vault: Vault):
    vault.observe(CHAT, conversation_id="c1")
    (vault.root / "tota.toml").write_text("[recall]\nturns = false\n")
    vault.observe(CHAT, conversation_id="c2")
    assert {t.conversation for t in kept(vault)} == {"c1"}
    assert all(r.kind == "memory" for r in vault.recall("swimming knee Tuesdays"))
    assert manage.overview(vault)["turns_kept"] == "off"


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("[recall]\nturns = 1\n", "recall.turns = 1 is not true or false"),
        ("[recall]\nturn = false\n", "recall.turn is not a setting"),
        ("recall = 3\n", "[recall] must be a table"),
    ],
)
def test_a_bad_recall_setting_is_one_line_naming_it(vault: Vault, toml: str, message: str):
    (vault.root / "tota.toml").write_text(toml)
    with pytest.raises(ValidationError, match=message.replace("[", r"\[").replace("]", r"\]")):
        vault.observe(CHAT, conversation_id="c1")


def test_recall_quotes_what_the_assistant_said(vault: Vault):
    vault.observe(CHAT, conversation_id="c1")
    results = vault.recall("Which sport did you suggest on Tuesdays?")
    quote = next(r for r in results if r.kind == "turn")  # the best turn is the one said
    assert quote.role == "assistant" and quote.subject == "assistant"
    assert quote.text == "Try swimming on Tuesdays to rest the knee."
    assert quote.sources == ("c1#m2",) and quote.id is None and quote.type is None
    block = context_block(results)
    assert '- assistant said: "Try swimming on Tuesdays to rest the knee." (c1#m2)' in block
    assert "### said in past conversations" in block


def test_the_memory_takes_the_place_of_its_turn(vault: Vault):
    vault.observe(CHAT, conversation_id="c1")
    results = vault.recall("running every morning knee")
    cited = [s for r in results for s in r.sources]
    assert len(cited) == len(set(cited))  # the user's turn m1 is not quoted beside its memory
    memory = next(r for r in results if r.kind == "memory" and "c1#m1" in r.sources)
    assert not any(r.kind == "turn" and r.sources == ("c1#m1",) for r in results)
    assert memory.id is not None


def test_a_reply_found_by_the_words_of_a_learned_turn_is_not_quoted(vault: Vault):
    chat = [
        {"role": "user", "content": "I'm allergic to peanuts.", "id": "1"},
        {"role": "assistant", "content": "Noted. My name is Claude, by the way.", "id": "2"},
    ]
    vault.observe(chat, conversation_id="c1")
    assert [(r.kind, r.sources) for r in vault.recall("peanuts")] == [("memory", ("c1#1",))]
    # Its own words still find it.
    assert ("turn", ("c1#2",)) in [(r.kind, r.sources) for r in vault.recall("Claude")]


def test_a_question_about_the_person_quotes_their_words_before_the_reply(vault: Vault):
    chat = [
        {"role": "user", "content": "The tulip bulbs went in on Sunday.", "id": "1"},
        {"role": "assistant", "content": "Tulip bulbs planted in autumn bloom in spring: "
         "tulip bulbs love sun.", "id": "2"},
    ]  # fmt: skip
    vault.observe(chat, conversation_id="c1")
    # bm25 ranks the reply first (it says the words twice); the question is the person's.
    mine = vault.recall("When did I plant my tulip bulbs?")
    assert [(r.kind, r.role) for r in mine] == [("turn", "user"), ("turn", "assistant")]
    theirs = vault.recall("What did you say about tulip bulbs?")
    assert [(r.kind, r.role) for r in theirs] == [("turn", "assistant"), ("turn", "user")]


def test_a_limit_counts_memories_and_turns_alike(vault: Vault):
    for n in range(6):
        vault.observe(
            [{"role": "user", "content": f"I bought {n} red apples at the market today."},
             {"role": "assistant", "content": f"{n} red apples make a fine apple pie."}],
            conversation_id=f"c{n}",
        )  # fmt: skip
    # Six memories (each lifted by the turn it was learned from), six assistant turns.
    results = vault.recall("red apples", 8)
    assert len(results) == 8 and {r.kind for r in results} == {"memory", "turn"}
    cited = [s for r in results for s in r.sources]
    assert len(cited) == len(set(cited))
    assert all(r.kind == "memory" for r in vault.recall("red apples", 8, type="episode"))


def test_a_superseded_memory_is_not_quoted_back(vault: Vault):
    vault.observe([{"role": "user", "content": "I live in Porto."}], conversation_id="a")
    vault.observe([{"role": "user", "content": "I live in Lisbon now."}], conversation_id="b")
    assert not any("Porto" in r.text for r in vault.recall("Porto or Lisbon?"))
    assert any(r.kind == "turn" for r in vault.recall("Porto", include_archived=False)) is False


def test_overview_counts_them_and_the_cli_says_so(vault: Vault):
    vault.observe(CHAT, conversation_id="c1")
    vault.observe(CHAT[1:3], conversation_id="c2")
    data = manage.overview(vault)
    assert (data["turns"], data["conversations"], data["turns_kept"]) == (5, 2, "on")
    vault.close()
    done = runner.invoke(app, ["overview"], env={"TOTA_VAULT": str(vault.root)})
    assert done.exit_code == 0, done.output
    assert "conversation turns: 5 of 2 conversations" in done.output
    done = runner.invoke(app, ["overview", "--json"], env={"TOTA_VAULT": str(vault.root)})
    assert json.loads(done.output)["turns"] == 5


def test_clear_deletes_every_turn(vault: Vault):
    vault.observe(CHAT, conversation_id="c1")
    report = manage.clear(vault)
    assert report.turns == 3 and report.to_dict()["turns"] == 3
    assert kept(vault) == [] and vault.index.turns().counts()["turns"] == 0
    assert not vault.recall("swimming Tuesdays")


def test_forgetting_a_memory_forgets_its_words_for_good(vault: Vault):
    vault.observe(CHAT, conversation_id="c1")
    memory = next(r for r in vault.recall("running knee") if "c1#m1" in r.sources)
    vault.forget(memory.path)
    assert "m1" not in {t.message for t in kept(vault)}
    assert not any("c1#m1" in r.sources for r in vault.recall("running every morning knee"))
    vault.observe(CHAT, conversation_id="c1")  # the same conversation read again
    assert "m1" not in {t.message for t in kept(vault)}
    # The reply after it said "the knee" again: forgotten with it (a user review found such
    # replies quoted back after the fact was forgotten), and not kept again either.
    assert {t.message for t in kept(vault)} == {"m3"}


def test_forgetting_a_memory_forgets_the_reply_that_repeats_it(vault: Vault):
    chat = [
        {"role": "user", "content": "I'm lactose intolerant, so no dairy suggestions.", "id": "1"},
        {"role": "assistant", "content": "Noted: no dairy. Oat milk works well.", "id": "2"},
        {"role": "user", "content": "Great, thanks!", "id": "3"},
    ]
    vault.observe(chat, conversation_id="c1")
    [memory] = [r for r in vault.recall("lactose") if r.kind == "memory"]
    vault.forget(memory.id)
    assert vault.recall("dairy lactose oat milk") == []
    assert [t.message for t in kept(vault)] == ["3"] and kept(vault)[0].context == ""
    vault.observe(chat, conversation_id="c1")
    assert [t.message for t in kept(vault)] == ["3"]
    assert vault.index.integrity_problems() == []


def test_forgetting_one_fact_of_a_message_keeps_the_reply_about_another(vault: Vault):
    chat = [
        {"role": "user", "content": "I work at Northwind. I'm allergic to peanuts.", "id": "1"},
        {"role": "assistant", "content": "Noted: no peanuts in your recipes.", "id": "2"},
    ]
    vault.observe(chat, conversation_id="c1")
    work = next(
        r for r in vault.recall("Northwind") if r.kind == "memory" and "Northwind" in r.text
    )
    vault.forget(work.id)
    assert [t.message for t in kept(vault)] == ["2"]  # the reply says nothing of Northwind
    peanuts = next(r for r in vault.recall("peanuts") if r.kind == "memory")
    vault.forget(peanuts.id)
    assert kept(vault) == []


@pytest.mark.parametrize(
    ("reply", "said", "expected"),
    [
        ("Noted: no dairy.", "I'm lactose intolerant, so no dairy suggestions.", True),
        ("Try swimming to rest the knee.", "My left knee hurts.", True),
        ("Noted, I will remember that.", "I'm allergic to peanuts.", False),
        ("Okay, I will be there.", "I will be there at nine.", False),  # function words only
        # a code review: one word every reply may hold took an unrelated reply with it
        (
            "Have a great day! Your Lisbon flight leaves at 7:40.",
            "Works at Northwind four days a week.",
            False,
        ),
        ("Peanuts are common allergens.", "I'm allergic to peanut butter.", True),  # stemmed
    ],
)
def test_repeats(reply: str, said: str, expected: bool):
    assert repeats(reply, said) is expected


def test_forget_conversation_and_the_forget_hook(vault: Vault):
    vault.observe(CHAT, conversation_id="c1")
    vault.observe(CHAT, conversation_id="c2")
    store = vault.index.turns()
    assert manage.forget_conversations(vault.index, ["c2#m2", "nonsense", "c9#m1"]) == 1
    assert store.forget_conversation("c1") == 3
    assert {(t.conversation, t.message) for t in kept(vault)} == {("c2", "m1"), ("c2", "m3")}


def test_an_index_of_the_previous_schema_is_rebuilt_with_the_turns_table(tmp_path: Path):
    path = tmp_path / "index.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY)")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    conn.close()
    with Index.open(path) as index:
        assert index.rebuilt
        assert index.turns().add([TurnRecord("c", "1", "user", "user", None, "hello")]) == 1
        assert index.turns().search(["hello"], limit=5)[0].source == "c#1"


def test_a_turn_found_through_its_context_only_names_the_turn_before(tmp_path: Path):
    with Index.open(tmp_path / "index.db") as index:
        store = index.turns()
        from tota_vault.extract.messages import Message

        said = ["What are you researching?", "Adoption agencies, mostly.", "Who else is?"]
        roles = ["user", "assistant", "user"]
        messages = [
            Message(r, t, str(n)) for n, (r, t) in enumerate(zip(roles, said, strict=True), 1)
        ]
        records = turn_records("c", messages)
        assert store.add(records) == 3
        hits = {h.message: h for h in store.search(["researching", "adoption"], limit=5)}
        assert hits["1"].echo_of is None and hits["2"].echo_of is None  # their own words
        only_context = {h.message: h for h in store.search(["researching"], limit=5)}
        assert only_context["2"].echo_of == "1"
        assert only_context["2"].echo_source == "c#1"
        assert only_context["1"].echo_source is None


def test_an_echo_names_whose_words_it_was_found_by(tmp_path: Path):
    """An echo matched the turn before's words, so it counts as that turn's speaker's for
    the rule that ranks a speaker's turns after the others (`recall.turns_later`)."""
    with Index.open(tmp_path / "index.db") as index:
        store = index.turns()
        store.add([
            TurnRecord("c", "1", "user", "Ana", None, "Any trail to hike near Sintra?"),
            TurnRecord("c", "2", "assistant", "assistant", None, "Try the Ridgeback loop.", "Any trail"),
            TurnRecord("c", "3", "user", "Ana", None, "Great, noted.", "Try the Ridgeback loop."),
        ])  # fmt: skip
        hits = {h.message: h for h in store.search(["ridgeback"], limit=5)}
        echo, own = hits["3"], hits["2"]
        assert (echo.echo_of, echo.echo_role, echo.echo_speaker) == ("2", "assistant", "assistant")
        assert (echo.matched_role, echo.matched_speaker) == ("assistant", "assistant")
        assert (echo.role, echo.speaker) == ("user", "Ana")  # who said it is unchanged
        assert own.echo_role is None and (own.matched_role, own.matched_speaker) == (
            "assistant",
            "assistant",
        )


@pytest.mark.parametrize(
    ("source", "parts"),
    [
        ("c1#m2", ("c1", "m2")),
        ("chat#7#3", ("chat#7", "3")),  # the message id is after the last '#'
        ("c1", None),
        ("#m2", None),
        ("c1#", None),
    ],
)
def test_split_source(source: str, parts: tuple[str, str] | None):
    assert split_source(source) == parts


def test_turn_records_read_the_cleaned_messages():
    from tota_vault.extract.messages import Message

    when = datetime(2026, 5, 1, 9, 30)
    messages = [
        Message("user", "  hello there  ", "1", name="Ana", timestamp=when),
        Message("assistant", "   ", "2"),
        Message("system", "be brief", "3"),
    ]
    assert turn_records("c", messages) == [
        TurnRecord("c", "1", "user", "Ana", "2026-05-01T09:30:00", "hello there")
    ]


def test_recall_json_marks_a_quote(vault: Vault):
    vault.observe(CHAT, conversation_id="c1")
    vault.close()
    done = runner.invoke(
        app, ["recall", "swimming on Tuesdays", "--format", "json"],
        env={"TOTA_VAULT": str(vault.root)},
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    rows = json.loads(done.output)
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))  # the list's own order
    quote = next(r for r in rows if r["kind"] == "turn")
    assert quote["role"] == "assistant" and quote["sources"] == ["c1#m2"]


def test_a_turn_is_found_by_the_words_of_the_turn_it_answered(vault: Vault):
    people = [
        {
            "role": "user",
            "name": "Ana",
            "content": "What are you researching these days?",
            "id": "1",
        },
        {"role": "user", "name": "Rui", "content": "Adoption agencies, mostly.", "id": "2"},
    ]
    vault.observe(people[:1], conversation_id="c1")
    vault.observe(people[1:], conversation_id="c1")  # context comes from the kept turn before
    assert [t.context for t in kept(vault)] == ["", "What are you researching these days?"]
    found = vault.recall("What is Rui researching?")
    assert any(r.sources == ("c1#2",) for r in found)
    quoted = next(r for r in found if r.kind == "turn" and r.sources == ("c1#2",))
    assert quoted.text == "Adoption agencies, mostly."  # the context is searched, not quoted


def test_turn_records_chain_the_context_and_cut_it():
    from tota_vault.extract.messages import Message
    from tota_vault.turns import CONTEXT_CHARS

    long = "word " * 200
    records = turn_records("c", [Message("user", long, "1"), Message("assistant", "ok", "2")],
                           previous="before")  # fmt: skip
    assert records[0].context == "before"
    assert records[1].context == long.strip()[:CONTEXT_CHARS]


# --- planning the turn query: its cost bounded at any size (issue #12, "recall stays fast") --

#: Which made-up turns each term is in: the plain-data stand-in for a large store's index.
POSTINGS: dict[str, set[int]] = {
    "zero": set(),
    "a": set(range(3)),  # rare (under 10)
    "b": set(range(10, 18)),
    "e": set(range(20, 26)),
    "f": set(range(30, 39)),
    "c": set(range(100)),  # common (10 or more)
    "d": set(range(50, 150)),
    "g": set(range(200, 260)),  # common, in no turn with c or d
}
QUOTED = re.compile(r'"((?:[^"]|"")*)"')


def counting(postings: dict[str, set[int]], caps: list[int]) -> Callable[[str, int], int]:
    """`matches` over made-up postings: the expressions `plan_query` writes (a quoted term, an
    OR or an AND of them, the AND in the turn's own columns) counted up to the cap."""

    def matches(expression: str, cap: int) -> int:
        caps.append(cap)
        found = [postings[t.replace('""', '"')] for t in QUOTED.findall(expression)]
        rows = set.intersection(*found) if " AND " in expression else set.union(*found)
        return min(len(rows), cap)

    return matches


def own(*terms: str) -> str:
    return "{text speaker} : (" + " AND ".join(f'"{t}"' for t in terms) + ")"


@pytest.mark.parametrize(
    ("terms", "query"),
    [
        pytest.param((), TurnQuery(""), id="no terms"),
        pytest.param(("zero",), TurnQuery(""), id="no turn holds it"),
        pytest.param(("a", "b"), TurnQuery('"a" OR "b"'), id="rare terms ORed"),
        pytest.param(("c", "a", "d"), TurnQuery('"a"'), id="common ones left out"),
        pytest.param(
            ("zero", "c", "d"),
            TurnQuery(own("c", "d"), ranked=False),
            id="a term in no turn does not count as rare",
        ),
        pytest.param(
            ("f", "b", "e"),
            TurnQuery('"b" OR "e"'),
            id="rarest first under the bound, kept in the message's order",
        ),
        pytest.param(("f", "b"), TurnQuery('"b"'), id="the rarest is kept alone"),
        pytest.param(("c", "d"), TurnQuery(own("c", "d"), ranked=False), id="every term common"),
        pytest.param(
            ("c", "d", "g"),
            TurnQuery(own("c", "d"), ranked=False),
            id="no turn says all: the two weightiest",
        ),
        pytest.param(
            ("g", "c", "d"), TurnQuery(own("g"), ranked=False), id="nor the two: the weightiest"
        ),
        pytest.param(("c",), TurnQuery(own("c"), ranked=False), id="one common term"),
    ],
)
def test_plan_query_on_made_up_counts(terms: tuple[str, ...], query: TurnQuery):
    caps: list[int] = []
    assert plan_query(terms, counting(POSTINGS, caps), common=10, scored=16) == query
    assert all(cap <= 10 for cap in caps)  # no count walks further than `common`


def test_the_rare_terms_kept_stay_under_the_bound():
    caps: list[int] = []
    terms = ("f", "b", "e", "a")  # 9 + 8 + 6 + 3 matches
    query = plan_query(terms, counting(POSTINGS, caps), common=10, scored=16)
    kept = QUOTED.findall(query.match)
    assert kept == ["e", "a"] and sum(len(POSTINGS[t]) for t in kept) < 16
    assert plan_query(terms, counting(POSTINGS, caps), common=10, scored=100) == TurnQuery(
        '"f" OR "b" OR "e" OR "a"'
    )  # under a large enough bound, nothing is cut: a small store is ranked whole


def test_the_bounds_keep_a_small_store_whole():
    """LoCoMo's conversations (at most 680 turns, a term in at most 550) are never cut."""
    assert COMMON_MATCHES > 680 and SCORED_MATCHES > 1453


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TurnStore]:
    """A real index with twelve turns of one conversation: every one says "plan"; 4, 8 and 12
    say "week" too, 6 says "knee"; 11 is a reply that does not say "plan" itself."""
    with Index.open(tmp_path / "index.db") as index:
        turns = index.turns()
        said = [f"turn {n}: a plan" + (" for the week" if n % 4 == 0 else "") for n in range(1, 13)]
        said[5] += ", easy on the knee"
        said[10] = "turn 11: sounds good"
        messages = [Message("user", text, str(n)) for n, text in enumerate(said, 1)]
        turns.add(turn_records("c", messages))
        yield turns


def test_a_message_of_common_words_reads_the_newest_turns_saying_them(store: TurnStore):
    query = store.plan(["plan"], common=5)
    assert query == TurnQuery(own("plan"), ranked=False)
    hits = store.run(query, limit=3)
    # Newest first, turn 11 skipped: "plan" is only in its context (the turn before).
    assert [h.message for h in hits] == ["12", "10", "9"]
    assert all(h.score == 0.0 and h.echo_of is None for h in hits)


def test_every_common_word_is_required_then_the_two_weightiest(store: TurnStore):
    query = store.plan(["week", "plan"], common=3)
    assert not query.ranked
    assert [h.message for h in store.run(query, limit=10)] == ["12", "8", "4"]
    query = store.plan(["week", "plan", "turn", "knee"], common=1)  # none says all four
    assert query == TurnQuery(own("week", "plan"), ranked=False)


def test_rare_terms_are_ranked_by_bm25_as_before(store: TurnStore):
    query = store.plan(["knee", "week", "plan"], common=6)  # 2, 5 and 12 turns hold them
    assert query == TurnQuery('"knee" OR "week"')
    hits = {h.message: h for h in store.run(query, limit=10)}
    assert set(hits) == {"4", "5", "6", "7", "8", "9", "12"}  # 5, 7, 9: in their context
    scores = [h.score for h in hits.values()]
    assert scores == sorted(scores) and scores[0] < 0
    assert {m: h.echo_of for m, h in hits.items() if h.echo_of} == {"5": "4", "7": "6", "9": "8"}
    # At the shipped bounds this small store is searched whole, every term ORed.
    assert store.plan(["knee", "week", "plan"]) == TurnQuery('"knee" OR "week" OR "plan"')


def test_a_turn_bm25_finds_nothing_in_is_left_out(store: TurnStore):
    # "plan" is in 11 of the 12 turns: bm25 gives it its floor IDF, so a turn saying only it
    # scores about 1e-6 (a speaker's name in a chat between two people is such a word).
    query = store.plan(["knee", "week", "plan"])
    hits = store.run(query, limit=12)
    assert {h.message for h in hits} == {"4", "5", "6", "7", "8", "9", "12"}
    assert all(-h.score >= NO_WEIGHT for h in hits)
    # When no turn weighs more, bm25's order is all there is: every match kept (11 through
    # its context).
    alone = store.run(store.plan(["plan"]), limit=12)
    assert len(alone) == 12 and all(-h.score < NO_WEIGHT for h in alone)
    # Read unscored (every word common), the newest turns saying it are still quoted.
    assert [h.message for h in store.run(store.plan(["plan"], common=5), limit=2)] == ["12", "10"]


@pytest.mark.parametrize("term", ["c++", "NOT", 'say "hi', "title:x", "{text}", "plan*"])
def test_any_term_is_a_valid_query_either_way(store: TurnStore, term: str):
    for common in (COMMON_MATCHES, 1):  # ranked, and (when it is found) read newest first
        store.run(store.plan([term, "plan"], common=common), limit=5)  # FTS5 raises on bad syntax


def test_forgetting_a_memory_takes_its_words_out_of_the_next_turn_too(vault: Vault):
    """The reply after a forgotten message kept its start as context (searchable): forgetting
    clears that too, so recall finds the forgotten words nowhere."""
    chat = [
        {"role": "user", "content": "I'm allergic to peanuts.", "id": "1"},
        {"role": "assistant", "content": "Noted, I will remember that.", "id": "2"},
    ]
    vault.observe(chat, conversation_id="c1")
    [memory] = [r for r in vault.recall("peanuts") if r.kind == "memory"]
    vault.forget(memory.id)
    assert vault.recall("peanuts allergy") == []
    assert [t.context for t in kept(vault)] == [""]
    assert vault.index.integrity_problems() == []  # the turns' FTS rows were kept in step
    assert [r.sources for r in vault.recall("noted")] == [("c1#2",)]  # its own words stay


def test_reindex_keeps_every_turn_and_says_so(vault: Vault):
    """The review's case: `tota overview` said 9 turns of 3 conversations before `tota
    reindex` and 0 of 0 after. The turns are copied from the old index, in their order, and
    are found and quoted as before; the old file is gone."""
    for cid in ("c1", "c2", "c3"):
        vault.observe(CHAT, conversation_id=cid)
    before = kept(vault)
    assert len(before) == 9
    vault.close()
    done = runner.invoke(app, ["reindex"], env={"TOTA_VAULT": str(vault.root)})
    assert done.exit_code == 0, done.output
    assert "conversation turns: 9 kept, 0 dropped" in done.output
    overview = runner.invoke(app, ["overview"], env={"TOTA_VAULT": str(vault.root)})
    assert "conversation turns: 9 of 3 conversations" in overview.output
    with Vault.open(vault.root) as again:
        assert list(again.open_index().turns()) == before
        assert any(r.kind == "turn" for r in again.recall("swimming on Tuesdays"))
    assert sorted(p.name for p in (vault.root / ".tota").iterdir()) == ["index.db"]
    report = json.loads(
        runner.invoke(app, ["reindex", "--json"], env={"TOTA_VAULT": str(vault.root)}).output
    )
    assert report["turns"] == {"kept": 9, "found": 9, "reason": "", "dropped": 0}


def test_reindex_of_an_unreadable_index_says_its_turns_are_lost(vault: Vault):
    vault.observe(CHAT, conversation_id="c1")
    vault.close()
    index = vault.root / ".tota" / "index.db"
    for extra in index.parent.glob("index.db-*"):
        extra.unlink()
    index.write_bytes(b"not a database " * 400)
    done = runner.invoke(app, ["reindex"], env={"TOTA_VAULT": str(vault.root)})
    assert done.exit_code == 0, done.output
    assert "conversation turns: the old index's are lost (it cannot be opened" in done.output
    with Vault.open(vault.root) as again:
        assert list(again.open_index().turns()) == []
        assert again.stats()["memories"] >= 1  # the notes are indexed whatever the old file was


def test_carry_over_refuses_another_schema_and_a_damaged_turns_table(tmp_path: Path):
    old = tmp_path / "old.db"
    with Index.open(old) as index:
        index.turns().add(
            [TurnRecord("c", str(i), "user", "user", None, f"hi {i}") for i in range(3)]
        )
    with Index.open(tmp_path / "new.db") as index:
        store = index.turns()
        assert store.carry_over(str(old), schema_version=SCHEMA_VERSION + 1) == (
            0, None, f"its schema is version {SCHEMA_VERSION}, not {SCHEMA_VERSION + 1}",
        )  # fmt: skip
        assert store.carry_over(str(old), schema_version=SCHEMA_VERSION) == (3, 3, "")
        assert [t.text for t in store] == ["hi 0", "hi 1", "hi 2"]
        assert store.search(["hi"], limit=5)  # through turns_ai: searchable
    conn = sqlite3.connect(old)  # the turns' UNIQUE index zeroed: the table is damaged
    root = conn.execute(
        "SELECT rootpage FROM sqlite_master WHERE tbl_name = 'turns' AND type = 'index'"
    ).fetchone()[0]
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(old.read_bytes())
    data[(root - 1) * page : root * page] = bytes(page)
    old.write_bytes(bytes(data))
    with Index.open(tmp_path / "third.db") as index:
        carried = index.turns().carry_over(str(old), schema_version=SCHEMA_VERSION)
        assert (carried.kept, carried.found) == (0, None)
        assert carried.reason.startswith(("its turns are damaged", "it cannot be read"))
        assert list(index.turns()) == []
