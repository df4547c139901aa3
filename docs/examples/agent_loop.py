"""Give your own agent tota's memory: recall before the call, learn after the reply.

`chat_turn` is the whole loop. Any chat client with a `complete(messages) -> str` method fits
(an adapter for the OpenAI SDK is in docs/assistants.md); `tests/test_docs_examples.py` runs
this file against a stand-in client, and `python docs/examples/agent_loop.py` runs a short
demo with an echoing client against the vault in $TOTA_VAULT (or the default one).
"""

from __future__ import annotations

import uuid
from typing import Protocol

from tota_vault import Vault
from tota_vault.recall import context_block

SYSTEM_PROMPT = "You are a helpful assistant."


class ChatClient(Protocol):
    """What the loop needs of a model: chat messages in, the reply's text out."""

    def complete(self, messages: list[dict[str, str]]) -> str: ...


def chat_turn(
    vault: Vault,
    client: ChatClient,
    history: list[dict[str, str]],
    user_text: str,
    *,
    conversation_id: str,
) -> str:
    """One turn: recall memories for the message, ask the model, learn from the exchange.

    `conversation_id` names this chat, one id per conversation: a memory cites
    `<conversation_id>#<position>`, so a new chat under an old id would look already learned.
    """
    # 1. Recall before the call: the memories that matter for this message, within a budget.
    memories = context_block(vault.recall(user_text, limit=8), budget=400)
    system = SYSTEM_PROMPT + (f"\n\n{memories}" if memories else "")
    messages = [{"role": "system", "content": system}, *history]
    messages.append({"role": "user", "content": user_text})

    reply = client.complete(messages)

    # 2. Learn after the reply. The whole history each time: a message is known by its
    # position, so what was learned before is skipped and only the new turn teaches.
    history += [{"role": "user", "content": user_text}, {"role": "assistant", "content": reply}]
    vault.observe(history, conversation_id=conversation_id)
    return reply


class EchoClient:
    """A stand-in model for the demo: it says what it was told about you."""

    def complete(self, messages: list[dict[str, str]]) -> str:
        system = messages[0]["content"]
        known = system.split("\n\n", 1)[1] if "\n\n" in system else "nothing yet"
        return f"(I remember: {known.strip()})"


if __name__ == "__main__":
    with Vault.open() as vault:
        history: list[dict[str, str]] = []
        chat_id = f"demo-{uuid.uuid4().hex[:8]}"
        for text in ["I'm allergic to peanuts.", "Any ideas for a snack without peanuts?"]:
            print("you:", text)
            reply = chat_turn(vault, EchoClient(), history, text, conversation_id=chat_id)
            print("assistant:", reply)
