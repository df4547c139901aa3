"""Chat-app exports (ChatGPT's and Claude.ai's conversations.json) and conversation ids.

The exports are built here in the shape the apps write (see tota_vault/extract/exports.py):
a ChatGPT mapping with an edited prompt and a regenerated reply (only the current_node branch
counts), a hidden system message and hidden custom instructions, a tool call and its result,
an image beside text; a Claude.ai export with tool use, thinking and an attachment. The
regression at the end: two different files that share a name are two conversations, and the
second is learned, not skipped as "already observed".
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from conftest import single
from typer.testing import CliRunner

from tota_vault.cli import app
from tota_vault.errors import ValidationError
from tota_vault.extract.exports import detect_export
from tota_vault.extract.formats import parse_conversation, read_conversations

runner = CliRunner()
T0 = datetime(2024, 3, 1, 9, 0).timestamp()


def node(nid, parent, children, role=None, parts=None, *, ctype="text", t=0.0, **extra):
    """One node of a ChatGPT mapping; `role=None` is a node without a message (the root)."""
    message = None
    if role is not None:
        message = {
            "id": nid,
            "author": {"role": role, "name": None, "metadata": {}},
            "create_time": T0 + t if t is not None else None,
            "update_time": None,
            "content": {"content_type": ctype, "parts": parts or []},
            "status": "finished_successfully",
            "end_turn": True,
            "weight": 1.0,
            "metadata": extra.pop("metadata", {}),
            "recipient": extra.pop("recipient", "all"),
        }
        if ctype in ("code", "execution_output"):
            message["content"] = {"content_type": ctype, "text": parts[0]}
    return {"id": nid, "message": message, "parent": parent, "children": children}


def chatgpt_conversation() -> dict:
    """Porto, an edited prompt (tea -> coffee), a regenerated reply, a tool call, an image."""
    nodes = [
        node("root", None, ["sys"]),
        node(
            "sys",
            "root",
            ["ctx"],
            "system",
            [""],
            metadata={"is_visually_hidden_from_conversation": True},
        ),
        node(
            "ctx",
            "sys",
            ["u1"],
            "user",
            ["I live in Paris."],
            ctype="user_editable_context",
            t=1,
            metadata={"is_visually_hidden_from_conversation": True},
        ),
        node("u1", "ctx", ["a1-old", "a1"], "user", ["I live in Porto."], t=10),
        node("a1-old", "u1", [], "assistant", ["I'm Porto-bound too, I love it."], t=11),
        node("a1", "u1", ["u2-old", "u2"], "assistant", ["Porto is lovely."], t=12),
        node("u2-old", "a1", ["a2-old"], "user", ["I prefer green tea over coffee."], t=20),
        node("a2-old", "u2-old", [], "assistant", ["Noted."], t=21),
        node("u2", "a1", ["call"], "user", ["I prefer espresso over filter coffee."], t=30),
        node(
            "call",
            "u2",
            ["tool"],
            "assistant",
            ["search('espresso bars porto')"],
            ctype="code",
            t=31,
            recipient="browser",
        ),
        node(
            "tool",
            "call",
            ["a2"],
            "tool",
            ["I'm allergic to the results."],
            ctype="execution_output",
            t=32,
        ),
        node("a2", "tool", ["u3"], "assistant", ["Here are three espresso bars."], t=33),
        node(
            "u3",
            "a2",
            ["a3"],
            "user",
            [
                {
                    "content_type": "image_asset_pointer",
                    "asset_pointer": "file-service://file-abc",
                    "size_bytes": 1234,
                    "width": 10,
                    "height": 10,
                },
                "I'm allergic to peanuts.",
            ],
            ctype="multimodal_text",
            t=40,
        ),
        node("a3", "u3", [], "assistant", ["I'll keep that in mind."], t=None),
    ]
    return {
        "title": "Coffee in Porto",
        "create_time": T0,
        "update_time": T0 + 50,
        "mapping": {n["id"]: n for n in nodes},
        "moderation_results": [],
        "current_node": "a3",
        "plugin_ids": None,
        "conversation_id": "6a1f-porto",
        "conversation_template_id": None,
        "gizmo_id": None,
        "is_archived": False,
        "default_model_slug": "gpt-4o",
        "id": "6a1f-porto",
    }


def chatgpt_second() -> dict:
    nodes = [
        node("r", None, ["m1"]),
        node("m1", "r", ["m2"], "user", ["My sister lives in Berlin."], t=100),
        node("m2", "m1", [], "assistant", ["Berlin is great."], t=101),
    ]
    return {"title": "Family", "create_time": T0 + 100, "mapping": {n["id"]: n for n in nodes},
            "current_node": "m2", "conversation_id": "77b2-berlin", "id": "77b2-berlin"}  # fmt: skip


def claude_export() -> list[dict]:
    return [
        {
            "uuid": "c-0001",
            "name": "Running",
            "created_at": "2024-05-02T08:00:00.000000Z",
            "updated_at": "2024-05-02T08:05:00.000000Z",
            "account": {"uuid": "acct"},
            "chat_messages": [
                {"uuid": "h1", "sender": "human", "text": "I usually go for a run every morning.",
                 "content": [{"type": "text", "text": "I usually go for a run every morning.",
                              "start_timestamp": None, "stop_timestamp": None, "citations": []}],
                 "created_at": "2024-05-02T08:00:00.000000Z", "attachments": [
                     {"file_name": "notes.txt", "file_type": "txt", "file_size": 20,
                      "extracted_content": "I live in Oslo."}], "files": []},
                {"uuid": "a1", "sender": "assistant", "text": "",
                 "content": [{"type": "thinking", "thinking": "The user lives in Rome."},
                             {"type": "tool_use", "name": "web_search", "input": {"q": "runs"}},
                             {"type": "tool_result", "content": [{"type": "text", "text": "I work at Acme."}]},
                             {"type": "text", "text": "A morning run is a great habit."}],
                 "created_at": "2024-05-02T08:00:05.000000Z", "attachments": [], "files": []},
            ],
        },
        {
            "uuid": "c-0002",
            "name": "",
            "created_at": "2024-05-03T10:00:00Z",
            "chat_messages": [
                {"uuid": "h2", "sender": "human", "text": "I work at a small robotics startup.",
                 "created_at": "2024-05-03T10:00:00Z"},
            ],
        },
        {"uuid": "c-empty", "name": "Nothing yet", "created_at": "2024-05-04T10:00:00Z", "chat_messages": []},
    ]  # fmt: skip


def tota(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def extract(vault: Path, *args: str, input: str | None = None) -> dict:
    result = tota("--vault", str(vault), "extract", *args, "--json", input=input)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def sources(vault: Path) -> set[str]:
    """Every source the vault's notes cite, read from the files."""
    found = set()
    for path in vault.rglob("*.md"):
        text = path.read_text("utf-8")
        if "sources:" in text:
            block = text.split("sources:\n", 1)[1]
            for line in block.splitlines():
                if not line.startswith("  - "):
                    break
                found.add(line[4:])
    return found


