"""Secrets: keys, tokens, passwords and card numbers are found, look-alikes are not.

Every fake secret is built from pieces, so no secret scanner flags this repository.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import single
from hypothesis import given, settings
from hypothesis import strategies as st
from secretkit import RANDOM_24 as RANDOM_ID
from secretkit import REVIEWER
from typer.testing import CliRunner

from tota_vault import SecretError, Vault
from tota_vault.cli import app
from tota_vault.extract import secrets as secrets_module
from tota_vault.extract.base import Candidate
from tota_vault.extract.secrets import (
    KIND_NAMES,
    KINDS,
    SecretMatch,
    contains_secret,
    describe,
    find_secrets,
    is_only_secret,
    redact,
)
from tota_vault.model import MemoryType

ALNUM = "A1b2C3d4E5f6G7h8J9k0"  # 20 mixed characters, a building block
OPENAI = "sk-" + "A1b2" * 6
OPENAI_PROJECT = "sk-" + "proj-" + ALNUM + "_-" + ALNUM
ANTHROPIC = "sk-" + "ant-" + "api03-" + ALNUM * 3
AWS_ID = "AK" + "IA" + "IOSFODNN7EXAMPLE"
AWS_TEMP_ID = "AS" + "IA" + "Z2X3C4V5B6N7M8Q9"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
GITHUB = "gh" + "p_" + "a1B2" * 9
GITHUB_SERVER = "gh" + "s_" + "Z9y8" * 9
GITHUB_PAT = "github" + "_pat_" + "11ABCDEFG0" + "_" + ALNUM * 3
GITLAB = "gl" + "pat-" + ALNUM
SLACK = "xo" + "xb-" + "123456789012-1234567890123-" + "aBcDeFgHiJkLmNoPqRsTuVwX"
STRIPE_LIVE = "sk" + "_live_" + ALNUM + "1234"
STRIPE_RESTRICTED = "rk" + "_live_" + "abcdEFGH12345678"
STRIPE_TEST = "sk" + "_test_" + "4eC39HqLyjWDarjtT1zdp7dc"
GOOGLE = "AI" + "za" + "SyA1b2C3d4E5f6G7h8J9k0L1m2N3o4P5q6r"
HUGGINGFACE = "hf" + "_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ123456"
BEARER = "abc123DEF456ghi789JKL0"
# fmt: off
JWT = "ey" + "JhbGciOiJIUzI1NiJ9" + "." + "ey" + "JzdWIiOiIxMjM0NTY3ODkwIn0" + "." + "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
PRIVATE_KEY = "-----BEGIN " + "RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1b2c3d4\nZ9y8x7w6\n-----END RSA PRIVATE KEY-----"
OPENSSH_KEY = "-----BEGIN " + "OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----"
CUT_KEY = "-----BEGIN " + "PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nMIIEvQIB"
VISA = "4111" + " 1111" * 3
MASTERCARD = "5555-5555-5555-4444"
AMEX = "3782" + "82246310005"  # 15 digits, one run
VISA_13 = "4222222222222"
IBAN_DE = "DE89 3704 0044 " + "0532 0130 00"  # the specimen numbers banks publish
IBAN_GB = "GB82WEST" + "12345698765432"
IBAN_NL = "NL91ABNA" + "0417164300"
IBAN_FR = "FR14 2004 1010 0505 " + "0001 3M02 606"
HEX_32 = "9f8e7d6c" + "5b4a3928" + "17263544" + "33221100"
SEED_12 = "abandon ability able about above absent " + "absorb abstract absurd abuse access accident"
RANDOM_20 = "Xq7Lp2" + "Vn9Rt4" + "Kw8Zb3Md"
# fmt: on


def case(text: str, kind: str, secret: str) -> pytest.param:
    """A row: `text` holds `secret` once, which must be found as `kind` with its exact span."""
    return pytest.param(text, kind, secret, id=f"{kind}:{text[:32]}")


SECRETS = [
    case(f"my key is {OPENAI} ok", "openai_key", OPENAI),
    case(f"OPENAI_API_KEY={OPENAI_PROJECT}", "openai_key", OPENAI_PROJECT),
    case(f"use {ANTHROPIC}.", "anthropic_key", ANTHROPIC),
    case(f"id {AWS_ID} for prod", "aws_access_key", AWS_ID),
    case(f"temporary {AWS_TEMP_ID}", "aws_access_key", AWS_TEMP_ID),
    case(f"aws_secret_access_key = {AWS_SECRET}\n", "aws_secret_key", AWS_SECRET),
    case(f'AWS_SECRET_ACCESS_KEY: "{AWS_SECRET}"', "aws_secret_key", AWS_SECRET),
    case(f"token {GITHUB} here", "github_token", GITHUB),
    case(f"({GITHUB_SERVER})", "github_token", GITHUB_SERVER),
    case(f"GH_TOKEN={GITHUB_PAT}", "github_token", GITHUB_PAT),
    case(f"gitlab {GITLAB}", "gitlab_token", GITLAB),
    case(f"SLACK_BOT_TOKEN={SLACK}", "slack_token", SLACK),
    case(f"stripe {STRIPE_LIVE}", "stripe_key", STRIPE_LIVE),
    case(f"stripe {STRIPE_RESTRICTED}", "stripe_key", STRIPE_RESTRICTED),
    case(f"test key {STRIPE_TEST}", "stripe_key", STRIPE_TEST),
    case(f"maps key {GOOGLE}!", "google_api_key", GOOGLE),
    case(f"HF_TOKEN={HUGGINGFACE}", "huggingface_token", HUGGINGFACE),
    case(f"Authorization: Bearer {BEARER}.", "bearer_token", BEARER),
    case(f"curl -H 'Authorization: Bearer {JWT}'", "jwt", JWT),
    case(f"session={JWT}", "jwt", JWT),
    case(f"here:\n{PRIVATE_KEY}\nthanks", "private_key", PRIVATE_KEY),
    case(f"{OPENSSH_KEY}", "private_key", OPENSSH_KEY),
    case(f"pasted: {CUT_KEY}", "private_key", CUT_KEY),
    case("my password is hunter2.", "password", "hunter2"),
    case("My Password Is Tr0ub4dor&3 so", "password", "Tr0ub4dor&3"),
    case("password: s3cr3t!", "password", "s3cr3t!"),  # a password may end on `!`
    case("password=letmein", "password", "letmein"),
    case("DB_PASSWORD=p4ss", "password", "p4ss"),
    case('{"password": "hunter 2"}', "password", "hunter 2"),
    case("pw: qwerty123", "password", "qwerty123"),
    case("the passcode is 8841", "password", "8841"),
    case("the wifi password is sunshine", "password", "sunshine"),
    case("The password for my bank account is Gr33n#1", "password", "Gr33n#1"),
    case("my PIN is 1234", "password", "1234"),
    case("pin code: 004821", "password", "004821"),
    case("my passphrase is correct horse battery staple.", "password", "correct horse battery staple"),
    case("passphrase: 'a b c'", "password", "a b c"),
    case(f"card {VISA} exp 12/27", "card_number", VISA),
    case(f"pay with {MASTERCARD}.", "card_number", MASTERCARD),
    case(f"amex {AMEX}", "card_number", AMEX),
    case(f"old visa {VISA_13}", "card_number", VISA_13),
    case("postgres://app:S3cretPw@db.example.com/app", "url_credentials", "S3cretPw"),
    case("https://hooks.slack.com/services/T0AB12CD3/B0EF45GH6/w9Xq", "webhook_url", "services/T0AB12CD3/B0EF45GH6/w9Xq"),
    case(f"my IBAN is {IBAN_DE}.", "iban", IBAN_DE),
    case("my bank account is 12345678", "bank_account", "12345678"),
    case("my SSN is 123-45-6789", "national_id", "123-45-6789"),
    case(f"My API key is {HEX_32}", "api_key", HEX_32),
    case(f"My recovery phrase is {SEED_12} for my wallet", "seed_phrase", SEED_12),
    case(f"cloned it with {RANDOM_20} yesterday", "random_token", RANDOM_20),
]  # fmt: skip


@pytest.mark.parametrize(("text", "kind", "secret"), SECRETS)
def test_secret_is_found_with_kind_and_span(text: str, kind: str, secret: str) -> None:
    start = text.index(secret)
    assert find_secrets(text) == [SecretMatch(kind, start, start + len(secret))]
    assert contains_secret(text) == kind


def test_every_kind_has_a_case() -> None:
    assert {row.values[1] for row in SECRETS} == set(KINDS)


LOOK_ALIKES = [
    pytest.param("order 4111 1111 1111 1112 shipped", id="16-digits-failing-luhn"),
    pytest.param("order 4111111111111112", id="16-digit-run-failing-luhn"),
    pytest.param("0000 0000 0000 0000", id="one-digit-repeated"),
    pytest.param("4111 1111-1111 1111", id="mixed-separators"),
    pytest.param("4111  1111  1111  1111", id="double-spaces"),
    pytest.param("on 2023-05-08 at 13:56", id="iso-date"),
    pytest.param("20230508 and 2023-05-08T13:56:00Z", id="compact-date"),
    pytest.param("call +1 415 555 0100", id="phone"),
    pytest.param("call +44 20 7946 0958 1234", id="long-phone-with-plus"),
    pytest.param("I forgot my password.", id="password-no-value"),
    pytest.param("Password reset required", id="password-reset"),
    pytest.param("my password is too short", id="password-is-too-short"),
    pytest.param("the password is on the fridge", id="password-is-somewhere"),
    pytest.param("password:", id="password-colon-nothing"),
    pytest.param("the passphrase is not set", id="passphrase-not-set"),
    pytest.param("pin it to the board; the pin is loose", id="pin-the-verb"),
    pytest.param("I use sk-learn and scikit-learn", id="sk-learn"),
    pytest.param("sk-this-is-not-a-real-key-at-all", id="sk-prose"),
    pytest.param("id 123e4567-e89b-12d3-a456-426614174000", id="uuid"),
    pytest.param("commit 9fceb02d0ae598e95dc970b74767f19372d61af8", id="git-sha"),
    pytest.param("commit 1234567890123456789012345678901234567890", id="all-digit-sha"),
    pytest.param("the bearer of bad-news-travels-far-and-wide", id="bearer-prose"),
    pytest.param("ghp_short and AKIAshort and hf_hub_download", id="short-prefixes"),
    pytest.param("pk_live_" + ALNUM, id="stripe-publishable"),
    pytest.param("eyJhbGciOiJIUzI1NiJ9 alone", id="jwt-header-only"),
    pytest.param("-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----", id="public-key"),
    pytest.param("tasks-" + "abcdefghijklmnopqrstuvwxyz0123", id="sk-inside-a-word"),
    pytest.param("", id="empty"),
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alike_is_not_a_secret(text: str) -> None:
    assert find_secrets(text) == []
    assert contains_secret(text) is None
    assert redact(text) == text


REDACTIONS = [
    pytest.param(f"key {OPENAI}.", "key [REDACTED openai_key].", id="key"),
    pytest.param("my password is hunter2.", "my password is [REDACTED password].", id="password"),
    pytest.param('{"password": "hunter 2"}', '{"password": "[REDACTED password]"}', id="quoted"),
    pytest.param(
        f"Authorization: Bearer {BEARER}",
        "Authorization: Bearer [REDACTED bearer_token]",
        id="bearer-keeps-scheme",
    ),
    pytest.param(f"Bearer {OPENAI}", "Bearer [REDACTED openai_key]", id="specific-kind-wins"),
    pytest.param(f"password: {GITHUB}", "password: [REDACTED github_token]", id="key-as-password"),
    pytest.param(
        f"card {VISA}, key {GITLAB}\nand pw={AWS_ID}",
        "card [REDACTED card_number], key [REDACTED gitlab_token]\nand pw=[REDACTED aws_access_key]",
        id="several",
    ),
    pytest.param(f"a\n{CUT_KEY}", "a\n[REDACTED private_key]", id="cut-key-to-end"),
]


@pytest.mark.parametrize(("text", "expected"), REDACTIONS)
def test_redact(text: str, expected: str) -> None:
    assert redact(text) == expected
    assert redact(text, find_secrets(text)) == expected  # the scan the extractor already has


def test_text_around_secrets_is_kept_exactly() -> None:
    before = "  Héllo,\tworld!\r\n  «quoted» "
    middle = " \n\n  between   "
    after = " …and after\n\n"
    text = before + OPENAI + middle + VISA + after
    secrets = find_secrets(text)
    assert [s.kind for s in secrets] == ["openai_key", "card_number"]
    assert (
        redact(text) == before + "[REDACTED openai_key]" + middle + "[REDACTED card_number]" + after
    )
    pieces = [
        text[: secrets[0].start],
        text[secrets[0].end : secrets[1].start],
        text[secrets[1].end :],
    ]
    assert pieces == [before, middle, after]


def test_matches_are_sorted_and_never_overlap() -> None:
    text = f"pw: {VISA} then {JWT} and Bearer {JWT} and {OPENAI} {OPENAI}"
    secrets = find_secrets(text)
    assert [s.start for s in secrets] == sorted(s.start for s in secrets)
    assert all(a.end <= b.start for a, b in zip(secrets, secrets[1:], strict=False))
    assert [s.kind for s in secrets] == ["password", "jwt", "jwt", "openai_key", "openai_key"]
    # The password span grew to cover the whole card, so no digits are left behind.
    assert text[secrets[0].start : secrets[0].end] == VISA


def test_contains_secret_reports_the_first() -> None:
    assert contains_secret(f"{GITLAB} then {OPENAI}") == "gitlab_token"
    assert contains_secret("I prefer tea") is None


# --- the corpus: secrets said the way people say them, per kind ------------------------------
#
# Each row is a realistic sentence and the secret in it. The near-misses below are the same
# words in sentences that hold no secret: a false alarm costs a fact, a miss leaks a password.
# Both tables must pass in full; `test_corpus_figures` says how big each is.

PROSE_PASSWORDS = [
    case("I set the wifi password to sunflower42", "password", "sunflower42"),
    case("I set the wifi password to 'blue tractor 9'", "password", "blue tractor 9"),
    case("I changed my PIN to 4821 yesterday", "password", "4821"),
    case("Reset the router password to Kx7!pq2 after the update.", "password", "Kx7!pq2"),
    case("the wifi code is 7H3kq9", "password", "7H3kq9"),
    case("Our door code is 4821#, don't share it", "password", "4821#"),
    case("the gate code for the cabin is 1990*", "password", "1990*"),
    case("alarm code: 0417", "password", "0417"),
    case("my backup codes are 8f2k-19dd and more", "password", "8f2k-19dd"),
    case("I always log in with Hunter2024!", "password", "Hunter2024"),  # "!" ends the sentence
    case("I log in with tr0ub4dor every morning", "password", "tr0ub4dor"),
    case("I usually sign in using x9#Lp2", "password", "x9#Lp2"),
    case("I log in with P@ssw0rd1 at work", "password", "P@ssw0rd1"),
    case("the passphrase for my backup drive is purple monkey dishwasher.", "password", "purple monkey dishwasher"),
    case("the passphrase: correct horse battery staple", "password", "correct horse battery staple"),
    case("username alice and the password hunter22", "password", "hunter22"),
    case("user: bob pass: x9Qz", "password", "x9Qz"),
    case("username sam, pw s3cret", "password", "s3cret"),
    case("my username is sam and my password is velvet99", "password", "velvet99"),
    case("The password for my old bank account is Gr33n#1", "password", "Gr33n#1"),
    case("the wifi password is sunshine", "password", "sunshine"),
    case("wifi password: 'lemon tree'", "password", "lemon tree"),
    # Found by a user-style review (2026-12-02), each stored word for word before:
    case("The staging admin login is admin / Kx9#mPq2vL and I use it for smoke tests.", "password", "Kx9#mPq2vL"),
    case("For the VPN I log in as rvdberg with the passphrase 'blue-horse-battery-77'.", "password", "blue-horse-battery-77"),
    case("I connect with mysql -u root -pS3cretP4ss! to my local database for testing.", "password", "S3cretP4ss!"),
    case("My laptop login is ruben and Zebra!Moon88, I use it every day at work.", "password", "Zebra!Moon88"),
    case("I use the credentials deploy:Gh7$kLm2pQ for the staging server every morning.", "password", "Gh7$kLm2pQ"),
    case("I run PGPASSWORD=Xy7pq9Lm psql -h db every day.", "password", "Xy7pq9Lm"),
    case('export GITHUB_SECRET="q8Vn2!zz" in my shell profile', "password", "q8Vn2!zz"),
    case("I mirror it with sshpass -p Secr3t! ssh backup@nas nightly", "password", "Secr3t!"),
    case("the deploy script runs restic --password Tq9#vv21 backup", "password", "Tq9#vv21"),
    case("my passphrase \"correct horse\" is old", "password", "correct horse"),
    # A second user-style review (2026-12-02): where and as whom before "with", a user and a
    # slash, and a passphrase whose sentence goes on after it.
    case("I log in to the staging box as root with Tr0ub4dor&3 every morning.", "password", "Tr0ub4dor&3"),
    case("Logs in to staging as root with Tr0ub4dor&3.", "password", "Tr0ub4dor&3"),
    case("I log into the router with admin / Sup3rS3cret!", "password", "Sup3rS3cret"),
    case("My passphrase is correct horse battery staple and I love it.", "password", "correct horse battery staple"),
]  # fmt: skip
WEBHOOKS = [
    case("I like using the Slack webhook https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX for alerts.", "webhook_url", "services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"),
    case("alerts go to https://discord.com/api/webhooks/123456789012345678/abcDEF_ghi-jkl now", "webhook_url", "123456789012345678/abcDEF_ghi-jkl"),
]  # fmt: skip
URL_CREDENTIALS = [
    case("the db is postgres://admin:S3cretPw@db.example.com:5432/app", "url_credentials", "S3cretPw"),
    case("redis://:p4ssw0rd@cache.internal:6379", "url_credentials", "p4ssw0rd"),
    case("clone https://sam:hunter22@git.example.org/repo.git", "url_credentials", "hunter22"),
    case("amqp://guest:guestpw@localhost:5672/", "url_credentials", "guestpw"),
    case("mongodb+srv://app:Zq9-77x@cluster0.example.net/db", "url_credentials", "Zq9-77x"),
]  # fmt: skip
IBANS = [
    case(f"my IBAN is {IBAN_DE}", "iban", IBAN_DE),
    case(f"pay the rent to {IBAN_GB} please", "iban", IBAN_GB),
    case(f"IBAN: {IBAN_NL}.", "iban", IBAN_NL),
    case(f"French account {IBAN_FR}", "iban", IBAN_FR),
]
NATIONAL_IDS = [
    case("my SSN is 123-45-6789", "national_id", "123-45-6789"),
    case("social security number: 078-05-1121", "national_id", "078-05-1121"),
    case("SSN 219099999 for the form", "national_id", "219099999"),
    case("my national insurance number is AB 12 34 56 C", "national_id", "AB 12 34 56 C"),
    case("NI number JG103759A", "national_id", "JG103759A"),
    case("my passport number is X1234567", "national_id", "X1234567"),
    case("my BSN is 123456782", "national_id", "123456782"),
    case("tax ID = 12 345 678 901", "national_id", "12 345 678 901"),
    case("my national ID number is 80010112345", "national_id", "80010112345"),
]  # fmt: skip
CORPUS = PROSE_PASSWORDS + URL_CREDENTIALS + WEBHOOKS + IBANS + NATIONAL_IDS
#: Common UK secrets a user review found stored word for word, file name included (the sort
#: code beside the account number is a second secret, so these are not in `CORPUS`, whose
#: rows each hold one): learned, added and scanned for as every corpus secret is.
REVIEWED_UK = [
    ("My NHS number is 943 476 5919.", "national_id", "943 476 5919"),
    ("The drug cupboard code is 7734 and I work on ward 5.", "password", "7734"),
    ("My bank account is 12345678 with sort code 20-00-00.", "bank_account", "12345678"),
]


@pytest.mark.parametrize(("text", "kind", "secret"), CORPUS)
def test_corpus_secret_is_found(text: str, kind: str, secret: str) -> None:
    start = text.index(secret)
    assert find_secrets(text) == [SecretMatch(kind, start, start + len(secret))]
    assert secret not in redact(text)


NEAR_MISSES = [
    # a code review: a number that goes on naming a thing is a year, a model, a report's date
    pytest.param("The account 20240115 report is due Friday.", id="account-date-report"),
    pytest.param("My savings account 5000000 target is far off.", id="account-amount-target"),
    pytest.param("ticket: account 123456 locked, see JIRA", id="account-ticket"),
    pytest.param("I pushed the code for the lobby 2024 redesign", id="code-for-a-year"),
    pytest.param("I wrote the code for the elevator 3000 series", id="code-for-a-model"),
    pytest.param("my password manager is 1Password", id="password-manager"),
    pytest.param("I changed my wifi provider last month", id="wifi-provider"),
    pytest.param("I set a password to protect the file", id="set-password-to-protect"),
    pytest.param("I changed my password to something stronger", id="changed-to-something"),
    pytest.param("The wifi code is on the router", id="code-is-somewhere"),
    pytest.param("the promo code is SUMMER20", id="promo-code"),
    pytest.param("the zip code is 10115", id="zip-code"),
    pytest.param("I always log in with Google", id="login-with-google"),
    pytest.param("I log in with my fingerprint", id="login-with-fingerprint"),
    pytest.param("I sign in with 2FA now", id="login-with-2fa"),
    pytest.param("I log in with sam@example.com", id="login-with-email"),
    pytest.param("I log in to the portal with Google", id="login-somewhere-with-google"),
    pytest.param("I logged in to work with my badge", id="login-somewhere-with-badge"),
    pytest.param("I sign in to Slack with SSO every day", id="login-somewhere-with-sso"),
    pytest.param("see https://hooks.slack.com/ for the docs", id="webhook-host-only"),
    pytest.param("my username and password are saved in the browser", id="username-and-password"),
    pytest.param("see https://example.com/docs?page=2 for details", id="ordinary-url"),
    pytest.param("https://sam@git.example.org/repo.git", id="url-user-no-password"),
    pytest.param("http://localhost:8080/app", id="url-with-port"),
    pytest.param("I opened a savings account at my bank", id="account-without-digits"),
    pytest.param("my account number ends in 42", id="account-last-digits"),
    pytest.param("my passport is in the drawer", id="passport-somewhere"),
    pytest.param("my passport expires in 2027", id="passport-year"),
    pytest.param("call 555-123-4567 after six", id="phone-dashes"),
    pytest.param("the meeting is in room 123-45", id="room-number"),
    pytest.param("order DE12345678 shipped", id="order-number-like-iban"),
    pytest.param("ISO 8601 and RFC 3339 dates", id="standards"),
    pytest.param("I renewed my car insurance for 2024", id="insurance-year"),
    pytest.param("the password is on a sticky note", id="password-on-note"),
    pytest.param("I need to reset my password", id="reset-password"),
    pytest.param("my PIN is too easy to guess", id="pin-no-value"),
    pytest.param("the door code changed last week", id="door-code-changed"),
    pytest.param("the login flow / OAuth2 is new", id="login-noun-then-slash"),
    pytest.param("the login is alice and she rotates it", id="login-then-a-word"),
    pytest.param("I log in to GitHub with my key", id="login-to-a-site"),
    pytest.param("sign in at 9:00 please", id="sign-in-at-a-time"),
    pytest.param("the login page is at example.com/login2024", id="login-page-url"),
    pytest.param("mysql -u root -p mydb", id="mysql-asks-for-the-password"),
    pytest.param("mysql -P3306 -h db", id="mysql-port"),
    pytest.param("use --password to set it", id="password-option-without-value"),
    pytest.param("docker login --password-stdin < token.txt", id="password-stdin"),
    pytest.param("MAX_TOKENS=100 and TOKENIZERS_PARALLELISM=false", id="token-counts"),
    pytest.param("GIT_ASKPASS=true git fetch", id="askpass-setting"),
    pytest.param("DB_PASSWORD=$PROD_DB_PASSWORD in the env file", id="variable-reference"),
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_corpus_near_miss_is_not_a_secret(text: str) -> None:
    assert find_secrets(text) == []


def test_corpus_figures() -> None:
    """The corpus covers every kind the issue named, in both directions."""
    assert {row.values[1] for row in CORPUS} == {
        "password",
        "url_credentials",
        "webhook_url",
        "iban",
        "national_id",
    }
    assert len(CORPUS) >= 35 and len(NEAR_MISSES) >= 25


def test_every_kind_has_a_name_and_the_name_holds_no_value() -> None:
    assert set(KIND_NAMES) == set(KINDS)
    assert describe("password") == "a password"
    assert describe("someday_kind") == "a secret (someday_kind)"


@pytest.mark.parametrize(("text", "kind", "secret"), SECRETS + CORPUS)
def test_redact_is_idempotent(text: str, kind: str, secret: str) -> None:
    once = redact(text)
    assert redact(once) == once
    assert find_secrets(once) == []


ONLY_SECRET = [
    pytest.param("My wifi password is [REDACTED password].", True, id="wifi-password"),
    pytest.param("Set the wifi password to [REDACTED password]", True, id="set-to"),
    pytest.param("My IBAN is [REDACTED iban]", True, id="iban"),
    pytest.param("Always logs in with [REDACTED password]", True, id="login"),
    pytest.param("My OpenAI key is [REDACTED openai_key] for the bot", True, id="key-for-the-bot"),
    pytest.param(
        "Uses postgres://app:[REDACTED url_credentials]@db.internal/app for the staging database",
        False,
        id="url-keeps-the-fact",
    ),
    pytest.param(
        "Pays the rent of the Lisbon flat to [REDACTED iban] every month", False, id="rent"
    ),
]


@pytest.mark.parametrize(("text", "only"), ONLY_SECRET)
def test_is_only_secret(text: str, only: bool) -> None:
    assert is_only_secret(text) is only


# --- the guard on every way in: remember, tota add, observe, any extractor ----------------------


def files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".tota" not in p.parts
    }


def values_of(secret: str) -> list[bytes]:
    """The secret as bytes, and its longest run without spaces (a grouped IBAN, a phrase)
    when that run is itself telling: a 2-character run such as "AB" of "AB 12 34 56 C" also
    occurs in random memory ids, and looking for it made the test fail now and then."""
    longest = max(secret.split(), key=len)
    return [secret.encode()] + ([longest.encode()] if len(longest) >= 6 else [])


@pytest.mark.parametrize(("text", "kind", "secret"), SECRETS + CORPUS)
def test_remember_refuses_a_secret_naming_the_kind_never_the_value(
    vault: Vault, text: str, kind: str, secret: str
) -> None:
    before = files(vault.root)
    with pytest.raises(SecretError) as raised:
        vault.remember("preference", text)
    message = str(raised.value)
    assert message == f"refused: the text holds {describe(kind)}; tota never stores secrets"
    assert secret not in message and raised.value.kind == kind
    assert files(vault.root) == before  # nothing written


def test_remember_refuses_a_secret_in_tags_or_key(vault: Vault) -> None:
    with pytest.raises(SecretError, match="^refused: a tag holds a GitHub token;"):
        vault.remember("preference", "Likes tea.", tags=[GITHUB])
    with pytest.raises(SecretError, match="^refused: the key holds a password;"):
        vault.remember("preference", "Likes tea.", key=f"password={ALNUM}")


runner = CliRunner()


@pytest.mark.parametrize(
    ("text", "kind", "secret"),
    [PROSE_PASSWORDS[0].values, URL_CREDENTIALS[0].values, IBANS[0].values, NATIONAL_IDS[0].values,
     *REVIEWED_UK],
)  # fmt: skip
def test_tota_add_refuses_with_one_line_and_exit_1(
    tmp_path: Path, text: str, kind: str, secret: str
) -> None:
    root = tmp_path / "vault"
    result = runner.invoke(app, ["--vault", str(root), "add", "preference", text])
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert lines == [
        f"tota: error: refused: the text holds {describe(kind)}; tota never stores secrets"
    ]
    assert not list(root.rglob("*.md"))


@pytest.mark.parametrize(("text", "kind", "secret"), CORPUS + REVIEWED_UK)
def test_observe_keeps_every_corpus_secret_out_of_the_vault(
    vault: Vault, text: str, kind: str, secret: str
) -> None:
    report = vault.observe(
        [{"role": "user", "content": f"{text}\nI live in Porto."}], conversation_id="c"
    )
    assert report.secrets[kind] >= 1
    assert "Lives in Porto." in [o.text for o in report.outcomes if o.action == "create"]
    for name, data in files(vault.root).items():
        assert not any(
            holds(data, value) or holds(name.encode(), value) for value in values_of(secret)
        )
    stored = every_byte(vault.root)  # the index and its turns too
    assert not any(holds(stored, value) for value in values_of(secret)), secret
    shown = json.dumps(report.to_dict())
    assert secret not in shown and report.to_dict()["secrets"][kind] >= 1


def test_a_clause_that_carries_a_secret_is_skipped_not_stored_redacted(vault: Vault) -> None:
    """A redaction marker is no fact: the clause holding the secret is skipped as a whole
    (issue #11), reported as a secret, and no note holds either the secret or the marker."""
    url = "postgres://app:" + "S3cretPw" + "@db.internal/app"
    report = vault.observe(
        [{"role": "user", "content": f"I use {url} for the staging database."}],
        conversation_id="c",
    )
    assert not [o for o in report.outcomes if o.action == "create"]
    assert [s.reason for s in report.skipped] == ["contains a secret"]
    assert "S3cretPw" not in json.dumps(report.to_dict())
    for data in files(vault.root).values():
        assert b"S3cretPw" not in data and b"REDACTED" not in data
    assert report.secrets == {"url_credentials": 1}


class LeakyExtractor:
    """An extractor that ignores the rules: it puts secrets in its statements and quotes."""

    name = "leaky"

    def extract(self, messages, *, conversation_id):
        pw = "hunter" + "22"
        return [
            Candidate(MemoryType.PREFERENCE, f"The wifi password is {pw}.", "user", "1",
                      strength=0.9, quote=f"my wifi password is {pw}"),
            Candidate(MemoryType.PROJECT, f"Deploys the blog with {GITHUB} from the laptop in the study.",
                      "user", "2", strength=0.9, quote="deploys"),
        ], []  # fmt: skip


def test_the_guard_runs_on_any_extractors_candidates(vault: Vault) -> None:
    report = vault.observe(
        [{"role": "user", "content": "hello"}], conversation_id="c", extractor=LeakyExtractor()
    )
    actions = [(o.action, o.reason) for o in report.outcomes]
    assert actions[0] == ("skip", "contains a secret (password)")
    assert actions[1][0] == "create"
    assert report.secrets == {"password": 2, "github_token": 1}
    for data in files(vault.root).values():
        assert b"hunter22" not in data and GITHUB.encode() not in data
    assert b"[REDACTED github_token]" in b"".join(files(vault.root).values())


def test_tota_extract_reports_secrets_by_kind(tmp_path: Path) -> None:
    chat = tmp_path / "chat.txt"
    chat.write_text(
        f"User: I set the wifi password to sunflower42\nUser: my IBAN is {IBAN_DE}\n"
        "User: I live in Porto.\n",
        "utf-8",
    )
    result = runner.invoke(app, ["--vault", str(tmp_path / "v"), "extract", str(chat)])
    assert result.exit_code == 0
    assert (
        "Secrets kept out of the vault (redacted or skipped): 1 iban, 1 password" in result.stdout
    )
    assert "sunflower42" not in result.stdout and "3704" not in result.stdout


class RecordingExtractor:
    """An extractor (a model behind an API, say) that only records what it was shown."""

    name = "recording"

    def __init__(self) -> None:
        self.seen: list[str] = []

    def extract(self, messages, *, conversation_id):
        self.seen.extend(m.content for m in messages)
        return [], []


def test_no_extractor_is_ever_shown_a_secret(vault: Vault) -> None:
    recorder = RecordingExtractor()
    texts = [row.values[0] for row in CORPUS]
    report = vault.observe(
        [{"role": "user", "content": t} for t in texts]
        + [{"role": "assistant", "content": f"Saved your key {GITHUB} for later."}],
        conversation_id="c",
        extractor=recorder,
    )
    shown = "\n".join(recorder.seen)
    for row in CORPUS:
        assert row.values[2] not in shown
    assert GITHUB not in shown
    assert sum(report.secrets.values()) == len(CORPUS) + 1


# --- the hint words never hide a secret -----------------------------------------------------------


#: Pieces of every kind's sentences, with tabs and case changes, mixed with random text.
PIECES = st.sampled_from(
    [row.values[0] for row in SECRETS + CORPUS]
    + [row.values[0] for row in NEAR_MISSES + LOOK_ALIKES]
    + ["ID\tcard number: X1234567", "Personal\tID 80010112345", "PASSWORD:\thunter22", "\t", " "]
    + [
        "my pa\u017fsword is hunter22",
        "my P\u0130N is 4821",
        "my p\u0131n is 4821",
        "ban\u212a code: 1234#",
        "\u0130BAN",
    ]
)
MIXED = st.lists(PIECES | st.text(max_size=20), max_size=6).map(" ".join)


def assert_the_hints_hide_nothing(text: str) -> None:
    """`find_secrets` with its hint gate finds exactly what every pattern run on `text` finds."""
    ungated = tuple(
        (kind, pattern, check, None) for kind, pattern, check, _ in secrets_module.PATTERNS
    )
    secrets_module._find_secrets.cache_clear()  # else the second call is the first's answer
    gated = find_secrets(text)
    original = secrets_module.PATTERNS
    secrets_module.PATTERNS = ungated
    secrets_module._find_secrets.cache_clear()
    try:
        assert find_secrets(text) == gated
    finally:
        secrets_module.PATTERNS = original
        secrets_module._find_secrets.cache_clear()


@settings(max_examples=300, deadline=None, derandomize=True)
@given(text=MIXED, upper=st.booleans())
def test_the_hints_never_hide_a_secret(text: str, upper: bool) -> None:
    """`find_secrets` with its hint gate finds exactly what every pattern run on the text finds."""
    assert_the_hints_hide_nothing(text.upper() if upper else text)


# --- issue #14: every way in, end to end ---------------------------------------------------------


def every_byte(root: Path) -> bytes:
    """Every file under the vault, the index and tota's own state included, and every path in
    it (from the vault's root: the temp folder's own name, "pytest-5567", is not the vault's)."""
    paths = sorted(p for p in root.rglob("*") if p.is_file())
    names = [p.relative_to(root).as_posix().encode() for p in paths]
    return b"\n".join(names + [p.read_bytes() for p in paths])


def holds(stored: bytes, piece: bytes) -> bool:
    """Whether `stored` holds `piece`; a short one (a 4-digit door code) only as a token of its
    own, since digests and ids, random by design, hold any four hex digits now and then (a
    full run once failed on "5567" inside a hash)."""
    if len(piece) >= 6:
        return piece in stored
    return (
        re.search(rb"(?<![0-9A-Za-z])" + re.escape(piece) + rb"(?![0-9A-Za-z])", stored) is not None
    )


def planted_values() -> list[str]:
    return [value for _, _, *values in REVIEWER for value in values]


def reviewer_chat() -> str:
    return "".join(f"User: {text}\n" for text, _, *_ in REVIEWER) + "User: I live in Porto.\n"


def test_tota_extract_json_and_the_prompt_hook_keep_every_reviewer_secret_out(
    tmp_path: Path,
) -> None:
    chat = tmp_path / "conv.txt"
    chat.write_text(reviewer_chat(), "utf-8")
    root = tmp_path / "v"
    result = runner.invoke(app, ["--vault", str(root), "extract", str(chat), "--json"])
    assert result.exit_code == 0, result.output
    report = single(json.loads(result.stdout))
    assert "Lives in Porto." in [o["text"] for o in report["outcomes"]]
    assert set(report["secrets"]) >= {"password", "seed_phrase", "api_key", "national_id"}
    stored = every_byte(root)
    assert b"Porto" in stored  # the index and the notes were written, and are read here
    prompt = "What is my wifi password, my bank PIN, the garage code and my API key?"
    hook = subprocess.run(
        [sys.executable, "-m", "tota_vault", "hook", "prompt"],
        input=json.dumps({"session_id": "s", "prompt": prompt}).encode(),
        capture_output=True, timeout=60, check=False,
        env={**os.environ, "TOTA_VAULT": str(root)},
    )  # fmt: skip
    assert hook.returncode == 0, hook.stderr
    for value in planted_values():
        assert value not in result.stdout, value
        assert not any(holds(stored, piece) for piece in values_of(value)), value
        assert value.encode() not in hook.stdout, value


def test_mcp_learn_keeps_every_reviewer_secret_out(vault_dir: Path) -> None:
    from mcp import Client

    from tota_vault.mcp_server import create_server

    chat = [{"role": "user", "content": text} for text, _, *_ in REVIEWER]
    chat.append({"role": "user", "content": "I live in Porto."})

    async def main() -> Any:
        async with Client(create_server(vault_dir)) as client:
            return await client.call_tool("learn", {"messages": chat, "conversation_id": "c"})

    result = asyncio.run(main())
    assert not result.is_error
    shown = json.dumps(result.structured_content)
    assert result.structured_content["counts"]["create"] >= 1
    stored = every_byte(vault_dir)
    for value in planted_values():
        assert value not in shown, value
        assert not any(holds(stored, piece) for piece in values_of(value)), value


IDS_WITH_SECRETS = [
    pytest.param({"conversation_id": GITHUB}, "the conversation id", id="conversation-id"),
    pytest.param({"id": GITHUB}, "the id of message 1", id="message-id"),
    pytest.param({"name": "my password is hunter22"}, "the name of message 1", id="name"),
]


@pytest.mark.parametrize(("change", "where"), IDS_WITH_SECRETS)
def test_an_id_holding_a_secret_is_refused_naming_the_field(
    vault: Vault, change: dict[str, str], where: str
) -> None:
    conversation_id = change.pop("conversation_id", "c")
    message = {"role": "user", "content": "I live in Porto.", **change}
    with pytest.raises(SecretError) as refused:
        vault.observe([message], conversation_id=conversation_id)
    assert str(refused.value).startswith(f"refused: {where} holds ")
    assert GITHUB not in str(refused.value) and "hunter22" not in str(refused.value)
    assert GITHUB.encode() not in every_byte(vault.root)
    assert not list(vault.root.rglob("*.md"))


def test_random_ids_are_not_secrets(vault: Vault) -> None:
    """Ids are random by design: a random-looking id alone is no reason to refuse."""
    assert contains_secret(RANDOM_ID) == "random_token"  # as text, it would be redacted
    message = {"role": "user", "content": "I live in Porto.", "id": RANDOM_ID}
    report = vault.observe([message], conversation_id="conv_" + RANDOM_ID)
    assert report.count("create") == 1


def test_tota_extract_refuses_a_conversation_id_holding_a_token(tmp_path: Path) -> None:
    chat = tmp_path / "conv.txt"
    chat.write_text("User: I live in Porto.\n", "utf-8")
    root = tmp_path / "v"
    result = runner.invoke(
        app, ["--vault", str(root), "extract", str(chat), "--conversation-id", GITHUB]
    )
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        "tota: error: refused: the conversation id holds a GitHub token; tota never stores secrets"
    ]
    assert GITHUB not in result.output
    assert not root.exists() or GITHUB.encode() not in every_byte(root)


