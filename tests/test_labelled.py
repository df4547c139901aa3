"""Labelled secrets and random tokens: every phrasing the reviewer found, and the facts that
only look like them.

Each row's values are built from pieces, so no secret scanner flags this repository.
"""

from __future__ import annotations

import re

import pytest
from secretkit import HEX_32, RANDOM_24, REVIEWER, SEED_24, URLSAFE

from tota_vault.extract.labelled import find_labelled, find_random_tokens
from tota_vault.extract.secrets import find_secrets, redact


def row(text: str, kind: str, *values: str) -> pytest.param:
    """`text` holds each of `values`, which must all be found (at least one as `kind`)."""
    return pytest.param(text, kind, values, id=f"{kind}:{text[:40]}")


LABELLED = [
    *[row(text, kind, *values) for text, kind, *values in REVIEWER],
    # more ties: was, =, is set to, is now, set/changed ... to, X is my L, lists
    row("the alarm code was 0419 until May", "password", "0419"),
    row("router_pwd = Tr0ub4dor", "password", "Tr0ub4dor"),
    row("The wifi password is set to Lemon-Tree-42", "password", "Lemon-Tree-42"),
    row("I changed the gate code to 9931 last week", "password", "9931"),
    row("hunter22 is my password for the forum", "password", "hunter22"),
    row("P@ssw0rd99 was my old password", "password", "P@ssw0rd99"),
    row("my PINs are 1111, 2222 and 3333", "password", "1111", "2222", "3333"),
    row("the codes for the lockers are 4410 / 4411", "password", "4410", "4411"),
    row("The passcode for the laptop is 880011", "password", "880011"),
    row("my seed phrase: " + SEED_24, "seed_phrase", SEED_24),
    row("access token " + RANDOM_24 + " expires Friday", "api_key", RANDOM_24),
    row("the client secret is " + URLSAFE, "api_key", URLSAFE),
    row("my passport number is X12345678", "national_id", "X12345678"),
    row("Her social security number: 123456789", "national_id", "123456789"),
    row('the wifi password is "blue sky 7" at the cabin', "password", "blue sky 7"),
    row("my wifi pa\u017fsword's hunter2024", "password", "hunter2024"),  # matched as "s"
    row("DOOR CODE 5567", "password", "5567"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "kind", "values"), LABELLED)
def test_every_value_is_found_whole(text: str, kind: str, values: tuple[str, ...]) -> None:
    found = find_secrets(text)
    assert kind in {s.kind for s in found}
    for value in values:
        start = text.index(value)
        assert any(s.start <= start and start + len(value) <= s.end for s in found), value
    shown = redact(text, found)
    assert not any(value in shown for value in values)


@pytest.mark.parametrize(("text", "kind", "values"), LABELLED)
def test_the_sentence_around_the_value_is_kept(
    text: str, kind: str, values: tuple[str, ...]
) -> None:
    """Only values are redacted: what is left of the text is the text without them."""
    rest = text
    for value in values:
        rest = rest.replace(value, "", 1)
    assert re.sub(r"\[REDACTED [a-z_]+\]", "", redact(text)) == rest


NEAR_MISSES = [
    "my password manager is 1Password",
    "I use 1Password as my password manager",
    "the code is clean",
    "I changed my wifi provider",
    "my PIN arrived by mail",
    "I got a new API key yesterday",
    "the token of appreciation was a cake",
    "the combination of the two is 3",
    "my secret is that I love karaoke",
    "I use the same password everywhere, which is bad",
    "I have 2 passwords to remember",
    "a personal number of things to do",
    "my license plate is funny",
    "I keep my recovery phrase in a safe",
    "the seed phrase is written on paper in the drawer",
    "I reset my password and the gate code yesterday",
    "We crossed the finish line with my team",
    "I scored 1234 points in the game",
    "My son's PIN number is something he forgets",
    "the door code changed in 2024",
    "I love the Chicago Bulls and the New York Knicks",
    "I'm reading the book ThinkingFastAndSlow2011 this week",
    "see commit 9fceb02d0ae598e95dc970b74767f19372d61af8 for the fix",
    "sha256: 3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b",
    "https://example.com/search?q=transfer%20learning%20medical%20datasets",
    "path src/tota_vault/extract/secrets_and_more.py",
    "I use Python 3 as my main language",
    "The secret to good bread is 3 rises",
    "The token is valid for 30 days",
    "My ID number starts with 19",
    "I set my alarm to 6:30 every day",
    "I have 12 words to learn for the spelling test",
    "The password policy requires 12 characters",
    "The access code for the event is on the ticket",
    "My favourite combo is fries and a shake",
    "I passed 3 exams this year",
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_a_near_miss_stays_a_fact(text: str) -> None:
    assert find_secrets(text) == []


RANDOM = [
    pytest.param(HEX_32, id="hex-32"),
    pytest.param(RANDOM_24, id="base64-24"),
    pytest.param(URLSAFE, id="urlsafe"),
    pytest.param(RANDOM_24 + "==", id="padded"),
]


@pytest.mark.parametrize("token", RANDOM)
def test_a_random_token_is_found_without_a_label(token: str) -> None:
    text = f"use {token} when it asks"
    start = text.index(token)
    assert find_random_tokens(text) == [(start, start + len(token), "random_token")]


NOT_RANDOM = [
    pytest.param("InternationalBusinessMachines", id="camel-case-words"),
    pytest.param("MyFavouriteBand2024Tour", id="camel-case-with-year"),
    pytest.param("aaaaBBBB1111ccccDDDD2222", id="low-entropy"),
    pytest.param("abcdefghijklmnopqrstuvwxyz012345", id="no-upper-case"),
    pytest.param("pk_live_" + "A1b2C3d4E5f6G7h8J9k0", id="stripe-publishable"),
    pytest.param("eyJhbGciOiJIUzI1NiJ9", id="jwt-header"),
    pytest.param("0123456789" * 4, id="hex-digits-only"),
]


@pytest.mark.parametrize("token", NOT_RANDOM)
def test_a_regular_token_is_not_random(token: str) -> None:
    assert find_random_tokens(f"it is {token} here") == []


def test_labelled_spans_are_the_values_only() -> None:
    text = "my wifi password's hunter2024, and the door code 5567."
    spans = sorted(find_labelled(text))
    assert [text[start:end] for start, end, _ in spans] == ["hunter2024", "5567"]
    assert {kind for _, _, kind in spans} == {"password"}


def test_the_corpus_covers_every_labelled_kind() -> None:
    assert {r.values[1] for r in LABELLED} == {"password", "seed_phrase", "api_key", "national_id"}
    assert len(LABELLED) >= 30 and len(NEAR_MISSES) >= 25


FOUND_BY_FUZZING = [
    # a label with a qualifier, then the value with no tie; two qualifiers, then `is`
    row("btw, my password for the forum DoUhP6478 / kkfXupQc856A*; thanks", "password",
        "DoUhP6478", "kkfXupQc856A*"),
    row("my password for the forum for the cabin is kuiSn5Inf until May.", "password",
        "kuiSn5Inf"),
    # a key after `=` that ends on `!`
    row("My API key=593ab6ec6588f2c7c295c863ffb7a41fcc173ce8!", "api_key",
        "593ab6ec6588f2c7c295c863ffb7a41fcc173ce8!"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "kind", "values"), FOUND_BY_FUZZING)
def test_what_fuzzing_found_is_found(text: str, kind: str, values: tuple[str, ...]) -> None:
    test_every_value_is_found_whole(text, kind, values)