# --- reading ---------------------------------------------------------------------------------


def test_chatgpt_follows_current_node_and_keeps_only_the_conversation():
    text = json.dumps([chatgpt_conversation(), chatgpt_second()])
    first, second = read_conversations(text, source="conversations.json")
    assert (first.id, first.title) == ("6a1f-porto", "Coffee in Porto")
    assert [(m.role, m.id, m.content) for m in first.messages] == [
        ("user", "u1", "I live in Porto."),
        ("assistant", "a1", "Porto is lovely."),  # the regenerated reply, not a1-old
        ("user", "u2", "I prefer espresso over filter coffee."),  # the edit, not u2-old
        ("assistant", "a2", "Here are three espresso bars."),  # not the call or the tool output
        ("user", "u3", "I'm allergic to peanuts."),  # the image pointer dropped, its text kept
        ("assistant", "a3", "I'll keep that in mind."),
    ]
    assert first.messages[0].timestamp == datetime(2024, 3, 1, 9, 0, 10)
    assert first.messages[-1].timestamp == datetime(2024, 3, 1, 9, 0)  # none: the chat's time
    assert (second.id, [m.content for m in second.messages]) == (
        "77b2-berlin", ["My sister lives in Berlin.", "Berlin is great."]
    )  # fmt: skip


