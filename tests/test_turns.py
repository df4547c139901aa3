"""The conversation turns kept beside the memories: stored redacted, both roles, once; paused,
turned off, counted, cleared and forgotten; quoted by recall, never as a memory."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tota_vault import Vault, manage
from tota_vault.cli import app
from tota_vault.errors import ValidationError
from tota_vault.index import SCHEMA_VERSION, Index
from tota_vault.recall import context_block
from tota_vault.turns import TurnRecord, split_source, turn_records

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
    assert {t.message for t in kept(vault)} == {"m2", "m3"}


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