def test_a_long_message_is_read_to_the_cap_and_the_report_says_so(vault: Vault) -> None:
    from tota_vault.pipeline import MAX_MESSAGE_CHARS

    filler = "Nothing here. " * (MAX_MESSAGE_CHARS // 14)
    message = {"role": "user", "content": f"I live in Porto. {filler} I love jazz."}
    report = vault.observe([message], conversation_id="c")
    texts = [o.text for o in report.outcomes]
    assert "Lives in Porto." in texts and not any("jazz" in t for t in texts)
    assert report.notes == [
        f"message 1 is {len(message['content']):,} characters: only its first "
        f"{MAX_MESSAGE_CHARS:,} were read"
    ]


# --- old notes: secrets stored before the guard knew their phrasing -----------------------------


def test_doctor_names_old_notes_that_hold_a_secret_by_kind_only(vault: Vault) -> None:
    (vault.root / "preference").mkdir(exist_ok=True)
    (vault.root / "preference" / "wifi.md").write_text(
        "My wifi password's hunter2024 and I live in Lisbon.\n", "utf-8"
    )
    (vault.root / "preference" / "coffee.md").write_text("Prefers dark roast coffee.\n", "utf-8")
    (vault.root / "preference" / "My API key is 9f8e7d6c5b4a39281726354433221100.md").write_text(
        "An old note named for its key.\n", "utf-8"
    )
    vault.sync()
    report = vault.doctor()
    assert report.secrets == [
        ("preference/My API key is 9f8e7d6c5b4a39281726354433221100.md", "an API key or token"),
        ("preference/wifi.md", "a password"),
    ]
    assert not report.ok
    shown = json.dumps(report.to_dict())
    assert "hunter2024" not in shown and '"kind": "a password"' in shown


def test_tota_doctor_prints_one_line_per_note_and_exits_1(tmp_path: Path) -> None:
    root = tmp_path / "v"
    runner.invoke(app, ["--vault", str(root), "add", "preference", "Prefers tea."])
    (root / "note.md").write_text("The code to the garage is 7731\n", "utf-8")
    runner.invoke(app, ["--vault", str(root), "sync"])
    result = runner.invoke(app, ["--vault", str(root), "doctor"])
    assert result.exit_code == 1
    lines = [line for line in result.stdout.splitlines() if line.startswith("secret: ")]
    assert lines == ["secret: note.md: note holds a password (edit it out, or `tota forget` it)"]
    assert "7731" not in result.stdout


def test_mcp_learn_refuses_a_conversation_id_holding_a_token(vault_dir: Path) -> None:
    from mcp import Client

    from tota_vault.mcp_server import create_server

    chat = [{"role": "user", "content": "I live in Porto."}]

    async def main() -> Any:
        async with Client(create_server(vault_dir)) as client:
            return await client.call_tool("learn", {"messages": chat, "conversation_id": GITHUB})

    result = asyncio.run(main())
    message = "\n".join(block.text for block in result.content)
    assert result.is_error and "\n" not in message
    assert "the conversation id holds a GitHub token" in message and GITHUB not in message
    assert GITHUB.encode() not in every_byte(vault_dir)


def test_remember_takes_a_random_looking_source_id(vault: Vault) -> None:
    """A source is an id, random by design; a random token in the text is still refused."""
    stored = vault.remember("preference", "Prefers tea.", sources=[f"c#{RANDOM_ID}"])
    assert stored.path
    with pytest.raises(SecretError):
        vault.remember("preference", f"Prefers tea with {RANDOM_ID}.")


def test_doctor_finds_a_token_an_old_vault_stored_as_a_source(vault: Vault) -> None:
    note = vault.remember("preference", "Prefers tea.", sources=["c#1"])
    path = vault.root / note.path
    # What an old tota wrote when a conversation id was a token (issue #14, finding 2).
    path.write_text(path.read_text("utf-8").replace("c#1", f"{GITHUB}#1"), "utf-8")
    vault.sync()
    assert vault.doctor().secrets == [(note.path, "a GitHub token")]


#: A user-style review's chat (2026-12-02): five credentials in phrasings the guard missed,
#: stored word for word in notes, in three file names and in the index's turns, while
#: `tota doctor` said "All good".
REVIEWED_CREDENTIALS = [
    ("The staging admin login is admin / Kx9#mPq2vL and I use it for smoke tests.", "Kx9#mPq2vL"),
    ("For the VPN I log in as rvdberg with the passphrase 'blue-horse-battery-77'.",
     "blue-horse-battery-77"),
    ("I connect with mysql -u root -pS3cretP4ss! to my local database for testing.",
     "S3cretP4ss"),
    ("My laptop login is ruben and Zebra!Moon88, I use it every day at work.", "Zebra!Moon88"),
    ("I use the credentials deploy:Gh7$kLm2pQ for the staging server every morning.",
     "Gh7$kLm2pQ"),
]  # fmt: skip


def test_tota_extract_keeps_reviewed_credentials_out_of_notes_names_and_turns(
    tmp_path: Path,
) -> None:
    chat = tmp_path / "sec.txt"
    chat.write_text(
        "".join(f"User: {text}\n" for text, _ in REVIEWED_CREDENTIALS) + "User: I live in Porto.\n",
        "utf-8",
    )
    root = tmp_path / "v"
    result = runner.invoke(app, ["--vault", str(root), "extract", str(chat), "--json"])
    assert result.exit_code == 0, result.output
    report = single(json.loads(result.stdout))
    assert "Lives in Porto." in [o["text"] for o in report["outcomes"]]
    assert report["secrets"]["password"] == len(REVIEWED_CREDENTIALS)
    stored = every_byte(root)  # notes, their paths, the index and its turns
    assert b"Porto" in stored
    for _, value in REVIEWED_CREDENTIALS:
        assert value.encode() not in stored and value not in result.stdout, value


@pytest.mark.parametrize(
    ("text", "kind"),
    [(text, "password") for text, _ in REVIEWED_CREDENTIALS]
    + [(text, kind) for text, kind, _ in REVIEWED_UK],
)
def test_doctor_finds_a_reviewed_credential_in_an_old_note(
    vault: Vault, text: str, kind: str
) -> None:
    (vault.root / "episode").mkdir(exist_ok=True)
    (vault.root / "episode" / "old.md").write_text(f"{text}\n", "utf-8")
    vault.sync()
    assert vault.doctor().secrets == [("episode/old.md", describe(kind))]


# --- a user review of the built wheel (2026-12-02): UK secrets, and labels inside paths ---------

#: Common UK secrets the guard stored word for word, file name included (review item 7).
UK_SECRETS = [
    case("My NHS number is 943 476 5919.", "national_id", "943 476 5919"),
    case("NHS no: 9434765919", "national_id", "9434765919"),
    case("my NHS number's 9434765919", "national_id", "9434765919"),
    case("9434765919 is my NHS number", "national_id", "9434765919"),
    case("The drug cupboard code is 7734 and I work on ward 5.", "password", "7734"),
    case("the code to the drug cupboard is 7734", "password", "7734"),
    case("The key safe code is 1234.", "password", "1234"),
    case("our keysafe code: 0852", "password", "0852"),
    case("the lock box code is 3141 by the back door", "password", "3141"),
    case("the staff room code is 4455#", "password", "4455#"),
    case("The locker code is 2580.", "password", "2580"),
    case("the shed code is 1966", "password", "1966"),
    case("my account number is 12345678", "bank_account", "12345678"),
    case("acct no. 1234 5678.", "bank_account", "1234 5678"),
    case("sort code: 20-00-00", "bank_account", "20-00-00"),
    case("the sort code is 40 47 84", "bank_account", "40 47 84"),
    case("sort code and account number: 20-00-00 12345678", "bank_account", "20-00-00 12345678"),
    case(f"pay from account {VISA} please", "card_number", VISA),  # a card, not its first digits
]  # fmt: skip
#: The same words holding no secret: a place, a count, a phone number, a date, a phrase.
UK_NEAR_MISSES = [
    pytest.param("I work on ward 5.", id="ward-5"),
    pytest.param("We met in room 12 at the clinic.", id="room-12"),
    pytest.param("the code is clean now", id="code-is-clean"),
    pytest.param("the room code is B12 on the timetable", id="room-code-on-a-timetable"),
    pytest.param("the unit code is COMP1234", id="course-unit-code"),
    pytest.param("I'm sort of tired and it's sort of a code", id="sort-of"),
    pytest.param("the sort order is 1 2 3", id="sort-order"),
    pytest.param("I set up an account for 5 people", id="account-for-5-people"),
    pytest.param("my account has 3 users since 2019", id="account-counts"),
    pytest.param("I opened the account on 2024-03-05", id="account-date"),
    pytest.param("call 020 7946 0958 after six", id="uk-phone"),
    pytest.param("my mobile is 07700 900123", id="uk-mobile"),
    pytest.param("I have worked for the NHS for 12 years", id="nhs-years"),
    pytest.param("call NHS 111 if it gets worse", id="nhs-111"),
    pytest.param("the cupboard is by the door", id="cupboard-no-code"),
    pytest.param("the drug cupboard code changed last week", id="cupboard-code-changed"),
    pytest.param("my car key is broken", id="car-key"),
    pytest.param("the drawer key is brass", id="drawer-key"),
]


@pytest.mark.parametrize(("text", "kind", "secret"), UK_SECRETS)
def test_uk_secret_is_found(text: str, kind: str, secret: str) -> None:
    start = text.index(secret)
    assert find_secrets(text) == [SecretMatch(kind, start, start + len(secret))]
    assert secret not in redact(text)


@pytest.mark.parametrize("text", UK_NEAR_MISSES)
def test_uk_near_miss_is_not_a_secret(text: str) -> None:
    assert find_secrets(text) == []


def test_an_account_number_and_its_sort_code_are_both_found() -> None:
    text = "My bank account is 12345678 with sort code 20-00-00."
    assert redact(text) == (
        "My bank account is [REDACTED bank_account] with sort code [REDACTED bank_account]."
    )
    assert describe("bank_account") == "a bank account number or sort code"


#: A label inside a path or a file name is no label (review item 10): error messages quote
#: paths, and "passwd: outside" is not a password.
PATHS = [
    pytest.param("../../etc/passwd: outside the vault /tmp/v", id="unix-path"),
    pytest.param("C:\\Users\\me\\passwd: outside the vault", id="windows-path"),
    pytest.param("/srv/keys/pin: 4821 is not a note", id="pin-in-a-path"),
    pytest.param("/home/user/passwd: outside the vault /tmp/v", id="user-in-a-path"),
    pytest.param("~/.password: permission denied", id="hidden-file"),
]
STILL_SECRETS = [
    case("password: hunter2", "password", "hunter2"),
    case("my passwd is x7Kq!", "password", "x7Kq!"),
    case("db_password: hunter2", "password", "hunter2"),
    case('conn.password = "hunter2"', "password", "hunter2"),
    case("so... password: hunter2", "password", "hunter2"),
    case("wifi: Cabin / pass: x7Hk9pQ2", "password", "x7Hk9pQ2"),
    # a code review: "/" in prose is "or", a dotted key is a label, a vault path with one
    # separator is read as prose (when in doubt, a secret)
    case("my wifi name/password is Hunter22", "password", "Hunter22"),
    case("wifi/password: Hunter22!x", "password", "Hunter22!x"),
    case("spring.datasource.password: hunter22", "password", "hunter22"),
    case("backup.passwd: hunter22", "password", "hunter22"),
]  # fmt: skip


@pytest.mark.parametrize("text", PATHS)
def test_a_label_inside_a_path_is_no_label(text: str) -> None:
    assert find_secrets(text) == []


@pytest.mark.parametrize(("text", "kind", "secret"), STILL_SECRETS)
def test_a_label_beside_a_path_character_still_labels(text: str, kind: str, secret: str) -> None:
    start = text.index(secret)
    assert find_secrets(text) == [SecretMatch(kind, start, start + len(secret))]


def test_mcp_forget_of_a_path_keeps_its_error_message_whole(vault_dir: Path) -> None:
    from mcp import Client

    from tota_vault.mcp_server import create_server

    async def main() -> Any:
        async with Client(create_server(vault_dir)) as client:
            return await client.call_tool("forget", {"id": "../../etc/passwd"})

    result = asyncio.run(main())
    message = "\n".join(block.text for block in result.content)
    assert result.is_error
    assert "../../etc/passwd: outside the vault" in message and "REDACTED" not in message


#: Pieces of the review's sentences, for the hint gate's property below.
UK_PIECES = st.sampled_from(
    [row.values[0] for row in UK_SECRETS + STILL_SECRETS]
    + [row.values[0] for row in UK_NEAR_MISSES + PATHS]
    + ["NHS\tnumber: 9434765919", "SORT CODE\t20-00-00", "Account\tNo. 12345678", "\t", " "]
)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    text=st.lists(UK_PIECES | st.text(max_size=20), max_size=6).map(" ".join), upper=st.booleans()
)
def test_the_hints_never_hide_a_uk_secret(text: str, upper: bool) -> None:
    """The new hint words ("nhs", "account", "sort") gate exactly what the patterns find."""
    assert_the_hints_hide_nothing(text.upper() if upper else text)
