"""Secrets never become memories: find API keys, tokens, passwords and card numbers in text.

Design invariant 6: a person who pastes a key into a chat must not find it in a Markdown note
(and in git) a week later. The extractor asks `contains_secret` before proposing a memory and
drops any candidate that has one; `redact` is for showing such text (logs, `--explain`).

Each kind of secret is a named pattern below; `find_secrets` runs them all, drops the look-alikes
a pattern alone would accept (see the checks in `_accept`), and returns the spans sorted and
without overlaps. Detection leans towards finding too much: a false alarm costs one memory that
was about a password anyway, a miss costs a leaked key.

Beyond keys, the kinds a person says in prose: a password "set to" something, a wifi or door
code, what they "log in with", a username and password pair, a password inside a URL
(`postgres://user:pass@host`), an IBAN (country, length and the mod-97 check), a labelled bank
account number or UK sort code, and national identity numbers (US social security, UK national
insurance, or any number labelled as a passport, ID card, tax, social security or NHS number).
A label inside a path or a file name is no label ("../../etc/passwd: outside the vault", see
`labelled.in_a_path`). Each pattern runs only when one of its hint words is in the text (see
`PATTERNS`), so an ordinary sentence costs a few substring tests, not twenty regular
expressions.

Payment cards: 13 to 19 digits, in one run or in groups separated by single spaces or by single
dashes (one kind of separator, not both), not touching other letters, digits, `+` or `-`, that
pass the Luhn check and are not one digit repeated. Luhn plus length is what tells a card from a
date (8 digits), a phone number (at most 15, and a leading `+`) or an order number (9 in 10
fail Luhn); what it cannot tell apart is documented as the cost of being safe.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .labelled import HINT_FOLD as _HINT_FOLD
from .labelled import HINTS as _LABEL_HINTS
from .labelled import (
    NO_NOUN_AFTER,
    NOT_A_PASSWORD,
    find_labelled,
    find_random_tokens,
    in_a_path,
)

__all__ = [
    "KINDS",
    "KIND_NAMES",
    "NOT_A_PASSWORD",
    "SecretMatch",
    "contains_secret",
    "describe",
    "find_secrets",
    "is_only_secret",
    "redact",
]


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
# Incoming webhook URLs are secrets: whoever holds one can post as the app. Slack's
# `https://hooks.slack.com/services/T.../B.../...` (also `workflows/`, `triggers/`) and
# Discord's `https://discord.com/api/webhooks/<id>/<token>`. The span is the path after the host.
_WEBHOOK_RE = re.compile(
    r"(?i:https?://(?:hooks\.slack\.com/|(?:canary\.|ptb\.)?discord(?:app)?\.com/api/webhooks/))"
    r"(?P<secret>[A-Za-z0-9_/-]{12,})"
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
    r"(?:[ \t]+[\w.@'-]+){0,2})?"
    r"(?:[ \t]+(?:is|was)[ \t]*:?[ \t]+|[ \t]*[:=][ \t]*)"
    r"(?P<secret>\"[^\"\n]+\"|'[^'\n]+'|`[^`\n]+`|[^\s\"'`]+)",
    re.IGNORECASE,
)
# A passphrase: as a password, but the value runs to the end of the clause, as passphrases
# are several words ("correct horse battery staple"); a conjunction and a pronoun start the
# next clause ("... staple and I love it": the rest of the sentence is not the secret).
_NEW_CLAUSE = r"[ \t]+(?:and|but|so|because|though|which)[ \t]+(?:I|I'm|I've|it|we|my|you|that)\b"
_PASSPHRASE_RE = re.compile(
    r"(?<![A-Za-z0-9])pass[ \t-]?phrase[\"']?"
    r"(?:[ \t]+(?:for|to|of|on|at)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+)?[\w.@'-]+"
    r"(?:[ \t]+[\w.@'-]+){0,2})?"
    r"(?:[ \t]+(?:is|was)[ \t]*:?[ \t]+|[ \t]*[:=][ \t]*)"
    r"(?P<secret>\"[^\"\n]+\"|'[^'\n]+'|`[^`\n]+`|[^\s\"'`.,;!?]"
    r"(?:(?!" + _NEW_CLAUSE + r")[^\n.,;!?])*)",
    re.IGNORECASE,
)
# A PIN stated in text: `PIN is 1234`, `pin: 0000`, `PIN code = 482913`. Only digits count,
# so "pin it to the board" and "the pin is loose" are not secrets.
_PIN_RE = re.compile(
    r"(?<![\w-])PIN(?:[ \t]+code)?(?:[ \t]+(?:is|was)[ \t]*:?[ \t]+|[ \t]*[:=][ \t]*)"
    r"(?P<secret>\d{4,12})(?!\d)",
    re.IGNORECASE,
)
# A value in prose: quoted, or one token (trailing sentence punctuation is trimmed later).
_VALUE = r"(?P<secret>\"[^\"\n]+\"|'[^'\n]+'|`[^`\n]+`|[^\s\"'`]+)"
# The words that name a password, a code or a PIN, for the prose patterns below.
_SECRET_NOUN = (
    r"(?:pass[ \t-]?word|passwd|passcode|pass[ \t-]?phrase|pin(?:[ \t]+code)?|pw|pwd|code)"
)
# A password set or changed to a value: "I set the wifi password to X", "changed my PIN to
# 4821", "reset the router password as X". Up to two words name what it is for.
_SET_TO_RE = re.compile(
    r"(?i:\b(?:set|sets|changed?|changes|reset|resets|updated?|updates|made)[ \t]+"
    r"(?:(?:the|my|our|his|her|their|a|an|its)[ \t]+)?(?:[\w'-]+[ \t]+){0,2}"
    + _SECRET_NOUN
    + r"[ \t]+(?:to|as|into)[ \t]*:?[ \t]+)"
    + _VALUE
)
# A code that opens something: "the wifi code is X", "door code: 4821", "our alarm code is
# 7H3k". Only these codes: "the promo code is SUMMER20" and "the zip code is 10115" are not
# secrets. The value must hold a digit or a symbol, or be quoted (see `_is_code_value`).
_CODE_RE = re.compile(
    r"(?i:\b(?:wi-?fi|wlan|network|router|door|front[ \t]door|gate|garage|alarm|access|entry|"
    r"lock|padlock|locker|safe|keypad|building|backup|recovery|verification|2fa|mfa|otp|"
    r"one-time|unlock|sim|puk|login|security|cvv|cvc)[ \t]+(?:code|codes|key|pin)"
    r"(?:[ \t]+(?:for|to|of|on|at)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+)?[\w.@'-]+"
    r"(?:[ \t]+[\w.@'-]+)?)?"
    r"(?:[ \t]+(?:is|was|are)[ \t]*:?[ \t]+|[ \t]*[:=][ \t]*))" + _VALUE
)
# What a person logs in with: "I always log in with Hunter2024!", "sign in using x9#Lp".
# Only a value that looks like a password counts (`_is_login_value`): "log in with Google",
# "with my fingerprint", "with 2FA" are not secrets.
#: Where and as whom may come between ("I log in to the staging box as root with X", "log
#: into the router with admin / X": a user and a slash before the password).
_LOGIN_RE = re.compile(
    r"(?i:\b(?:log(?:ging|ged|s)?[ \t-]?(?:in|on)(?:to)?|login|logon|sign(?:ing|ed|s)?[ \t-]?in"
    r"(?:to)?|unlock(?:s|ed|ing)?[ \t]+(?:it|(?:the|my)[ \t]+[\w-]+))"
    r"(?:[ \t]+(?!with\b|using\b)[\w.@'-]+){0,6}[ \t]+(?:with|using)[ \t]+"
    r"(?:[^\s\"'`/:|,]+[ \t]*[/|][ \t]*)?)" + _VALUE
)
# A username and password together: "username alice and the password hunter22", "user: bob
# pass: x9", "username sam, pw s3cret". The span is the password; the username is no secret,
# and no option (`docker login --password-stdin`). The user label is a word of its own, not a
# path's ("C:\\Users\\me\\passwd: ..." and "/home/user/passwd: ..." are error messages).
_PAIR_RE = re.compile(
    r"(?i:\b(?:user(?:[ \t_-]?name)?|login|user[ \t]?id|e-?mail)"
    r"(?![A-Za-z0-9])[\"']?[ \t]*"
    r"(?:is[ \t]+|[:=][ \t]*)?)"
    r"[^\s\"'`-][^\s\"'`]*[ \t]*(?:,|;|/|\||&|(?i:and|with))?[ \t]*"
    r"(?i:(?:(?:the|my|a)[ \t]+)?(?:pass(?:word)?|passwd|pwd|pw)[\"']?[ \t]*"
    r"(?:(?:is|was)[ \t]+|[:=][ \t]*)?)" + _VALUE
)
# A login and its password said together without the word "password": "the admin login is
# admin / Kx9#mPq2vL", "my laptop login is ruben and Zebra!Moon88" (a tie, then the user, a
# separator, the password), or glued as `user:password` ("the credentials deploy:Gh7$kLm2pQ").
# The span is the password; only a value shaped like one counts (`_is_strong_value`), so "the
# login is alice and she" or "the login flow / OAuth2" (no tie) are facts.
_LOGIN_PAIR_RE = re.compile(
    r"(?i:\b(?:log[ \t-]?in|logon|sign[ \t-]?in|credentials?|creds)[\"']?)"
    r"(?:(?i:[ \t]+(?:is|are|was|were)[ \t]+|[ \t]*[:=][ \t]*)(?i:(?:as|for)[ \t]+)?"
    r"[^\s\"'`/:|,]+(?:[ \t]*[/|,:][ \t]*|[ \t]+(?i:and|with|plus)[ \t]+)"
    r"|[ \t]+[^\s\"'`/:|,]+:)" + _VALUE
)
# A password on a command line: a MySQL or MariaDB client's `-p` takes it glued on (`mysql -u
# root -pS3cret`; with a space after `-p` it asks instead, and `-P` is the port), `sshpass -p`
# takes it after a space, and any tool's `--password X` or `--pass X` (`--password=X` is
# `_PASSWORD_RE`'s). Case-sensitive: these are options, not prose.
_COMMAND_PASSWORD_RE = re.compile(
    r"\b(?:mysql\w*|mariadb[\w-]*)\b[^\n]*?(?<![\w-])-p(?P<secret>[^\s\"'`-][^\s\"'`]*)"
    r"|\bsshpass\b[^\n]*?(?<![\w-])-p[ \t]+"
    + _VALUE.replace("secret", "secret2")
    + r"|(?<![\w-])--pass(?:word)?[ \t]+"
    + _VALUE.replace("secret", "secret3")
)
# An environment variable that holds a password, a secret or a token, in capitals as shell
# variables are: `PGPASSWORD=Xy7pq9Lm`, `export GITHUB_SECRET=...`, `MY_TOKEN="..."`. The word
# ends the name or a part of it, so `MAX_TOKENS=100` and `TOKENIZERS_PARALLELISM` are not.
_ENV_SECRET_RE = re.compile(
    r"(?<![\w$-])(?=[A-Z])[A-Z0-9_]*?(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN|API_?KEY|"
    r"SECRET_?KEY|ACCESS_?KEY|PRIVATE_?KEY|AUTH)(?:_[A-Z0-9_]*)?[ \t]*=[ \t]*" + _VALUE
)
# A password inside a URL's user info: `postgres://user:pass@host`, `redis://:pass@host`,
# `https://name:token@example.com`. The span is the password: the rest of the URL is a fact.
_URL_CREDENTIALS_RE = re.compile(
    r"\b[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s:@/?#]*:(?P<secret>[^\s@/?#]+)@[A-Za-z0-9\[]"
)
# IBANs: a country code, two check digits and 11 to 30 letters or digits, in one run or in
# groups of four. `_is_iban` checks the country's length and the mod-97 check digits.
_IBAN_RE = re.compile(
    r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?(?![A-Za-z0-9])"
)
# A bank account number, labelled: "my bank account is 12345678", "account number: 1234 5678",
# "acct no. 12345678". Six to twelve digits (a UK account has eight), so "account for 5 people",
# "account 2" and "my account number ends in 42" are not one.
_ACCOUNT_RE = re.compile(
    r"(?i:\b(?:(?:bank|current|savings|checking|chequing)[ \t]+)?"
    r"(?:account|acct|a/c)(?:[ \t]+(?:number|no\.?|num|nr\.?|#))?"
    r"(?:[ \t]+(?:is|was)[ \t]*:?[ \t]+|[ \t]*[:=#][ \t]*|[ \t]+))"
    r"(?P<secret>\d(?:[ -]?\d){5,11})(?![\w-]|[ -]\d)"  # more digits: a card's
    + NO_NOUN_AFTER  # "the account 20240115 report", "savings account 5000000 target"
)
# A UK sort code, labelled: "sort code 20-00-00", "sort code: 200000", "sort code is 20 00 00";
# with the account number when it follows ("sort code and account 20-00-00 12345678").
_SORT_CODE_RE = re.compile(
    r"(?i:\bsort[ \t-]?code(?:[ \t]+and[ \t]+account(?:[ \t]+number)?)?"
    r"(?:[ \t]+(?:is|was|are)[ \t]*:?[ \t]+|[ \t]*[:=#][ \t]*|[ \t]+))"
    r"(?P<secret>\d\d(?P<sep>[ -]?)\d\d(?P=sep)\d\d(?:(?:[ \t]*[,/][ \t]*|[ \t]+)\d{8})?)"
    r"(?![\w-])"
)
# US social security numbers as written, `123-45-6789` (never 000, 666 or 9xx first, never a
# 00 group or a 0000 serial: those are not issued).
_SSN_RE = re.compile(r"(?<![\w-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w-])")
# UK national insurance numbers: two letters (with the prefixes never issued excluded), six
# digits, a suffix A to D; with or without the spaces of `AB 12 34 56 C`.
_NINO_RE = re.compile(
    r"(?<![A-Za-z0-9])(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]"
    r"[ ]?\d{2}[ ]?\d{2}[ ]?\d{2}[ ]?[A-D](?![A-Za-z0-9])"
)
# Any number labelled as an identity document: "my passport number is X1234567", "SSN:
# 123456789", "BSN 123456782", "tax ID = ...". Each piece of the value holds a digit (an
# optional check letter may end it), so "my passport is in the drawer" is not one.
_LABELLED_ID_RE = re.compile(
    r"(?i:\b(?:social[ \t]security|national[ \t](?:id|identity|insurance)|passport|"
    r"id[ \t]card|identity[ \t]card|tax[ \t](?:id|identification)|personal[ \t]id|"
    r"citizen[ \t]id|driver'?s[ \t]licen[cs]e|ssn|nino|bsn|personnummer|aadhaar|dni|nie|nif|"
    r"cpf|steuer-?id|codice[ \t]fiscale|pesel|insurance|nhs)"
    r"(?:[ \t]+(?:number|no\.?|num|nr\.?|#|code|id))?"
    r"(?:[ \t]+(?:is|was)[ \t]*:?[ \t]+|[ \t]*[:=#][ \t]*|[ \t]+))"
    r"(?P<secret>[A-Za-z]{0,3}[ ]?\d[A-Za-z0-9]*(?:[ .-]?[A-Za-z]{0,2}\d[A-Za-z0-9]*)*"
    r"(?:[ -]?[A-Za-z])?)(?![A-Za-z0-9])"
)
# Payment card candidates: 13 to 19 digits, optionally grouped by single spaces or dashes, not
# glued to a word, another digit, a `+` (phone numbers) or a `-` (ids, ranges). Luhn decides.
_CARD_RE = re.compile(r"(?<![\w+-])\d(?:[ -]?\d){12,18}(?![\w-])")
# A digit, for the checks on generic tokens (real keys are random, so they hold digits).
_DIGIT_RE = re.compile(r"\d")


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


#: A reference to an environment variable (`$DB_PASS`, `${TOKEN}`, `%APPDATA%`): the value
#: lives elsewhere, the text holds only its name.
_VARIABLE_RE = re.compile(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%[A-Za-z_][A-Za-z0-9_]*%")


def _is_password_value(text: str) -> bool:
    first = text.split()[0].lower() if text.split() else ""
    # A value that is already a redaction is not a new secret: redact is idempotent.
    return (
        bool(first)
        and first not in NOT_A_PASSWORD
        and not first.startswith(_PLACEHOLDER)
        and not _VARIABLE_RE.fullmatch(text)
    )


#: Words after "set the password to" that say what the setting does, not what it is
#: ("I set a password to protect the file", "changed my PIN to be safer").
_SET_TO_WORDS = frozenset(
    """
    protect protects expire expires change rotate reset be match include use access unlock open
    log sign remember keep make avoid stop prevent get secure lock something stronger longer
    default blank zero
    """.split()
)
#: Ways to log in that are not a password ("log in with 2FA", "sign in with Google").
_NOT_A_CREDENTIAL = frozenset(
    "2fa mfa sso u2f fido2 oauth oauth2 totp otp saml ldap passkey passkeys yubikey webauthn "
    "face touch".split()
)
_SYMBOL_RE = re.compile(r"[^A-Za-z\s]")
_EMAIL_RE = re.compile(r"[^\s@]+@[^\s@]+\.[A-Za-z]{2,}")


def _is_set_value(text: str) -> bool:
    return _is_password_value(text) and text.split()[0].lower() not in _SET_TO_WORDS


def _looks_like_password(text: str) -> bool:
    """A token a person would not write as a word: it holds a digit or a symbol, or it was
    quoted (the span of a quoted value has lost its quotes, so spaces mean it was)."""
    return " " in text or bool(_SYMBOL_RE.search(text))


def _is_strong_value(text: str) -> bool:
    """A token a person writes only as a password: six characters or more, letters with a
    digit or a symbol, and not an e-mail address, a web address or a path."""
    return (
        len(text) >= 6
        and _is_password_value(text)
        and any(char.isalpha() for char in text)
        and bool(_SYMBOL_RE.search(text))
        and not _EMAIL_RE.fullmatch(text)
        and "://" not in text
        and not text.startswith(("/", "~", "$", "["))
    )


#: Values of a secret-named variable that are settings, not secrets (`GIT_ASKPASS=true`).
_NOT_A_VALUE = frozenset("true false yes no on off null none nil undefined empty 0 1".split())


def _is_env_value(text: str) -> bool:
    # A path (`PWD=/home/me`, the shell's own working directory) or a reference to another
    # variable (`$DB_PASS`) holds no secret itself.
    return (
        len(text) >= 4
        and _is_password_value(text)
        and text.lower() not in _NOT_A_VALUE
        and not text.startswith(("$", "/", "~", "."))
    )


def _is_code_value(text: str) -> bool:
    return _is_password_value(text) and _looks_like_password(text)


def _is_login_value(text: str) -> bool:
    return (
        _is_password_value(text)
        and text.lower() not in _NOT_A_CREDENTIAL
        and _looks_like_password(text)
        # "log in with me@example.com" names the account, not its password ("P@ssw0rd" is one)
        and not _EMAIL_RE.fullmatch(text)
    )


#: The length of an IBAN in each country that issues them (SWIFT's IBAN registry).
IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28,
    "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
    "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
    "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20,
    "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18,
    "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24,
    "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "TL": 23, "TN": 24, "TR": 26, "UA": 29,
    "VA": 22, "VG": 24, "XK": 20,
}  # fmt: skip


def _is_iban(text: str) -> bool:
    """The country's length and the ISO 7064 mod-97 check (1 in 97 random strings pass it)."""
    compact = text.replace(" ", "")
    if IBAN_LENGTHS.get(compact[:2]) != len(compact):
        return False
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(char, 36)) for char in moved)) % 97 == 1