def test_an_exports_id_with_a_hash_is_read_with_a_dash(tmp_path: Path):
    """A review: an export whose second conversation's id held a "#" stopped `tota extract`
    there (the id was refused), so the third was never learned, on any run."""
    second = chatgpt_second()
    second["id"] = second["conversation_id"] = "export#2"
    text = json.dumps([chatgpt_conversation(), second])
    assert [c.id for c in read_conversations(text)] == ["6a1f-porto", "export-2"]
    path = tmp_path / "conversations.json"
    path.write_text(text, "utf-8")
    done = runner.invoke(app, ["--vault", str(tmp_path / "v"), "extract", str(path)])
    assert done.exit_code == 0, done.output
    assert any(s.startswith("export-2#") for s in sources(tmp_path / "v"))


def test_chatgpt_without_current_node_reads_the_last_leaf_and_survives_a_cycle():
    conversation = chatgpt_second()
    del conversation["current_node"]
    conversation["mapping"]["r"]["parent"] = "m2"  # a broken file: the root points at a leaf
    [read] = read_conversations(json.dumps([conversation]))
    assert [m.content for m in read.messages] == ["My sister lives in Berlin.", "Berlin is great."]


def test_chatgpt_voice_transcription_is_the_persons_words():
    conversation = chatgpt_second()
    conversation["mapping"]["m1"]["message"]["content"] = {
        "content_type": "multimodal_text",
        "parts": [
            {"content_type": "audio_transcription", "text": "I'm learning Spanish this year."},
            {"content_type": "audio_asset_pointer", "asset_pointer": "sediment://file_1"},
        ],
    }
    [read] = read_conversations(json.dumps([conversation]))
    assert read.messages[0].content == "I'm learning Spanish this year."


def test_claude_ai_reads_text_blocks_only():
    first, second = read_conversations(json.dumps(claude_export()), source="conversations.json")
    assert (first.id, first.title) == ("c-0001", "Running")
    assert [(m.role, m.id, m.content) for m in first.messages] == [
        ("user", "h1", "I usually go for a run every morning."),  # not the attachment
        ("assistant", "a1", "A morning run is a great habit."),  # not thinking or tools
    ]
    assert (second.id, second.title) == ("c-0002", None)
    assert second.messages[0].content == "I work at a small robotics startup."  # from `text`
    assert second.messages[0].timestamp == datetime.fromisoformat(
        "2024-05-03T10:00:00+00:00"
    ).astimezone().replace(tzinfo=None)


def test_a_wrapped_export_reads_the_same():
    wrapped = json.dumps({"account": {"uuid": "acct"}, "conversations": claude_export()})
    assert read_conversations(wrapped) == read_conversations(json.dumps(claude_export()))


def test_claude_ai_branch_ends_at_the_current_leaf():
    conversation = {
        "uuid": "c-branch", "name": "Edited", "current_leaf_message_uuid": "h-new",
        "chat_messages": [
            {"uuid": "h0", "sender": "human", "text": "My name is Sam.", "parent_message_uuid": None},
            {"uuid": "a0", "sender": "assistant", "text": "Hi Sam.", "parent_message_uuid": "h0"},
            {"uuid": "h-old", "sender": "human", "text": "I live in Rome.", "parent_message_uuid": "a0"},
            {"uuid": "h-new", "sender": "human", "text": "I live in Milan.", "parent_message_uuid": "a0"},
        ],
    }  # fmt: skip
    [read] = read_conversations(json.dumps([conversation]))
    assert [m.id for m in read.messages] == ["h0", "a0", "h-new"]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ([chatgpt_conversation()], "chatgpt"),
        (chatgpt_conversation(), "chatgpt"),
        (claude_export(), "claude-ai"),
        ({"account": {"uuid": "a"}, "conversations": claude_export()}, "claude-ai"),
        ([{"role": "user", "content": "hi"}], None),
        ({"messages": [{"role": "user", "content": "hi"}]}, None),
        ([], None),
        ("text", None),
    ],
)
def test_detect_export(data, expected):
    assert detect_export(data) == expected


