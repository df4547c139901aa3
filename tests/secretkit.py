"""Generated secrets in generated phrasings, for the property tests (hypothesis strategies).

A secret is planted with a label drawn from the detector's families, tied to its value by a
tie drawn from the ways people write one, inside a sentence with a random opening and ending
(`labelled_secrets`). The values are random, so no test can pass by knowing them; the
phrasings are combinations, so no test can pass by knowing a template.
"""

from __future__ import annotations

import string

from hypothesis import strategies as st

HEX_32 = "9f8e7d6c" + "5b4a3928" + "17263544" + "33221100"
HEX_40 = "a1b2c3d4e5" + "f6a7b8c9d0" * 3
AWS_40 = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
SEED_12 = (
    "abandon ability able about above absent " + "absorb abstract absurd abuse access accident"
)
SEED_24 = (
    SEED_12
    + " "
    + "acid acoustic acquire across actor actress "
    + "adapt addict address adjust admit adult"
)
RANDOM_24 = "Xq7Lp2" + "Vn9Rt4" + "Kw8Zb3Md" + "T5yH"
URLSAFE = "dG9r-Zm9v_" + "YmFyMTIz" + "Qk9Y9x"

#: The sentences the reviewer of issue #14 found in notes, as written: (text, kind, values).
REVIEWER: list[tuple[str, ...]] = [
    ("My wifi password's hunter2024 and I live in Lisbon.", "password", "hunter2024"),
    ("I use hunter2 as my password everywhere, I prefer dark roast coffee.", "password",
        "hunter2"),
    ("Remember that my bank PIN's 4821 and that I bank with Nordea.", "password", "4821"),
    ("I always use Gr33nTea! as my password for my email.", "password", "Gr33nTea!"),
    (f"My recovery phrase is {SEED_12} for my bitcoin wallet.", "seed_phrase", SEED_12),
    ("My driver license number is D1234567", "national_id", "D1234567"),
    ("The code to the garage is 7731", "password", "7731"),
    (f"My API key is {HEX_32}", "api_key", HEX_32),
    ("my password is the same everywhere: Zebra!77", "password", "Zebra!77"),
    ("my personal number is 19121212-1212", "national_id", "19121212-1212"),
    ("the gate code's 4455#", "password", "4455#"),
    ("wifi: Cabin / pass: x7Hk9pQ2", "password", "x7Hk9pQ2"),
    (f"token: {HEX_40}", "api_key", HEX_40),
    (f"AWS secret: {AWS_40}", "api_key", AWS_40),
    ("door code 5567", "password", "5567"),
    ("the safe combination is 12-34-56", "password", "12-34-56"),
    ("my 2FA backup codes are 1234-5678 and 8765-4321", "password", "1234-5678", "8765-4321"),
    ("My password is: Summer2024!", "password", "Summer2024!"),
]  # fmt: skip

#: Labels by the shape of value they take (the detector judges a value by its label's kind).
PASSWORD_LABELS = [
    "password",
    "passwd",
    "pwd",
    "wifi password",
    "email password",
    "bank password",
    "Password",
    "PASSWORD",
    "password for the forum",
]
CODE_LABELS = [
    "PIN",
    "bank PIN",
    "PIN code",
    "pin",
    "passcode",
    "door code",
    "gate code",
    "garage code",
    "alarm code",
    "safe combination",
    "wifi code",
    "combination",
    "code to the garage",
    "code for the front door",
    "backup code",
    "2FA code",
]
KEY_LABELS = [
    "API key",
    "api_key",
    "token",
    "access token",
    "secret key",
    "client secret",
    "AWS secret",
    "auth token",
    "private key",
    "access key",
]
ID_LABELS = [
    "passport number",
    "personal number",
    "ID number",
    "driver license number",
    "social security number",
    "national ID number",
    "licence number",
    "passport",
]
#: Label, then value. `{L}` the label, `{V}` the value.
FORWARD_TIES = [
    "{L} is {V}",
    "{L}'s {V}",
    "{L}: {V}",
    "{L} = {V}",
    "{L}={V}",
    "{L} was {V}",
    "{L} is set to {V}",
    "{L} is now {V}",
    "{L} is the same everywhere: {V}",
    "{L} is: {V}",
    "{L} {V}",
    "{L} for the cabin is {V}",
    "{L} at work is {V}",
]
#: Ties that name the value first, or change the label to it.
OTHER_TIES = [
    "I set my {L} to {V}",
    "changed the {L} to {V}",
    "{V} is my {L}",
    "I use {V} as my {L}",
    "I always use {V} as my {L} everywhere",
]
#: A sentence's opening and ending around the phrase.
OPENINGS = ["", "my ", "My ", "the ", "Remember that my ", "FYI our ", "btw, my ", "Note: "]
ENDINGS = ["", ".", "!", " and I live in Lisbon.", ", I prefer dark roast coffee.",
           " for my bitcoin wallet.", " (don't share it)", "; thanks", " until May."]  # fmt: skip

_ALNUM = string.ascii_letters + string.digits
_SYMBOLS = "!#$%&*@?+"
#: A password: letters, digits and maybe a symbol, at least one digit (what a person types).
PASSWORDS = st.tuples(
    st.text(string.ascii_letters, min_size=2, max_size=8),
    st.text(string.digits, min_size=1, max_size=4),
    st.text(_ALNUM + _SYMBOLS, max_size=5),
).map("".join)
#: A PIN or code: 4 to 8 digits, sometimes grouped or ending on `#`.
CODES = st.one_of(
    st.text(string.digits, min_size=4, max_size=8),
    st.tuples(st.text(string.digits, min_size=2, max_size=3),
              st.text(string.digits, min_size=2, max_size=3)).map("-".join),
    st.text(string.digits, min_size=4, max_size=6).map(lambda s: s + "#"),
)  # fmt: skip
#: A key: 32 or 40 hex digits, or 24 to 40 random key characters.
KEYS = st.one_of(
    st.text("0123456789abcdef", min_size=32, max_size=40),
    st.text(_ALNUM, min_size=24, max_size=40),
).filter(lambda s: any(c.isdigit() for c in s) and any(c.isalpha() for c in s))
#: An identity number: maybe a letter, 7 to 10 digits, maybe a dash and 4 more.
IDS = st.tuples(
    st.sampled_from(["", "X", "D", "AB"]),
    st.text(string.digits, min_size=7, max_size=10),
    st.sampled_from(["", "-1212"]),
).map("".join)

_KINDS = [(PASSWORD_LABELS, PASSWORDS), (CODE_LABELS, CODES), (KEY_LABELS, KEYS),
          (ID_LABELS, IDS)]  # fmt: skip


@st.composite
def labelled_secrets(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A sentence holding one or two generated secret values, and the values."""
    labels, values = draw(st.sampled_from(_KINDS))
    label = draw(st.sampled_from(labels))
    ties = FORWARD_TIES + OTHER_TIES
    tie = draw(st.sampled_from(ties))
    planted = [draw(values)]
    value = planted[0]
    if tie.endswith("{V}") and draw(st.booleans()):  # a list: "X and Y", "X, Y"
        planted.append(draw(values.filter(lambda v: v not in planted[0])))
        value = planted[0] + draw(st.sampled_from([" and ", ", ", ", and ", " / "])) + planted[1]
    phrase = tie.replace("{L}", label).replace("{V}", value)
    return draw(st.sampled_from(OPENINGS)) + phrase + draw(st.sampled_from(ENDINGS)), planted
