"""Generated secrets in generated phrasings, for the property tests (hypothesis strategies).

A secret is planted with a label drawn from the detector's families, tied to its value by a
tie drawn from the ways people write one, inside a sentence with a random opening and ending
(`labelled_secrets`). The values are random, so no test can pass by knowing them; the
phrasings are combinations, so no test can pass by knowing a template.
"""

from __future__ import annotations

import string

from hypothesis import strategies as st

#: Labels by the shape of value they take (the detector judges a value by its label's kind).
PASSWORD_LABELS = ["password", "passwd", "pwd", "wifi password", "email password",
                   "bank password", "Password", "PASSWORD", "password for the forum"]
CODE_LABELS = ["PIN", "bank PIN", "PIN code", "pin", "passcode", "door code", "gate code",
               "garage code", "alarm code", "safe combination", "wifi code", "combination",
               "code to the garage", "code for the front door", "backup code", "2FA code"]
KEY_LABELS = ["API key", "api_key", "token", "access token", "secret key", "client secret",
              "AWS secret", "auth token", "private key", "access key"]
ID_LABELS = ["passport number", "personal number", "ID number", "driver license number",
             "social security number", "national ID number", "licence number", "passport"]
#: Label, then value. `{L}` the label, `{V}` the value.
FORWARD_TIES = ["{L} is {V}", "{L}'s {V}", "{L}: {V}", "{L} = {V}", "{L}={V}", "{L} was {V}",
                "{L} is set to {V}", "{L} is now {V}", "{L} is the same everywhere: {V}",
                "{L} is: {V}", "{L} {V}", "{L} for the cabin is {V}", "{L} at work is {V}"]
#: Ties that name the value first, or change the label to it.
OTHER_TIES = ["I set my {L} to {V}", "changed the {L} to {V}", "{V} is my {L}",
              "I use {V} as my {L}", "I always use {V} as my {L} everywhere"]
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
