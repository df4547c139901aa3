"""The optional LLM extractor against a real HTTP server on 127.0.0.1 that each test starts.

The stand-in serves `/v1/chat/completions` with scripted replies (well-formed, malformed, slow,
refusing, hallucinating) and records every request as the bytes it received, so a test can say
what was sent as well as what was stored. A "slow" reply waits on an event that is only set
when the test ends: the client's own timeout is what ends the wait, and nothing sleeps.

Fake secrets are built from pieces, so no secret scanner flags this repository.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from conftest import single
from typer.testing import CliRunner

from tota_vault import Vault
from tota_vault.cli import app
from tota_vault.config import ExtractSettings, load_config
from tota_vault.errors import ExtractorError, ValidationError
from tota_vault.extract.llm import (
    RESPONSE_SCHEMA,
    LLMExtractor,
    grounding,
    is_local,
    remote_warning,
)
from tota_vault.extract.messages import Message
from tota_vault.extract.rules import RuleExtractor
from tota_vault.pipeline import choose_extractor

Reply = Callable[[dict[str, Any]], tuple[int, bytes]]
OPENAI_KEY = "sk-" + "proj-" + "Q7x9" * 6
PASSWORD = "Tr0ub4dor" + "&3x" + "Q9z"


# --- the stand-in endpoint ------------------------------------------------------------------


class JoiningHTTPServer(ThreadingHTTPServer):
    """A threading server whose `server_close` waits for every request thread: the standard
    one makes them daemons, which it neither tracks nor joins, so a thread still writing its
    last reply would outlive the test."""

    daemon_threads = False


class Endpoint:
    """An OpenAI-compatible chat completions server: scripted replies, recorded requests."""

    def __init__(self) -> None:
        self.replies: deque[Reply] = deque()
        self.requests: list[dict[str, Any]] = []
        self.release = threading.Event()  # set when the test ends: frees a "slow" reply
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                endpoint.requests.append(
                    {"path": self.path, "headers": dict(self.headers), "raw": raw,
                     "body": json.loads(raw)}
                )  # fmt: skip
                reply = endpoint.replies.popleft() if endpoint.replies else memories()
                status, payload = reply(endpoint.requests[-1]["body"])
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test): nothing to answer

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = JoiningHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def reply(self, *replies: Reply) -> None:
        self.replies.extend(replies)


def completion(content: str | None, *, refusal: str | None = None, status: int = 200) -> Reply:
    """A chat completion whose message says `content` (or refuses)."""
    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "test-model",
        "choices": [
            {"index": 0, "finish_reason": "stop",
             "message": {"role": "assistant", "content": content, "refusal": refusal}}
        ],
    }  # fmt: skip
    return lambda request: (status, json.dumps(body).encode())


def memories(*items: dict[str, Any]) -> Reply:
    """A well-formed reply: these memories, as the schema asks."""
    return completion(json.dumps({"memories": list(items)}))


def memory(source: str, text: str, type: str = "preference", **fields: Any) -> dict[str, Any]:
    item = {"source": source, "subject": "user", "type": type, "text": text, "key": None,
            "evidence": "direct", "hedged": False, "temporary": False}  # fmt: skip
    item.update(fields)
    return item


def raw(status: int, payload: bytes) -> Reply:
    return lambda request: (status, payload)


def slow(endpoint: Endpoint) -> Reply:
    """A reply that comes only when the test ends: the client times out first."""

    def reply(request: dict[str, Any]) -> tuple[int, bytes]:
        endpoint.release.wait(10)
        return memories()(request)

    return reply


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    stand_in = Endpoint()
    # A short poll: `shutdown` waits for the serving loop to look, once per interval.
    thread = threading.Thread(
        target=stand_in.server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
    )
    thread.start()
    yield stand_in
    stand_in.release.set()
    stand_in.server.shutdown()
    stand_in.server.server_close()  # joins the handler threads
    thread.join()


def configure(root: Path, base_url: str, **settings: Any) -> None:
    """Write tota.toml choosing the LLM backend at `base_url`."""
    table = {"backend": "llm", "base_url": base_url, "model": "test-model", **settings}
    lines = ["[extract]", *(f"{k} = {json.dumps(v)}" for k, v in table.items())]
    (root / "tota.toml").write_text("\n".join(lines) + "\n", "utf-8")


CHAT = [
    {"role": "user", "content": "My name is Sam and I live in Porto.", "id": "1"},
    {"role": "assistant", "content": "Nice to meet you, Sam! Which editor do you use?", "id": "2"},
    {"role": "user", "content": "I prefer Neovim over VS Code, always.", "id": "3"},
]


def observe(root: Path, messages: list[dict[str, Any]] = CHAT, conversation_id: str = "chat-1"):
    with Vault.open(root) as vault:
        report = vault.observe(messages, conversation_id=conversation_id)
        notes = {o.path: vault.read(o.path)[0] for o in report.outcomes if o.path}
    return report, notes


# --- well-formed replies ----------------------------------------------------------------------


def test_a_well_formed_reply_is_stored_with_its_type_source_and_quote(vault_dir, endpoint):
    configure(vault_dir, endpoint.base_url)
    endpoint.reply(
        memories(
            memory("1", "Is named Sam.", "identity", key="identity/name"),
            memory("1", "Lives in Porto.", "identity", key="identity/location"),
            memory("3", "Prefers Neovim over VS Code.", emphatic_guess=True),  # unknown: ignored
        )
    )
    report, notes = observe(vault_dir)
    assert report.count("create") == 3 and report.notes == []
    stored = {n.memory.text: n.memory for n in notes.values()}
    assert set(stored) == {"Is named Sam.", "Lives in Porto.", "Prefers Neovim over VS Code."}
    location = stored["Lives in Porto."]
    assert location.type.value == "identity" and location.key == "identity/location"
    assert location.sources == ("chat-1#1",) and location.subject == "user"
    neovim = stored["Prefers Neovim over VS Code."]
    assert neovim.type.value == "preference" and neovim.sources == ("chat-1#3",)
    # The quote is the person's message, after the question it answered (as the rules cite).
    assert "I prefer Neovim over VS Code, always." in neovim.quote
    assert "Which editor do you use?" in neovim.quote


def test_the_request_is_one_chat_completion_with_the_nested_json_schema(vault_dir, endpoint):
    configure(vault_dir, endpoint.base_url)
    observe(vault_dir)
    [request] = endpoint.requests
    assert request["path"] == "/v1/chat/completions"
    body = request["body"]
    assert body["model"] == "test-model" and body["stream"] is False
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "tota_memories", "schema": RESPONSE_SCHEMA, "strict": True},
    }
    # The schema is in the subset strict mode and every server takes: each property required,
    # no others, and no length or pattern keywords (those are checked on the reply instead).
    item = body["response_format"]["json_schema"]["schema"]["properties"]["memories"]["items"]
    assert (
        set(item["required"]) == set(item["properties"]) and item["additionalProperties"] is False
    )
    assert not re.search(r"minLength|maxLength|pattern|minimum|maximum", json.dumps(item))
    system, user = body["messages"]
    assert system["role"] == "system" and "source" in system["content"]
    sent = json.loads(user["content"].split("\n", 1)[1])
    assert [(m["id"], m["role"]) for m in sent] == [
        ("1", "user"),
        ("2", "assistant"),
        ("3", "user"),
    ]
    assert "Authorization" not in request["headers"]


def test_a_named_speaker_is_the_subject_and_relative_dates_resolve(vault_dir, endpoint):
    configure(vault_dir, endpoint.base_url)
    chat = [{"role": "user", "name": "Caroline", "id": "7", "timestamp": "2023-05-08T13:56:00",
             "content": "Yesterday I adopted a puppy from the shelter!"}]  # fmt: skip
    endpoint.reply(
        memories(memory("7", "Caroline adopted a puppy yesterday.", "episode", subject="Caroline"))
    )
    report, notes = observe(vault_dir, chat)
    [note] = notes.values()
    assert note.memory.text == "Caroline adopted a puppy on 7 May 2023."
    assert note.memory.subject == "Caroline"


def sent_messages(request: dict[str, Any], *, context: bool = False) -> list[dict[str, Any]]:
    """The conversation a request carried (the JSON after the user turn's first line), without
    the message before the chunk that is sent as context unless `context`."""
    sent = json.loads(request["messages"][1]["content"].split("\n", 1)[1])
    return [m for m in sent if context or not m.get("context")]


def test_memories_come_back_one_chunk_at_a_time(vault_dir, endpoint):
    configure(vault_dir, endpoint.base_url, max_messages=2)
    chat = [
        {"role": "user", "content": "I live in Porto these days.", "id": "1"},
        {"role": "assistant", "content": "Lovely city.", "id": "2"},
        {"role": "assistant", "content": "Anything else?", "id": "3"},
        {"role": "assistant", "content": "Still there?", "id": "4"},
        {"role": "user", "content": "I prefer tea over coffee.", "id": "5"},
    ]
    endpoint.reply(
        memories(memory("1", "Lives in Porto.", "identity")),
        memories(memory("5", "Prefers tea over coffee.")),
    )
    report, _ = observe(vault_dir, chat)
    # Three chunks ([1, 2], [3, 4], [5]); the middle one has no user message and is not sent.
    sent = [[m["id"] for m in sent_messages(r["body"], context=True)] for r in endpoint.requests]
    assert sent == [["1", "2"], ["4", "5"]]  # 4 is the context of 5: what 5 answers
    assert sent_messages(endpoint.requests[1]["body"], context=True)[0]["context"] is True
    assert report.count("create") == 2


def echo(request: dict[str, Any]) -> tuple[int, bytes]:
    """A model that states each user message it was sent as a preference, in its words."""
    items = [memory(m["id"], m["text"]) for m in sent_messages(request) if m["role"] == "user"]
    return memories(*items)(request)


def test_a_long_conversation_is_sent_once_in_chunks_and_each_memory_cites_its_message(
    vault_dir, endpoint, tmp_path
):
    configure(vault_dir, endpoint.base_url, max_messages=7)
    foods = ["olives", "figs", "dates", "plums", "pears", "limes", "kiwis", "mangos", "grapes"]
    chat = []
    for n, food in enumerate(foods * 5):
        chat.append({"role": "user", "content": f"I like {food} with dish {n}.", "id": f"u{n}"})
        chat.append({"role": "assistant", "content": "Noted, and tasty.", "id": f"a{n}"})
    endpoint.reply(*[echo] * 20)
    report, notes = observe(vault_dir, chat)
    sent = [m["id"] for r in endpoint.requests for m in sent_messages(r["body"])]
    assert sent == [m["id"] for m in chat]  # every message once, in order
    assert len(endpoint.requests) == -(-len(chat) // 7)
    assert report.notes == [] and report.count("create") == len(foods) * 5
    for note in notes.values():
        n = note.memory.text.split("dish ")[1].rstrip(".")
        assert note.memory.sources == (f"chat-1#u{n}",)


# --- what is sent ---------------------------------------------------------------------------


def test_secrets_are_redacted_before_anything_is_sent(vault_dir, endpoint):
    configure(vault_dir, endpoint.base_url)
    chat = [{"role": "user", "id": "1", "content": f"My key is {OPENAI_KEY} and my password "
             f"is {PASSWORD}. I prefer Neovim over VS Code."}]  # fmt: skip
    endpoint.reply(memories(memory("1", "Prefers Neovim over VS Code.")))
    report, notes = observe(vault_dir, chat)
    [request] = endpoint.requests
    assert OPENAI_KEY.encode() not in request["raw"] and PASSWORD.encode() not in request["raw"]
    assert b"[REDACTED openai_key]" in request["raw"]
    [note] = notes.values()
    assert OPENAI_KEY not in note.memory.quote and PASSWORD not in note.memory.quote


def test_the_extractor_itself_redacts_and_reports_secrets_by_kind(endpoint):
    """Called directly, with nothing before it to clean the messages (a caller's own
    pipeline): the extractor still sends no secret, and says which kinds it kept out."""
    settings = ExtractSettings(backend="llm", base_url=endpoint.base_url, model="test-model")
    message = Message("user", f"My key is {OPENAI_KEY}. I prefer tea over coffee.", "1")
    endpoint.reply(memories(memory("1", "Prefers tea over coffee.")))
    candidates, skipped = LLMExtractor(settings).extract([message], conversation_id="c")
    assert OPENAI_KEY.encode() not in endpoint.requests[0]["raw"]
    assert [c.text for c in candidates] == ["Prefers tea over coffee."]
    assert OPENAI_KEY not in candidates[0].quote
    assert [(s.text, s.reason) for s in skipped] == [
        ("[REDACTED openai_key]", "contains a secret (openai_key)")
    ]


def test_a_statement_that_carries_a_secret_back_is_dropped(vault_dir, endpoint):
    configure(vault_dir, endpoint.base_url)
    chat = [{"role": "user", "id": "1", "content": "My key for the staging box is in the vault."}]
    endpoint.reply(memories(memory("1", f"Has the staging key {OPENAI_KEY}.", "identity")))
    report, notes = observe(vault_dir, chat)
    assert notes == {} and [s.reason for s in report.skipped] == ["contains a secret (openai_key)"]


def test_a_proxy_in_the_environment_is_not_used_for_a_local_endpoint(
    vault_dir, endpoint, monkeypatch
):
    with socket.socket() as probe:  # a proxy that would refuse every connection
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}"
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "all_proxy"):
        monkeypatch.setenv(name, dead)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    configure(vault_dir, endpoint.base_url)
    report, _ = observe(vault_dir)
    assert len(endpoint.requests) == 1 and report.notes == []


def test_the_api_key_comes_from_the_named_variable_as_a_bearer_token(
    vault_dir, endpoint, monkeypatch
):
    configure(vault_dir, endpoint.base_url, api_key_env="TOTA_TEST_LLM_KEY")
    monkeypatch.setenv("TOTA_TEST_LLM_KEY", "local-test-token")
    observe(vault_dir)
    [request] = endpoint.requests
    assert request["headers"]["Authorization"] == "Bearer local-test-token"


def test_an_unset_key_variable_is_an_error_before_anything_is_sent(
    vault_dir, endpoint, monkeypatch
):
    configure(vault_dir, endpoint.base_url, api_key_env="TOTA_TEST_LLM_KEY")
    monkeypatch.delenv("TOTA_TEST_LLM_KEY", raising=False)
    with pytest.raises(
        ExtractorError, match="names TOTA_TEST_LLM_KEY, which is not set in the environment"
    ):
        observe(vault_dir)
    assert endpoint.requests == []


# --- grounding: hallucinations and wrong sources are dropped ----------------------------------


def test_a_hallucinated_memory_is_dropped_as_not_grounded(vault_dir, endpoint):
    configure(vault_dir, endpoint.base_url)
    endpoint.reply(
        memories(
            memory("1", "Lives in Porto.", "identity", key="identity/location"),
            memory("1", "Works as a marine biologist in Lisbon.", "identity"),  # not said
            memory("3", "Prefers Emacs over Neovim."),  # the message says the opposite words
        )
    )
    report, notes = observe(vault_dir)
    assert [n.memory.text for n in notes.values()] == ["Lives in Porto."]
    dropped = {s.text: s.reason for s in report.skipped}
    assert dropped["Works as a marine biologist in Lisbon."] == "not grounded"
    assert dropped["Prefers Emacs over Neovim."] == "not grounded"
    assert report.notes == []  # dropping a memory is not a fallback


@pytest.mark.parametrize(
    "source",
    [
        "2",  # the assistant's message: its words may confirm, never create a memory
        "99",  # no such message
        "",  # none at all (a schema violation: minLength 1)
    ],
)
def test_a_memory_citing_no_sent_user_message_is_dropped(vault_dir, endpoint, source):
    configure(vault_dir, endpoint.base_url)
    endpoint.reply(memories(memory(source, "Prefers Neovim over VS Code.")))
    report, notes = observe(vault_dir)
    assert notes == {}
    [skip] = report.skipped
    assert skip.reason.startswith("not grounded" if source else "invalid memory: source")


def test_a_memory_from_another_chunk_is_not_grounded_in_this_one(vault_dir, endpoint):
    configure(vault_dir, endpoint.base_url, max_messages=1)
    # Chunks [1], [2] (the assistant's: not sent) and [3]: the second reply cites message 1.
    endpoint.reply(memories(), memories(memory("1", "Lives in Porto.", "identity")))
    report, notes = observe(vault_dir)
    assert notes == {} and report.skipped[0].reason.startswith("not grounded")


def test_the_message_before_a_chunk_is_sent_as_context_and_cannot_be_cited(vault_dir, endpoint):
    configure(vault_dir, endpoint.base_url, max_messages=1)
    chat = [
        {"role": "user", "content": "Which editor should I learn first?", "id": "1"},
        {"role": "user", "content": "I prefer Neovim over VS Code.", "id": "2"},
    ]
    endpoint.reply(memories(), memories(memory("1", "Prefers Neovim over VS Code.")))
    report, notes = observe(vault_dir, chat)
    second = sent_messages(endpoint.requests[1]["body"], context=True)
    assert [(m["id"], m.get("context", False)) for m in second] == [("1", True), ("2", False)]
    assert notes == {} and report.skipped[0].reason.startswith("not grounded")


def test_a_memory_about_someone_else_is_dropped(vault_dir, endpoint):
    configure(vault_dir, endpoint.base_url)
    endpoint.reply(memories(memory("1", "Sam lives in Porto.", "identity", subject="Porto")))
    report, notes = observe(vault_dir)
    assert (
        notes == {} and report.skipped[0].reason == "about someone other than the speaker (Porto)"
    )


@pytest.mark.parametrize(
    ("item", "reason"),
    [
        (memory("1", "Lives in Porto.", "hobby"), "invalid memory: type: 'hobby' is not one of"),
        (memory("1", "Lives in Porto.", "reflection"), "invalid memory: type: 'reflection'"),
        (memory("1", "Lives in Porto.", evidence="manual"), "invalid memory: evidence:"),
        (memory("1", "x" * 301), "invalid memory: text: "),
        (memory("1", "Lives in Porto.", key="Location!"), "invalid memory: key: "),
        (
            memory("1", "Lives in Porto.", hedged="no"),
            "invalid memory: hedged: 'no' is not of type",
        ),
        (
            {"source": "1", "text": "Lives in Porto."},
            "invalid memory: memory: 'subject' is a required",
        ),
        ("Lives in Porto.", "invalid memory: not an object"),
    ],
)
def test_each_memory_is_checked_against_the_schema(vault_dir, endpoint, item, reason):
    configure(vault_dir, endpoint.base_url)
    endpoint.reply(completion(json.dumps({"memories": [item]})))
    report, notes = observe(vault_dir)
    assert notes == {}
    [skip] = report.skipped
    assert skip.reason.startswith(reason), skip.reason


def test_a_key_that_contradicts_the_type_is_not_trusted_with_a_conflict(vault_dir, endpoint):
    configure(vault_dir, endpoint.base_url)
    endpoint.reply(memories(memory("3", "Prefers Neovim over VS Code.", key="identity/location")))
    _, notes = observe(vault_dir)
    [note] = notes.values()
    assert note.memory.key is None


@pytest.mark.parametrize(
    ("text", "content", "grounded"),
    [
        ("Prefers Neovim over VS Code.", "I prefer Neovim over VS Code.", True),
        ("Lives in Porto.", "I live in Porto.", True),
        ("Adopted a dog named Rex.", "We adopted a dog, Rex!", True),
        ("Is allergic to peanuts.", "I'm allergic to peanuts", True),
        ("Lives in Paris.", "I love Paris in the spring.", False),
        ("Ran 50 km on Sunday.", "I ran 5 km on Sunday.", False),  # a number it never said
        ("Ran 5 km on Sunday.", "I ran 5 km on Sunday.", True),
        ("Went to a support group on 7 May 2023.", "Yesterday I went to a support group.", True),
        ("Is a pilot.", "I'm a nurse.", False),
        ("Prefers Emacs over Neovim.", "I prefer Neovim.", False),  # a name it never said
        ("Moved to Lisbon from Porto.", "I moved to lisbon, from porto", True),
        ("Is.", "I am.", False),  # no content word: nothing to ground
    ],
)
def test_grounding(text, content, grounded):
    message = Message("user", content, "1", timestamp=datetime(2023, 5, 8, 13, 56))
    assert (grounding(text, message) >= 0.6) is grounded


def test_grounding_does_not_count_the_speakers_own_name():
    message = Message("user", "I adopted a puppy.", "1", name="Caroline")
    assert grounding("Caroline adopted a puppy.", message, subject="Caroline") == 1.0


# --- failures fall back to the rules ----------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (completion("{not json"), "malformed JSON"),
        (completion('{"facts": []}'), "schema mismatch"),
        (completion('[{"source": "1"}]'), "schema mismatch"),
        (completion(None, refusal="I can't help with that."), "refusal"),
        (completion(""), "empty reply"),
        (completion("   "), "empty reply"),
        (raw(200, b"<html>Bad gateway</html>"), "not a chat completion"),
        (raw(200, b'{"choices": []}'), "not a chat completion"),
        (completion(None, status=500), "HTTP 500"),
        (raw(404, b'{"error": "model not found"}'), "HTTP 404"),
    ],
)
def test_a_failed_reply_falls_back_to_the_rules_with_a_note(vault_dir, endpoint, reply, reason):
    configure(vault_dir, endpoint.base_url)
    endpoint.reply(reply)
    report, notes = observe(vault_dir)
    assert report.notes == [f"llm extractor fell back to rules for 1 of 1 chunk: {reason}"]
    # The rules read the chunk instead: nothing the person said is lost to a bad reply.
    assert {n.memory.text for n in notes.values()} >= {"Lives in Porto.",
                                                        "Prefers Neovim over VS Code, always."}  # fmt: skip


def test_a_slow_endpoint_times_out_and_falls_back(vault_dir, endpoint):
    configure(vault_dir, endpoint.base_url, timeout_s=0.2)
    endpoint.reply(slow(endpoint))
    report, notes = observe(vault_dir)
    assert report.notes == ["llm extractor fell back to rules for 1 of 1 chunk: timeout"]
    assert report.count("create") >= 2
    assert len(endpoint.requests) == 1


def test_after_two_unanswered_requests_the_rest_goes_straight_to_the_rules(vault_dir, endpoint):
    configure(vault_dir, endpoint.base_url, timeout_s=0.2, max_messages=1)
    chat = [{"role": "user", "content": f"I live in town number {n}.", "id": str(n)}
            for n in range(1, 6)]  # fmt: skip
    endpoint.reply(slow(endpoint), slow(endpoint))
    report, notes = observe(vault_dir, chat)
    assert len(endpoint.requests) == 2
    assert report.notes == [
        "llm extractor fell back to rules for 5 of 5 chunks: "
        "not asked after 2 unanswered requests (3), timeout (2)"
    ]
    assert len(notes) == 5  # the rules read every message


def test_an_answer_resets_the_count_of_unanswered_requests(vault_dir, endpoint):
    configure(vault_dir, endpoint.base_url, timeout_s=0.2, max_messages=1)
    chat = [{"role": "user", "content": f"I live in town number {n}.", "id": str(n)}
            for n in range(1, 5)]  # fmt: skip
    endpoint.reply(slow(endpoint), completion("{"), slow(endpoint), memories())
    report, _ = observe(vault_dir, chat)
    assert len(endpoint.requests) == 4
    assert report.notes == [
        "llm extractor fell back to rules for 3 of 4 chunks: timeout (2), malformed JSON"
    ]


def test_a_refused_connection_falls_back(vault_dir):
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    configure(vault_dir, f"http://127.0.0.1:{port}/v1")
    report, notes = observe(vault_dir)
    assert report.notes == ["llm extractor fell back to rules for 1 of 1 chunk: cannot connect"]
    assert report.count("create") >= 2


def test_the_note_counts_chunks_and_names_each_reason(vault_dir, endpoint):
    configure(vault_dir, endpoint.base_url, max_messages=1)
    endpoint.reply(completion("{"), completion(None, status=503))
    report, _ = observe(vault_dir)  # chunks [1], [2] (the assistant's: not sent), [3]
    assert report.notes == [
        "llm extractor fell back to rules for 2 of 2 chunks: malformed JSON, HTTP 503"
    ]


# --- off by default, local by default -------------------------------------------------------


def test_the_rules_extract_unless_tota_toml_says_llm(vault_dir, endpoint):
    (vault_dir / "tota.toml").write_text(
        f'[extract]\nbackend = "rules"\nbase_url = "{endpoint.base_url}"\n', "utf-8"
    )
    report, notes = observe(vault_dir)
    assert endpoint.requests == [] and report.count("create") >= 2
    assert isinstance(choose_extractor(load_config(vault_dir).extract), RuleExtractor)
    assert isinstance(choose_extractor(ExtractSettings()), RuleExtractor)


def test_the_rules_never_load_the_http_client(vault_dir):
    """Off by default means off: learning with the rules imports neither httpx nor jsonschema."""
    script = (
        "import sys\n"
        "from tota_vault import Vault\n"
        f"with Vault.open({str(vault_dir)!r}) as vault:\n"
        "    report = vault.observe([{'role': 'user', 'content': 'I live in Porto.'}],\n"
        "                           conversation_id='c')\n"
        "assert report.count('create') == 1, report\n"
        "print(sorted(m for m in ('httpx', 'jsonschema') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]"


def test_while_paused_nothing_is_sent(vault_dir, endpoint):
    configure(vault_dir, endpoint.base_url)
    with Vault.open(vault_dir) as vault:
        vault.pause()
        report = vault.observe(CHAT, conversation_id="chat-1")
    assert report.paused and endpoint.requests == []


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("http://127.0.0.1:11434/v1", True),
        ("http://127.9.9.9:8080/v1", True),
        ("http://localhost:8080/v1", True),
        ("http://LOCALHOST./v1", True),
        ("http://ollama.localhost/v1", True),
        ("http://[::1]:8000/v1", True),
        ("http://[::ffff:127.0.0.1]:8000/v1", True),
        ("https://api.openai.com/v1", False),
        ("http://192.168.1.20:11434/v1", False),  # another machine on the LAN
        ("http://10.0.0.5/v1", False),
        ("http://0.0.0.0:11434/v1", False),  # a listening address, not a destination
        ("http://localhost.example.com/v1", False),
        ("http://127.0.0.1.nip.io/v1", False),  # a name, whatever it resolves to
    ],
)
def test_is_local(url, local):
    assert is_local(url) is local


def test_a_remote_endpoint_gets_a_warning_and_a_local_one_none():
    remote = ExtractSettings(backend="llm", base_url="https://api.example.com/v1", model="m")
    warning = remote_warning(remote)
    assert warning is not None and "api.example.com" in warning and "not this machine" in warning
    assert remote_warning(ExtractSettings(backend="llm", model="m")) is None
    assert remote_warning(ExtractSettings(base_url="https://api.example.com/v1")) is None


def test_a_missing_http_client_is_a_one_line_error_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "httpx", None)  # `import httpx` now raises ImportError
    with pytest.raises(ExtractorError, match=r"pip install 'tota_vault\[llm\]'") as caught:
        LLMExtractor(ExtractSettings(backend="llm", model="m"))
    assert "\n" not in str(caught.value) and "httpx" in str(caught.value)


# --- [extract] in tota.toml -----------------------------------------------------------------


def test_the_extract_settings_are_read_with_their_defaults(tmp_path):
    (tmp_path / "tota.toml").write_text('[extract]\nbackend = "llm"\nmodel = "qwen2.5:7b"\n')
    assert load_config(tmp_path).extract == ExtractSettings(
        backend="llm", base_url="http://127.0.0.1:11434/v1", model="qwen2.5:7b",
        api_key_env=None, timeout_s=30.0, max_messages=12,
    )  # fmt: skip
    assert load_config(tmp_path / "none").extract.backend == "rules"


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('extract = "llm"', "[extract] must be a table"),
        ('[extract]\nbackend = "gpt"', "extract.backend = 'gpt' is not one of rules, llm"),
        ('[extract]\nbackend = "llm"', 'extract.backend = "llm" needs extract.model'),
        ('[extract]\nmodel = ""', "extract.model = '' is not a model name"),
        (
            '[extract]\nbase_url = "ftp://x/v1"',
            "extract.base_url = 'ftp://x/v1' is not an http(s) URL",
        ),
        ('[extract]\nbase_url = "localhost:11434"', "is not an http(s) URL"),
        (
            '[extract]\nbase_url = "http://127.0.0.1:11434/v1/chat/completions"',
            "names the endpoint; give the API's base (ending in /v1)",
        ),
        ('[extract]\napi_key = "sk-123"', "a key does not belong in tota.toml"),
        (
            '[extract]\napi_key_env = "MY KEY"',
            "extract.api_key_env = 'MY KEY' is not an environment",
        ),
        ("[extract]\ntimeout_s = 0", "extract.timeout_s = 0 is not a number of seconds"),
        ("[extract]\ntimeout_s = true", "extract.timeout_s = True is not a number of seconds"),
        ("[extract]\nmax_messages = 2.5", "extract.max_messages = 2.5 is not a whole number"),
        ('[extract]\nmodle = "x"', "extract.modle is not a setting"),
    ],
)
def test_a_bad_extract_setting_is_a_one_line_error_naming_it(tmp_path, toml, message):
    (tmp_path / "tota.toml").write_text(toml + "\n")
    with pytest.raises(ValidationError) as caught:
        load_config(tmp_path)
    assert message in str(caught.value) and str(tmp_path / "tota.toml") in str(caught.value)
    assert "\n" not in str(caught.value)


# --- end to end through `tota extract` ------------------------------------------------------

runner = CliRunner()


def test_tota_extract_learns_through_the_llm(vault_dir, endpoint, tmp_path):
    configure(vault_dir, endpoint.base_url)
    chat = tmp_path / "chat.txt"
    chat.write_text("User: I live in Porto.\nAssistant: Nice.\nUser: I prefer tea over coffee.\n")
    endpoint.reply(
        memories(memory("1", "Lives in Porto.", "identity", key="identity/location"),
                 memory("3", "Prefers tea over coffee."))
    )  # fmt: skip
    result = runner.invoke(app, ["--vault", str(vault_dir), "extract", str(chat), "--json"])
    assert result.exit_code == 0, result.stderr
    report = single(json.loads(result.stdout))
    assert report["counts"]["create"] == 2 and report["notes"] == []
    assert {o["text"] for o in report["outcomes"]} == {
        "Lives in Porto.",
        "Prefers tea over coffee.",
    }
    assert len(endpoint.requests) == 1
    with Vault.open(vault_dir) as vault:
        assert [h.path for h in vault.search("Porto")] == ["identity/Lives in Porto.md"]


def test_tota_extract_says_when_it_fell_back(vault_dir, endpoint, tmp_path):
    configure(vault_dir, endpoint.base_url)
    chat = tmp_path / "chat.txt"
    chat.write_text("User: I live in Porto.\n")
    endpoint.reply(completion("not json at all"))
    result = runner.invoke(app, ["--vault", str(vault_dir), "extract", str(chat)])
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        "tota: note: llm extractor fell back to rules for 1 of 1 chunk: malformed JSON\n"
    )
    assert "1 created" in result.stdout


def test_tota_extract_with_a_bad_setting_is_a_usage_error(vault_dir, tmp_path):
    (vault_dir / "tota.toml").write_text('[extract]\nbackend = "llm"\n')
    chat = tmp_path / "chat.txt"
    chat.write_text("User: I live in Porto.\n")
    result = runner.invoke(app, ["--vault", str(vault_dir), "extract", str(chat)])
    assert result.exit_code == 2
    assert result.stderr.startswith("tota: error: ") and "needs extract.model" in result.stderr