@pytest.mark.parametrize(
    ("data", "format", "error"),
    [
        ([{"mapping": [], "id": "x"}], "auto", "c.json: conversation 1 (x): mapping is a list (expected an object of nodes)"),
        ([{"mapping": {}}], "auto", "c.json: conversation 1: no id or conversation_id"),
        ([{"uuid": "u", "chat_messages": ["hi"]}], "auto", "c.json: conversation 1 (u): message 1 is a string (expected an object)"),
        ([chatgpt_second(), 3], "chatgpt", "c.json: conversation 2: expected an object, got a number"),
        ([{"uuid": "u", "chat_messages": []}], "auto", "c.json: no messages"),
        ([{"role": "user", "content": "hi"}], "claude-ai", "c.json: conversation 1: no uuid"),
    ],
)  # fmt: skip
def test_export_errors_name_the_file_and_the_conversation(data, format, error):
    with pytest.raises(ValidationError) as caught:
        read_conversations(json.dumps(data), format, source="c.json")
    assert str(caught.value) == error


def test_parse_conversation_reads_a_one_conversation_export_and_refuses_many():
    messages = parse_conversation(json.dumps([chatgpt_second()]))
    assert [m.content for m in messages][0] == "My sister lives in Berlin."
    with pytest.raises(ValidationError, match="an export of 2 conversations"):
        parse_conversation(json.dumps([chatgpt_second(), chatgpt_conversation()]), source="x")


# --- conversation ids ------------------------------------------------------------------------


def test_a_chat_json_object_names_its_own_conversation():
    text = json.dumps({"id": "thread-9", "messages": [{"role": "user", "content": "hi"}]})
    assert [c.id for c in read_conversations(text, source="chat.json")] == ["thread-9"]


@pytest.mark.parametrize(
    ("text", "source"),
    [
        ("User: I live in Porto.\n", "chats/chat.txt"),
        ("User: I live in Porto.\n", "<stdin>"),
        ('[{"role": "user", "content": "I live in Porto."}]', "my #1 chat.json"),
    ],
)
def test_a_conversation_without_an_id_gets_a_digest_of_itself(text, source):
    """The id comes from the conversation, never the file's name: the same chat saved under
    another name (or piped in) is the same conversation, learned once."""
    [conversation] = read_conversations(text, source=source)
    assert conversation.id.startswith("chat-") and len(conversation.id) == len("chat-") + 10
    assert read_conversations(text, source="elsewhere/renamed.txt")[0].id == conversation.id
    other = read_conversations(text.replace("Porto", "Lisbon"), source=source)[0].id
    assert other != conversation.id


# --- tota extract ----------------------------------------------------------------------------


def test_extract_learns_each_chatgpt_conversation_under_its_own_id(tmp_path: Path):
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps([chatgpt_conversation(), chatgpt_second()]), "utf-8")
    vault = tmp_path / "v"
    report = extract(vault, str(export))
    assert [c["conversation_id"] for c in report["conversations"]] == ["6a1f-porto", "77b2-berlin"]
    created = {o["source"]: o["text"] for c in report["conversations"] for o in c["outcomes"]
               if o["action"] == "create"}  # fmt: skip
    texts = " ".join(created.values())
    assert "Porto" in texts and "espresso" in texts and "peanuts" in texts and "Berlin" in texts
    for absent in ("Paris", "green tea", "results", "Porto-bound"):  # hidden, abandoned, tool
        assert absent not in texts
    assert set(created) <= {"6a1f-porto#u1", "6a1f-porto#u2", "6a1f-porto#u3", "77b2-berlin#m1"}
    assert report["counts"]["create"] == len(created) == 4
    assert sources(vault) == set(created)

    again = extract(vault, str(export))
    assert again["counts"]["create"] == 0 and again["counts"]["skip"] == 4

    plain = tota("--vault", str(vault), "extract", str(export), "--dry-run")
    assert plain.exit_code == 0 and "in 2 conversations" in plain.stdout


def test_extract_reads_a_claude_ai_export(tmp_path: Path):
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(claude_export()), "utf-8")
    report = extract(tmp_path / "v", str(export))
    created = [(o["source"], o["text"]) for c in report["conversations"] for o in c["outcomes"]
               if o["action"] == "create"]  # fmt: skip
    assert [source for source, _ in created] == ["c-0001#h1", "c-0002#h2"]
    assert "run" in created[0][1] and "robotics" in created[1][1]


