"""Secrets never become memories: find API keys, tokens, passwords and card numbers in text.

Design invariant 6: a person who pastes a key into a chat must not find it in a Markdown note
(and in git) a week later. The extractor asks `contains_secret` before proposing a memory and
drops any candidate that has one; `redact` is for showing such text (logs, `--explain`).

Each kind of secret is a named pattern below; `find_secrets` runs them all, drops the look-alikes
a pattern alone would accept (see the checks in `_accept`), and returns the spans sorted and
without overlaps. Detection leans towards finding too much: a false alarm costs one memory that
was about a password anyway, a miss costs a leaked key.

Payment cards: 13 to 19 digits, in one run or in groups separated by single spaces or by single
dashes (one kind of separator, not both), not touching other letters, digits, `+` or `-`, that
pass the Luhn check and are not one digit repeated. Luhn plus length is what tells a card from a
date (8 digits), a phone number (at most 15, and a leading `+`) or an order number (9 in 10
fail Luhn); what it cannot tell apart is documented as the cost of being safe.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["KINDS", "SecretMatch", "contains_secret", "find_secrets", "redact"]


@dataclass(frozen=True)
class SecretMatch:
    """One secret in a text: its kind (`openai_key`, `password`, ...) and its span."""

    kind: str
    start: int
    end: int


# OpenAI keys: `sk-` or `sk-proj-` (also `sk-svcacct-`, `sk-admin-`) and 20+ key characters.
_OPENAI_RE = re.compile(r"(?<![\w-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}")
# Anthropic keys: `sk-ant-` (then `api03-...` or `admin01-...`) and 20+ key characters.
_ANTHROPIC_RE = re.compile(r"(?<![\w-])sk-ant-[A-Za-z0-9_-]{20,}")
# AWS access key ids: `AKIA` (long-term) or `ASIA` (temporary) and 16 uppercase letters/digits.
_AWS_ACCESS_KEY_RE = re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])")
# AWS secret access keys, only when labelled (40 base64 characters alone are too common):
# `aws_secret_access_key = ...`, `AWS_SECRET_ACCESS_KEY: "..."`. The span is the value.
_AWS_SECRET_KEY_RE = re.compile(
    r"aws_?secret_?(?:access_?)?key[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])",
    re.IGNORECASE,
)
# GitHub tokens: personal (`ghp_`), OAuth (`gho_`), user-to-server (`ghu_`), server-to-server
# (`ghs_`), refresh (`ghr_`) with 36 characters; fine-grained personal ones `github_pat_...`.
_GITHUB_RE = re.compile(
    r"(?<![\w-])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})(?![\w-])"
)
# GitLab personal access tokens: `glpat-` and 20+ characters.
_GITLAB_RE = re.compile(r"(?<![\w-])glpat-[A-Za-z0-9_-]{20,}")
# Slack tokens: bot, user, app, refresh... `xoxb-123-456-abc`, ending on a letter or digit.
_SLACK_RE = re.compile(r"(?<![\w-])xox[abprs]-[A-Za-z0-9-]{10,}(?<!-)")
# Stripe secret and restricted keys, live or test (`pk_` publishable keys are public).
_STRIPE_RE = re.compile(r"(?<![\w-])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}")
# Google API keys: `AIza` and exactly 35 more characters.
_GOOGLE_RE = re.compile(r"(?<![\w-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])")
# Hugging Face access tokens: `hf_` and 30+ letters and digits.
_HUGGINGFACE_RE = re.compile(r"(?<![\w-])hf_[A-Za-z0-9]{30,}")
# Any `Bearer <token>` of 20+ token characters (RFC 6750). The span is the token.
_BEARER_RE = re.compile(r"\bBearer[ \t]+(?P<secret>[A-Za-z0-9._~+/-]{20,}=*)", re.IGNORECASE)
# PEM and PGP private key blocks, BEGIN line through END line, or to the end of the text when
# the paste was cut off (half a key is still a key).
_PRIVATE_KEY_RE = re.compile(
    r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----"
    r".*?(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
    re.DOTALL,
)
# JSON Web Tokens: three base64url segments, the header and payload both JSON objects (`eyJ`).
_JWT_RE = re.compile(r"(?<![\w-])eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")
# A password stated in prose or config: `my password is X`, `password: X`, `pw=X`, `passcode is
# X`, `the wifi password for the cabin is X`. The span is the value (inside quotes if quoted).
_PASSWORD_RE = re.compile(
    r"(?<![A-Za-z0-9])(?:pass[ \t-]?word|passwd|passcode|pwd|pw)[\"']?"
    r"(?:[ \t]+(?:for|to|of|on|at)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+)?[\w.@'-]+"
    r"(?:[ \t]+[\w.@'-]+)?)?"
    r"(?:[ \t]+(?:is|was)[ \t]*:?[ \t]+|[ \t]*[:=][ \t]*)"
    r"(?P<secret>\"[^\"\n]+\"|'[^'\n]+'|`[^`\n]+`|[^\s\"'`]+)",
    re.IGNORECASE,
)
# A passphrase: as a password, but the value runs to the end of the clause, as passphrases
# are several words ("correct horse battery staple").
_PASSPHRASE_RE = re.compile(
    r"(?<![A-Za-z0-9])pass[ \t-]?phrase[\"']?"
    r"(?:[ \t]+(?:for|to|of|on|at)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+)?[\w.@'-]+)?"
    r"(?:[ \t]+(?:is|was)[ \t]*:?[ \t]+|[ \t]*[:=][ \t]*)"
    r"(?P<secret>\"[^\"\n]+\"|'[^'\n]+'|`[^`\n]+`|[^\s\"'`.,;!?][^\n.,;!?]*)",
    re.IGNORECASE,
)
# A PIN stated in text: `PIN is 1234`, `pin: 0000`, `PIN code = 482913`. Only digits count,
# so "pin it to the board" and "the pin is loose" are not secrets.
_PIN_RE = re.compile(
    r"(?<![\w-])PIN(?:[ \t]+code)?(?:[ \t]+(?:is|was)[ \t]*:?[ \t]+|[ \t]*[:=][ \t]*)"
    r"(?P<secret>\d{4,12})(?!\d)",
    re.IGNORECASE,
)
# Payment card candidates: 13 to 19 digits, optionally grouped by single spaces or dashes, not
# glued to a word, another digit, a `+` (phone numbers) or a `-` (ids, ranges). Luhn decides.
_CARD_RE = re.compile(r"(?<![\w+-])\d(?:[ -]?\d){12,18}(?![\w-])")
# A digit, for the checks on generic tokens (real keys are random, so they hold digits).
_DIGIT_RE = re.compile(r"\d")

#: Values after "password is" that are words about the password, not the password itself
#: ("my password is too short", "the password is on the fridge"). Compared lowercased.
NOT_A_PASSWORD = frozenset(
    """
    a an the not no none nothing too very so wrong incorrect invalid required needed mandatory
    optional set unset empty blank missing changed expired reset same different weak strong long
    short secure insecure easy hard simple complex case-sensitive written saved stored hidden
    secret private known unknown forgotten lost in on at under inside somewhere here there below
    above attached it that this what which my your his her their our still also now being
    available and or but for to of protected encrypted hashed good bad fine ok okay shared
    something anything generated random only just probably usually always never kept like as
    should must will would can could may might has have had does do did be been is are was were
    managed updated asking requested prompted
    """.split()
)


def _luhn(digits: str) -> bool:
    """The Luhn checksum every payment card number satisfies (and 9 in 10 other numbers fail)."""
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _is_card(text: str) -> bool:
    digits = text.replace(" ", "").replace("-", "")
    if " " in text and "-" in text:  # "1234 5678-..." is two numbers, not one card
        return False
    return 13 <= len(digits) <= 19 and len(set(digits)) > 1 and _luhn(digits)


def _has_digit(text: str) -> bool:
    return bool(_DIGIT_RE.search(text))


def _is_password_value(text: str) -> bool:
    first = text.split()[0].lower() if text.split() else ""
    return bool(first) and first not in NOT_A_PASSWORD


def _is_passphrase_value(text: str) -> bool:
    # One plain word is judged like a password; several words are a phrase unless it opens
    # with a word about the passphrase ("is not set", "is on the fridge").
    words = text.split()
    if len(words) >= 3:
        return True
    return bool(words) and words[0].lower() not in NOT_A_PASSWORD


#: Every kind, in priority order: where two kinds start at the same place the earlier one
#: names the span (a key after "password:" is reported as that key). Each row: the kind, its
#: pattern, and an optional check on the matched secret that rejects look-alikes.
PATTERNS: tuple[tuple[str, re.Pattern[str], Callable[[str], bool] | None], ...] = (
    ("private_key", _PRIVATE_KEY_RE, None),
    ("jwt", _JWT_RE, None),
    ("anthropic_key", _ANTHROPIC_RE, None),
    ("openai_key", _OPENAI_RE, _has_digit),  # "sk-learn-is-a-python-library" has none
    ("aws_access_key", _AWS_ACCESS_KEY_RE, None),
    ("aws_secret_key", _AWS_SECRET_KEY_RE, None),
    ("github_token", _GITHUB_RE, None),
    ("gitlab_token", _GITLAB_RE, None),
    ("slack_token", _SLACK_RE, None),
    ("stripe_key", _STRIPE_RE, None),
    ("google_api_key", _GOOGLE_RE, None),
    ("huggingface_token", _HUGGINGFACE_RE, None),
    ("bearer_token", _BEARER_RE, _has_digit),  # "bearer of the-unfortunate-news" is prose
    ("password", _PASSWORD_RE, _is_password_value),
    ("password", _PASSPHRASE_RE, _is_passphrase_value),
    ("password", _PIN_RE, None),
    ("card_number", _CARD_RE, _is_card),
)

#: The kinds `find_secrets` reports, in priority order.
KINDS = tuple(dict.fromkeys(kind for kind, _, _ in PATTERNS))

# Punctuation that ends a sentence after an unquoted value rather than belonging to it.
_TRAILING = ".,;:!?)]}>"
_QUOTES = "\"'`"


def _span(match: re.Match[str]) -> tuple[int, int, str]:
    """The secret's span and text: the whole match, or its `secret` group when it has one.

    A quoted value loses its quotes; an unquoted one its trailing sentence punctuation.
    """
    if "secret" not in match.re.groupindex:
        return match.start(), match.end(), match.group()
    start, end = match.span("secret")
    value = match["secret"]
    if len(value) >= 2 and value[0] in _QUOTES and value[-1] == value[0]:
        return start + 1, end - 1, value[1:-1]
    stripped = value.rstrip(_TRAILING).rstrip()
    return start, start + len(stripped), stripped


def find_secrets(text: str) -> list[SecretMatch]:
    """Every secret in `text`, sorted by start, with no two spans overlapping.

    Where two patterns claim overlapping text, the one that starts first (at the same start,
    the earlier kind in `PATTERNS`) names the span, and the span grows to cover both, so no
    piece of either secret is left outside it.
    """
    found: list[tuple[int, int, int, str]] = []
    for priority, (kind, pattern, check) in enumerate(PATTERNS):
        for match in pattern.finditer(text):
            start, end, value = _span(match)
            if end > start and (check is None or check(value)):
                found.append((start, priority, end, kind))
    found.sort(key=lambda item: (item[0], item[1], -item[2]))
    merged: list[SecretMatch] = []
    for start, _, end, kind in found:
        if merged and start < merged[-1].end:
            last = merged[-1]
            if end > last.end:
                merged[-1] = SecretMatch(last.kind, last.start, end)
            continue
        merged.append(SecretMatch(kind, start, end))
    return merged


def contains_secret(text: str) -> str | None:
    """The kind of the first secret in `text`, or None when it holds none."""
    secrets = find_secrets(text)
    return secrets[0].kind if secrets else None


def redact(text: str, secrets: Sequence[SecretMatch] | None = None) -> str:
    """`text` with each secret replaced by `[REDACTED <kind>]`; every other character kept.

    `secrets` is `find_secrets(text)` when the caller already has it (scanning is the cost).
    """
    parts: list[str] = []
    position = 0
    for secret in find_secrets(text) if secrets is None else secrets:
        parts.append(text[position : secret.start])
        parts.append(f"[REDACTED {secret.kind}]")
        position = secret.end
    parts.append(text[position:])
    return "".join(parts)
