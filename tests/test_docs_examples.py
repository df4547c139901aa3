"""docs/examples/agent_loop.py, the "your own agent" loop of docs/assistants.md, runs as shown:
against a stand-in chat client that records what it was sent, and as a script."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

from tota_vault import Vault

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "agent_loop.py"
GUIDE = ROOT / "docs" / "assistants.md"


def load_example():
    spec = importlib.util.spec_from_file_location("agent_loop", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class StandInClient:
    """Plays the model: records each request and answers with a line of its own."""

    def __init__(self) -> None:
        self.requests: list[list[dict[str, str]]] = []

    def complete(self, messages: list[dict[str, str]]) -> str:
        self.requests.append([dict(m) for m in messages])
        return "Noted. My name is Claude, by the way."


def test_recall_before_the_call_and_learn_after_the_reply(vault_dir: Path):
    example = load_example()
    client = StandInClient()
    history: list[dict[str, str]] = []
    with Vault.open(vault_dir) as vault:

        def turn(text: str) -> str:
            return example.chat_turn(vault, client, history, text, conversation_id="chat-7")

        assert turn("I'm allergic to peanuts.") == "Noted. My name is Claude, by the way."
        first = client.requests[0]
        assert first == [
            {"role": "system", "content": example.SYSTEM_PROMPT},  # nothing to recall yet
            {"role": "user", "content": "I'm allergic to peanuts."},
        ]
        [stored] = vault.recall("peanuts")
        assert stored.text == "Is allergic to peanuts."
        assert stored.sources == ("chat-7#1",)

        turn("Any ideas for a snack without peanuts?")
        second = client.requests[1]
        assert second[0]["role"] == "system"
        assert "- Is allergic to peanuts." in second[0]["content"]  # recalled into the prompt
        assert [m["role"] for m in second[1:]] == ["user", "assistant", "user"]

        turn("I live in Porto.")
        porto = vault.recall("Porto")
        assert [r.sources for r in porto] == [("chat-7#5",)]
        # Two memories: peanuts learned once though observed three times, and the assistant's
        # "My name is Claude" taught nothing (it is quoted as a reply's context only).
        assert vault.stats()["memories"] == 2
        recalled = vault.recall("name Claude")
        assert all("Claude" not in r.text for r in recalled if r.kind == "memory")
        # What the assistant said is kept as said, and recalled as a quote of that turn.
        said = [(r.kind, r.role, r.sources[0]) for r in recalled if "Claude" in r.text]
        assert said and all(kind == "turn" and role == "assistant" for kind, role, _ in said)


def test_the_example_runs_as_a_script(tmp_path: Path):
    env = {**os.environ, "TOTA_HOME": str(tmp_path / "home")}
    env.pop("TOTA_VAULT", None)
    done = subprocess.run(
        [sys.executable, str(EXAMPLE)], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1] == "assistant: (I remember: nothing yet)"
    assert "- Is allergic to peanuts." in done.stdout.split("you: Any ideas", 1)[1]


def test_the_guide_shows_the_code_that_runs():
    guide = GUIDE.read_text("utf-8")
    source = EXAMPLE.read_text("utf-8")
    blocks = re.findall(r"```python\n(.*?)```", guide, re.S)
    loop = [b for b in blocks if "def chat_turn(" in b]
    assert loop, "docs/assistants.md shows chat_turn"
    assert loop[0] in source, "the guide's chat_turn differs from docs/examples/agent_loop.py"