def test_a_second_export_with_the_same_file_name_is_learned_not_skipped(tmp_path: Path):
    """The bug: the id was the file's stem, so every export was `conversations#...`."""
    vault = tmp_path / "v"
    first = tmp_path / "march" / "conversations.json"
    second = tmp_path / "april" / "conversations.json"
    for path, conversation in ((first, chatgpt_second()), (second, chatgpt_conversation())):
        path.parent.mkdir()
        path.write_text(json.dumps([conversation]), "utf-8")
    assert extract(vault, str(first))["counts"]["create"] == 1
    report = extract(vault, str(second))
    assert report["counts"]["create"] == 3 and report["counts"]["skip"] == 0


@pytest.mark.parametrize(
    ("name", "first", "second"),
    [
        ("chat.txt", "User: I live in Porto.\n", "User: I prefer tea over coffee.\n"),
        ("chat.json", '[{"role": "user", "content": "I live in Porto."}]',
         '[{"role": "user", "content": "I prefer tea over coffee."}]'),
        ("chat.jsonl", '{"role": "user", "content": "I live in Porto."}\n',
         '{"role": "user", "content": "I prefer tea over coffee."}\n'),
    ],
)  # fmt: skip
def test_a_second_transcript_with_the_same_file_name_is_learned(
    tmp_path: Path, name, first, second
):
    vault = tmp_path / "v"
    for folder, text in (("a", first), ("b", second)):
        path = tmp_path / folder / name
        path.parent.mkdir()
        path.write_text(text, "utf-8")
    one = single(extract(vault, str(tmp_path / "a" / name)))
    two = single(extract(vault, str(tmp_path / "b" / name)))
    assert one["counts"]["create"] == 1 and two["counts"]["create"] == 1, two
    assert one["conversation_id"] != two["conversation_id"]
    assert extract(vault, str(tmp_path / "b" / name))["counts"]["skip"] == 1  # the same again


def test_conversation_id_is_refused_for_an_export_of_many(tmp_path: Path):
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps([chatgpt_conversation(), chatgpt_second()]), "utf-8")
    result = tota("--vault", str(tmp_path / "v"), "extract", str(export), "--conversation-id", "x")
    assert result.exit_code == 2
    assert "holds 2 conversations, each learned under its own id" in result.stderr


def test_format_chatgpt_on_something_else_is_a_clear_error(tmp_path: Path):
    result = tota("--vault", str(tmp_path / "v"), "extract", "-", "--format", "chatgpt",
                  input="User: hi\n")  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr.startswith("tota: error: <stdin>: line 1 column 1: not JSON")


def test_a_transcript_that_grows_keeps_its_id_and_learns_only_the_new_lines(tmp_path: Path):
    vault = tmp_path / "v"
    chat = tmp_path / "chat.txt"
    # An opening of three messages with 200 characters or more fixes the id (a shorter one
    # runs on: `messages.take_opening`, and the test below).
    opening = (
        "User: I prefer tea over coffee, green tea mostly, and I drink it without sugar.\n"
        "Assistant: Noted. Green tea without sugar it is; I will keep that in mind.\n"
        "User: I live in Porto, in an old flat near the river with a view of the bridges.\n"
    )
    chat.write_text(opening, "utf-8")
    first = single(extract(vault, str(chat)))
    chat.write_text(
        opening + "Assistant: Nice city.\nUser: I work as a nurse at the city hospital.\n", "utf-8"
    )
    second = single(extract(vault, str(chat)))
    assert second["conversation_id"] == first["conversation_id"]
    assert second["counts"].get("merge", 0) == 0  # nothing said before is confirmed again
    assert second["counts"]["create"] == 1, second


def test_a_short_opening_that_grows_gets_a_new_id_and_loses_nothing(tmp_path: Path):
    """The cost of telling apart chats that open with the same small talk: a log whose
    opening holds under 200 characters gets a new id as it grows; what it said before is
    confirmed again (merged into the same memories), never duplicated or lost."""
    vault = tmp_path / "v"
    chat = tmp_path / "chat.txt"
    opening = "User: I prefer tea over coffee.\nAssistant: Noted.\nUser: I live in Porto.\n"
    chat.write_text(opening, "utf-8")
    first = single(extract(vault, str(chat)))
    chat.write_text(opening + "Assistant: Nice.\nUser: I work as a nurse.\n", "utf-8")
    second = single(extract(vault, str(chat)))
    assert second["conversation_id"] != first["conversation_id"]
    assert (
        second["counts"]["create"] == 1 and second["counts"]["merge"] == first["counts"]["create"]
    )
