"""Three realistic chats a person has with an assistant, learned as a Stop hook learns them
(after each reply, from the conversation so far), with the facts each must yield, the changes
of mind each must resolve, and the assistant's words none of its memories may hold (issue #11,
"Measure": a developer with a coding assistant, a family planning travel, a student whose
plans change). Each fact is the statement as docs/learning.md writes it, with its type; a type
of None is a fact whose statement is right and whose type is not yet (left in the closing note
of the stop that wrote this: "Is migrating their billing jobs ..." is a project said as an
episode).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import pytest

from tota_vault import Vault
from tota_vault.extract.messages import Message
from tota_vault.notes import parse_note

# fmt: off
DEVELOPER = [
    ('u', "Hi! I'm Dana, a backend engineer at Quillpay. I need help with a flaky test in our payments service."),
    ('a', 'Happy to help, Dana. Can you paste the failing test and the error you see? Flaky tests usually come from shared state, timing or the network.'),
    ('u', 'Here it is: test_refund_settles fails about one run in five with `AssertionError: expected 200, got 503`. The service is Python 3.12 and we run the suite with pytest in GitHub Actions.'),
    ('a', "A 503 suggests the test reaches a real downstream service. I'd mock the HTTP client. Libraries like respx or responses make this easy, or you can patch the client with unittest.mock."),
    ('u', "I prefer plain unittest.mock over extra libraries. Our team avoids adding new dependencies unless there's no other way."),
    ('a', "Makes sense. Here's a version with unittest.mock.patch around the settlement client, plus a fixture that resets the client's connection pool between tests."),
    ('u', "That fixed it, thanks! By the way, we can't ship GPL code, legal is strict about copyleft licences, so keep that in mind when you suggest packages."),
    ('a', "Noted: I'll stick to permissive licences such as MIT, BSD and Apache 2.0."),
    ('u', 'I use Neovim with pyright for everything, so please give me commands rather than VS Code steps.'),
    ('a', 'Sure. In Neovim you can run the single test with :!pytest -k test_refund_settles -x.'),
    ('u', "Our next release is on March 14, and I'm the one cutting it."),
    ('a', 'Good luck with the release! Do you want a checklist for cutting it?'),
    ('u', 'Yes please. My manager Priya usually reviews the changelog before we tag.'),
    ('a', "Here's a checklist: freeze main, run the full suite, update the changelog, have Priya review it, tag, and watch the error rates for an hour."),
    ('u', 'Quick update: the release got pushed to March 21 because of a bank holiday.'),
    ('a', "Thanks for the update, I'll plan the checklist for March 21."),
    ('u', 'Also, I switched from Neovim to Helix last week. The keybindings took a day to learn.'),
    ('a', "Helix is nice. In Helix you'd run the test from a shell with :sh pytest -k test_refund_settles."),
    ('u', "I'm migrating our billing jobs from cron to Celery this quarter."),
    ('a', "That's a good move. Celery beat can replace the crontab entries one by one."),
]
FAMILY = [
    ('u', "We're planning a family trip to Japan in April. It's me, my husband Tom and our two kids, Mia and Leo."),
    ('a', 'How exciting! How old are the kids, and which cities are you thinking of?'),
    ('u', "Mia is 7 and Leo is 4. We'd like to spend five nights in Kyoto and a few days in Tokyo."),
    ('a', 'A great split. Kyoto with young kids works well if you base yourselves near a station.'),
    ('u', 'Leo is allergic to peanuts, so eating out worries me a bit.'),
    ('a', 'An allergy card in Japanese helps a lot. I can write one for peanuts if you like.'),
    ('u', "Yes please. Also Tom doesn't eat raw fish, so sushi dinners are out for him."),
    ('a', 'Understood. Japan has plenty of cooked options: ramen, tonkatsu, okonomiyaki (check for peanuts in sauces).'),
    ('u', "Our budget is about 6,000 euros for everything, flights included. We live in Ghent, so we'd fly from Brussels."),
    ('a', 'That budget is workable for two weeks if you book flights early.'),
    ('u', "Actually, we've decided to go in May instead of April because of Mia's school holidays."),
    ('a', 'May is lovely too, just avoid Golden Week at the start of the month.'),
    ('u', 'My mother-in-law Anne might join us for the Tokyo part.'),
    ('a', "That's nice for the kids. Should I look for a family room for five in Tokyo?"),
    ('u', "Yes. I'd rather stay in a quiet neighbourhood than in Shinjuku."),
    ('a', 'Then consider Yanaka or Kichijoji: both are quiet and well connected.'),
]
STUDENT = [
    ('u', "Hey, I'm a second-year PhD student in computational biology at Utrecht. I need to plan the next few months."),
    ('a', "Sure! What's on your plate?"),
    ('u', "My thesis chapter deadline is June 1, and I'm planning to apply for a summer internship at Roche in Basel."),
    ('a', "That's a lot at once. Shall we make a week-by-week plan?"),
    ('u', 'Yes. I work from the university library most days, usually from 9 to 5.'),
    ('a', 'Good, a steady routine helps. When is the internship deadline?'),
    ('u', 'The application closes on March 31. My supervisor is Dr. Hendriks and she wants a draft by April.'),
    ('a', 'Then March is for the application and April for the draft.'),
    ('u', "I've decided not to apply for the Roche internship after all. I'd rather focus on the thesis."),
    ('a', "That's a reasonable call. That frees up March."),
    ('u', 'Good news: my chapter deadline was moved to July 15.'),
    ('a', 'Great, that gives you six more weeks.'),
    ('u', 'I mostly work from home now, the library got too crowded.'),
    ('a', 'Working from home can be great if you keep the same hours.'),
    ('u', "I'm vegetarian, so when I cook for the lab party next week it'll be a veggie curry."),
    ('a', 'A veggie curry is a crowd-pleaser. Want a recipe that scales to twenty people?'),
]
# fmt: on


@dataclass(frozen=True)
class Chat:
    turns: list[tuple[str, str]]
    facts: list[tuple[str | None, str]]  # (type, statement) active at the end
    superseded: list[str]  # what a change of mind replaced
    never: list[str]  # the assistant's words: in no memory


CHATS = {
    "a developer with a coding assistant": Chat(
        DEVELOPER,
        facts=[
            ("identity", "The user's name is Dana."),
            ("identity", "Is a backend engineer."),
            ("identity", "Works at Quillpay."),
            ("preference", "Prefers plain unittest.mock over extra libraries."),
            (
                "constraint",
                "The user and others can't ship GPL code, legal is strict about copyleft licences.",
            ),
            ("decision", "Switched from Neovim to Helix in the week before 5 March 2026."),
            (
                "relationship",
                "The user's manager Priya usually reviews the changelog before "
                "the user and others tag.",
            ),
            (None, "Is migrating their billing jobs from cron to Celery this quarter."),
        ],
        superseded=["Uses Neovim with pyright for everything."],
        never=["respx", "connection pool", "MIT", "checklist", ":sh", "Celery beat"],
    ),
    "a family planning travel": Chat(
        FAMILY,
        facts=[
            ("relationship", "The user's child Mia is 7."),
            ("relationship", "The user's child Leo is 4."),
            ("relationship", "The user's child Leo is allergic to peanuts."),
            ("relationship", "The user's husband Tom doesn't eat raw fish."),
            (
                "relationship",
                "The user's mother-in-law Anne might join the user and others for the Tokyo part.",
            ),
            (
                "identity",
                "The user and others live in Ghent, so the user and others would "
                "fly from Brussels.",
            ),
            (
                "constraint",
                "The user's budget is about 6,000 euros for everything, flights included.",
            ),
            ("preference", "Would rather stay in a quiet neighbourhood than in Shinjuku."),
        ],
        superseded=["The user and others are planning a family trip to Japan in April."],
        never=["allergy card", "Golden Week", "Yanaka", "okonomiyaki", "station"],
    ),
    "a student whose plans change": Chat(
        STUDENT,
        facts=[
            ("identity", "Is a second-year PhD student in computational biology at Utrecht."),
            ("identity", "Is vegetarian."),
            ("decision", "Has decided not to apply for the Roche internship after all."),
            ("constraint", "The user's chapter deadline was moved to July 15."),
            ("habit", "Mostly works from home now, the library got too crowded."),
            ("preference", "Would rather focus on the thesis."),
        ],
        superseded=[
            "The user's thesis chapter deadline is June 1.",
            "Is planning to apply for a summer internship at Roche in Basel.",
            "Works from the university library most days, usually from 9 to 5.",
        ],
        never=["six more weeks", "week-by-week", "twenty people", "steady routine"],
    ),
}


def learn_as_a_stop_hook(vault: Vault, name: str, turns: list[tuple[str, str]]) -> None:
    """After each reply, the conversation so far, as Claude Code's Stop hook hands it over."""
    messages: list[Message] = []
    when = datetime(2026, 3, 1, 9, 0)
    for n, (role, text) in enumerate(turns, 1):
        when += timedelta(hours=6)
        messages.append(Message("user" if role == "u" else "assistant", text, str(n),
                                timestamp=when))  # fmt: skip
        if role == "a":
            vault.observe(list(messages), conversation_id=name.replace(" ", "-"))