def _is_identity_number(text: str) -> bool:
    # Five digits at least: "passport 2024" is a year, "ID card 12" a count.
    return len(_DIGIT_RE.findall(text)) >= 5


def _is_passphrase_value(text: str) -> bool:
    # One plain word is judged like a password; several words are a phrase unless it opens
    # with a word about the passphrase ("is not set", "is on the fridge").
    words = text.split()
    if text.lower().startswith(_PLACEHOLDER):
        return False
    if len(words) >= 3:
        return True
    return bool(words) and words[0].lower() not in NOT_A_PASSWORD


#: Every kind, in priority order: where two kinds start at the same place the earlier one
#: names the span (a key after "password:" is reported as that key). Each row: the kind, its
#: pattern, an optional check on the matched secret that rejects look-alikes, and the hints:
#: lowercase words of which the text must hold one for the pattern to run at all (None: the
#: pattern always runs; its own first characters are selective enough).
_DIGITS = tuple("0123456789")  # a number needs a digit
Row = tuple[str, re.Pattern[str], Callable[[str], bool] | None, tuple[str, ...] | None]
PATTERNS: tuple[Row, ...] = (
    ("private_key", _PRIVATE_KEY_RE, None, ("-----begin",)),
    ("jwt", _JWT_RE, None, ("eyj",)),
    ("anthropic_key", _ANTHROPIC_RE, None, ("sk-ant-",)),
    ("openai_key", _OPENAI_RE, _has_digit, ("sk-",)),  # "sk-learn-is-a-python-library"
    ("aws_access_key", _AWS_ACCESS_KEY_RE, None, ("akia", "asia")),
    ("aws_secret_key", _AWS_SECRET_KEY_RE, None, ("secret",)),
    ("github_token", _GITHUB_RE, None, ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_")),
    ("gitlab_token", _GITLAB_RE, None, ("glpat-",)),
    ("slack_token", _SLACK_RE, None, ("xox",)),
    ("webhook_url", _WEBHOOK_RE, _has_digit, ("hooks.slack", "discord")),
    ("stripe_key", _STRIPE_RE, None, ("_live_", "_test_")),
    ("google_api_key", _GOOGLE_RE, None, ("aiza",)),
    ("huggingface_token", _HUGGINGFACE_RE, None, ("hf_",)),
    ("bearer_token", _BEARER_RE, _has_digit, ("bearer",)),  # "bearer of the-unfortunate-news"
    ("url_credentials", _URL_CREDENTIALS_RE, _is_password_value, ("://",)),
    ("password", _PASSWORD_RE, _is_password_value, ("pass", "pw")),
    ("password", _PASSPHRASE_RE, _is_passphrase_value, ("pass",)),
    ("password", _PIN_RE, None, ("pin",)),
    ("password", _SET_TO_RE, _is_set_value, ("pass", "pin", "pw", "code")),
    ("password", _CODE_RE, _is_code_value, ("code", "key", "pin")),
    ("password", _LOGIN_RE, _is_login_value, ("log", "sign", "unlock")),
    ("password", _PAIR_RE, _is_password_value, ("user", "login", "mail")),
    ("password", _LOGIN_PAIR_RE, _is_strong_value, ("log", "sign", "cred")),
    ("password", _COMMAND_PASSWORD_RE, _is_password_value,
        ("mysql", "mariadb", "sshpass", "--pass")),
    ("password", _ENV_SECRET_RE, _is_env_value, ("pass", "pwd", "secret", "token", "key", "auth")),
    ("iban", _IBAN_RE, _is_iban, _DIGITS),
    ("bank_account", _ACCOUNT_RE, None, ("account", "acct", "a/c")),
    ("bank_account", _SORT_CODE_RE, None, ("sort",)),
    ("national_id", _SSN_RE, None, ("-",)),
    ("national_id", _NINO_RE, None, _DIGITS),
    ("national_id", _LABELLED_ID_RE, _is_identity_number, (
        "social", "national", "passport", "card", "identity", "personal", "citizen",
        "tax", "driver", "licen", "ssn", "nino", "bsn",
        "personnummer", "aadhaar", "dni", "nie", "nif", "cpf", "steuer", "fiscale", "pesel",
        "insurance", "nhs",
    )),
    ("card_number", _CARD_RE, _is_card, _DIGITS),
)  # fmt: skip

#: Every hint word, tested once per text (then each pattern's test is a set intersection).
_ALL_HINTS = frozenset(
    [hint for _, _, _, hints in PATTERNS if hints for hint in hints] + list(_LABEL_HINTS)
)

#: The kinds `find_secrets` reports, in priority order: the named patterns', then the labelled
#: values and random tokens of `labelled.py` (which only name a span no pattern named first).
KINDS = tuple(
    dict.fromkeys(
        [kind for kind, _, _, _ in PATTERNS]
        + ["api_key", "seed_phrase", "password", "national_id", "random_token"]
    )
)

#: How each kind is named to a person: in an error ("the text holds a password") and a report.
#: Never the value.
KIND_NAMES = {
    "private_key": "a private key",
    "jwt": "a JSON web token",
    "anthropic_key": "an Anthropic API key",
    "openai_key": "an OpenAI API key",
    "aws_access_key": "an AWS access key",
    "aws_secret_key": "an AWS secret key",
    "github_token": "a GitHub token",
    "gitlab_token": "a GitLab token",
    "slack_token": "a Slack token",
    "webhook_url": "a webhook URL",
    "stripe_key": "a Stripe secret key",
    "google_api_key": "a Google API key",
    "huggingface_token": "a Hugging Face token",
    "bearer_token": "a bearer token",
    "url_credentials": "a password inside a URL",
    "password": "a password",
    "iban": "an IBAN (bank account number)",
    "bank_account": "a bank account number or sort code",
    "national_id": "a national identity number",
    "card_number": "a payment card number",
    "api_key": "an API key or token",
    "seed_phrase": "a wallet recovery (seed) phrase",
    "random_token": "a random-looking key or token",
}

# How `redact` marks a secret it removed ("[REDACTED password]"), lowercased.
_PLACEHOLDER = "[redacted"
# Punctuation that ends a sentence after an unquoted value rather than belonging to it.
_TRAILING = ".,;:!?)]}>"
_QUOTES = "\"'`"


def _span(match: re.Match[str]) -> tuple[int, int, str]:
    """The secret's span and text: the whole match, or its `secret` group when it has one.

    A quoted value loses its quotes; an unquoted one its trailing sentence punctuation.
    """
    # A pattern of several alternatives names each one's value `secret`, `secret2`, ...
    group = next((g for g in match.re.groupindex if g.startswith("secret") and match[g]), None)
    if group is None:
        return match.start(), match.end(), match.group()
    start, end = match.span(group)
    value = match[group]
    if len(value) >= 2 and value[0] in _QUOTES and value[-1] == value[0]:
        return start + 1, end - 1, value[1:-1]
    stripped = value.rstrip(_TRAILING).rstrip()
    after = match.string[end : end + 2]
    if stripped != value and len(after) == 2 and after[0] == " " and after[1].islower():
        # "!" and "?" end a sentence only where none goes on: in "mysql -pS3cret! to my db"
        # or "sshpass -p Secr3t! ssh host" they are the password's own.
        stripped = value.rstrip(_TRAILING.replace("!", "").replace("?", "")).rstrip()
    return start, start + len(stripped), stripped


#: The patterns whose match opens on a label ("password", "door code", "user", "sort code"):
#: a match is dropped where that label is part of a path or a file name (`in_a_path`). Tested
#: after the match, not in the pattern: a look-behind at the front of these patterns is tried
#: at every word and doubled their cost.
_LABEL_FIRST = frozenset(
    {
        _PASSWORD_RE, _PASSPHRASE_RE, _PIN_RE, _CODE_RE, _PAIR_RE, _ACCOUNT_RE, _SORT_CODE_RE,
        _LABELLED_ID_RE,
    }
)  # fmt: skip


def _matches(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)`, without the matches of a label inside a path."""
    return _outside_paths(pattern, text) if pattern in _LABEL_FIRST else pattern.finditer(text)


def _outside_paths(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    # The search goes on right after a label in a path, so a real label it overlapped is found.
    position = 0
    while (match := pattern.search(text, position)) is not None:
        if in_a_path(text, match.start()):
            position = match.start() + 1
            continue
        yield match
        position = max(match.end(), match.start() + 1)


def find_secrets(text: str) -> list[SecretMatch]:
    """Every secret in `text`, sorted by start, with no two spans overlapping.

    Where two patterns claim overlapping text, the one that starts first (at the same start,
    the earlier kind in `PATTERNS`) names the span, and the span grows to cover both, so no
    piece of either secret is left outside it.
    """
    return list(_find_secrets(text))


# Learning scans the same text several times on purpose (the message as it is cleaned, each
# candidate and quote as the guard checks it: each layer checks for itself), so the last few
# texts' answers are kept. The matches are frozen, so a cached answer cannot be changed.
@lru_cache(maxsize=256)
def _find_secrets(text: str) -> tuple[SecretMatch, ...]:
    found: list[tuple[int, int, int, str]] = []
    lowered = text.translate(_HINT_FOLD).lower()
    present = {hint for hint in _ALL_HINTS if hint in lowered}
    for priority, (kind, pattern, check, hints) in enumerate(PATTERNS):
        if hints is not None and present.isdisjoint(hints):
            continue
        for match in _matches(pattern, text):
            start, end, value = _span(match)
            if end > start and (check is None or check(value)):
                found.append((start, priority, end, kind))
    # The labelled values and random tokens rank after every named pattern: where both find a
    # secret at the same place, the pattern's kind ("a GitHub token") is the more exact name.
    extra = len(PATTERNS)
    if not present.isdisjoint(_LABEL_HINTS):
        found.extend((start, extra, end, kind) for start, end, kind in find_labelled(text))
    # A random token inside a secret already found is part of that one (a key after its name).
    named = [(start, end) for start, _, end, _ in found]
    found.extend(
        (start, extra + 1, end, kind)
        for start, end, kind in find_random_tokens(text)
        if not any(start < other_end and other_start < end for other_start, other_end in named)
    )
    found.sort(key=lambda item: (item[0], item[1], -item[2]))
    merged: list[SecretMatch] = []
    for start, _, end, kind in found:
        if merged and start < merged[-1].end:
            last = merged[-1]
            if end > last.end:
                merged[-1] = SecretMatch(last.kind, last.start, end)
            continue
        merged.append(SecretMatch(kind, start, end))
    return tuple(merged)


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


def describe(kind: str) -> str:
    """A kind as a person reads it ("a password"); never the value."""
    return KIND_NAMES.get(kind, f"a secret ({kind})")


_REDACTED_RE = re.compile(r"\[REDACTED [a-z_]+\]")
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'-]{2,}")
#: Words that only talk about the secret or hold a sentence together: what is left of "My
#: wifi password is [REDACTED password]" without them is nothing worth remembering.
_SECRET_TALK = frozenset(
    """
    the and for with that this was were are is has have had not but you your our their his her
    its it's my mine me myself i'm i've i'd use uses used using set sets changed change reset
    always usually now new old here there please remember keep safe just also still again
    password passwords passcode passphrase pin code codes key keys token tokens secret secrets
    wifi wi-fi login log logs logged sign signs signed username user name account bank iban
    number numbers card credit debit ssn social security national insurance passport tax
    api access door gate alarm router network credentials credential can could will would
    should must may might need needs able don't doesn't because everything anything
    github gitlab openai anthropic aws amazon stripe google slack hugging face
    """.split()
)
#: A redacted statement keeps its place as a memory when this many other words remain.
MIN_WORDS_BESIDE_A_SECRET = 3


def is_only_secret(redacted: str) -> bool:
    """Whether a redacted statement says nothing but the secret it held.

    "The wifi password is [REDACTED password]" is useless as a memory and is skipped; "Uses
    postgres://app:[REDACTED url_credentials]@db.internal/app for the staging database" still
    says which database serves staging, and is kept, redacted.
    """
    rest = _REDACTED_RE.sub(" ", redacted)
    words = [w for w in _WORD_RE.findall(rest.lower()) if w not in _SECRET_TALK]
    return len(words) < MIN_WORDS_BESIDE_A_SECRET