@pytest.mark.parametrize("name", CHATS)
def test_a_realistic_chat_yields_its_facts_and_resolves_its_changes_of_mind(
    vault: Vault, name: str
):
    chat = CHATS[name]
    learn_as_a_stop_hook(vault, name, chat.turns)
    memories = {}
    for path in sorted(vault.root.rglob("*.md")):
        note = parse_note(path.read_bytes(), path.relative_to(vault.root).as_posix())
        if note.memory is not None and note.memory.type.value != "reflection":
            memories[note.memory.text] = (
                note.memory.type.value,
                note.fields.get("status", "active"),
            )
    active = {text: kind for text, (kind, status) in memories.items() if status == "active"}
    for kind, text in chat.facts:
        assert text in active, f"not learned: {text!r}; active: {sorted(active)}"
        assert kind is None or active[text] == kind, (text, active[text])
    for text in chat.superseded:
        assert memories.get(text, (None, None))[1] == "superseded", (text, memories.get(text))
    for text in memories:
        assert not any(word in text for word in chat.never), text
        assert not text.startswith(("Replying to", "Asked")), text  # no reply quoted as context


def test_the_chats_say_what_the_assistant_said_only_in_its_turns():
    """The `never` words are the assistant's: a fact holding one would be its words."""
    for chat in CHATS.values():
        said = " ".join(t for r, t in chat.turns if r == "u")
        replies = " ".join(t for r, t in chat.turns if r == "a")
        assert all(word in replies and word not in said for word in chat.never)
