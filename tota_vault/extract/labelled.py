"""Secrets said in prose: a LABEL tied to a VALUE, and random-looking tokens with no label at all.

`secrets.py` knows each provider's key by its prefix and a few fixed sentences. What people
actually type is freer: "my wifi password's hunter2024", "I use Gr33nTea! as my password for
my email", "the code to the garage is 7731", "my 2FA backup codes are 1234-5678 and
8765-4321", "My recovery phrase is abandon ability able ...". Listing such sentences one by one
always leaves the next phrasing out, so this module splits the question in three:

1. the LABEL: a word that names a secret (password, PIN, passcode, a door/gate/wifi/safe code,
   a combination, a recovery or seed phrase, an API key, a token, a secret key, a licence or
   personal/social/national/ID number, a passport number; see `_LABELS`);
2. the TIE: how a sentence binds a label to a value: `is`, `'s`, `was`, `:`, `=`, `is set to`,
   `is the same everywhere:`, "L for the garage is X", "L X" (the value right after the
   label), "set/changed L to X", "X is my L", "use X as my L"; and lists: "X and Y", "X, Y";
3. the VALUE, judged by its shape for that label (`_accept`): a PIN or a code holds digits, an
   ID number five digits, an API key or token twelve characters of letters and digits, a seed
   phrase twelve to twenty-four lowercase words; a password anything that is not a word about
   the password ("my password is too short"), and, where the tie is loose ("L X", "X is my
   L"), a token with a digit or a symbol, so "I got a new API key yesterday" stays a fact.

Plus `find_random_tokens`: a token nobody would type as a word, labelled or not: 32 or more hex
digits, or 20 or more base64/urlsafe characters mixing upper case, lower case and digits in short
runs (a word or a CamelCase name is made of long runs; random text of short ones).

Every function here is pure and returns `(start, end, kind)` spans of the value only, so the
label and the sentence around it stay a fact when the statement says more than the secret.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections import Counter

__all__ = ["NOT_A_PASSWORD", "find_labelled", "find_random_tokens", "in_a_path"]

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

#: More things a code opens: "the drug cupboard code is 7734", "key safe code: 1234" (a value
#: with a digit, see `_accept`). Only things that open: "the room code" (a timetable's room),
#: "the unit code" (a course) and "ward 5" name a place, not its lock. Their code, PIN or
#: combination is a secret, their key is not: "my car key is broken" is a fact.
_OPENED = (
    r"cupboard|cabinet|drawer|closet|wardrobe|key[ \t-]?safe|lock[ \t]box|shed|"
    r"store[ \t]?room|stock[ \t]?room|staff[ \t]room|med(?:s|ication)?[ \t]room|suitcase|"
    r"luggage|briefcase|mailbox|post[ \t]?box|letter[ \t]?box|intercom|buzzer|entrance|lobby|"
    r"lift|elevator|fob|car|bike|porch|cellar|basement|storage[ \t]unit"
)
# The things a code, PIN or combination opens: "the gate code", "code to the garage".
_THINGS = (
    r"wi-?fi|wlan|network|router|door|front[ \t]door|back[ \t]door|gate|garage|alarm|access|"
    r"entry|lock|padlock|bike[ \t]lock|locker|safe|keypad|building|house|apartment|flat|"
    r"lockbox|key[ \t]?box|backup|recovery|verification|2fa|mfa|otp|unlock|sim|puk|login|"
    r"security|cvv|cvc|bank|card|debit[ \t]card|credit[ \t]card|atm|phone|laptop|vault"
)
# Each kind's labels, as one regular expression (case-insensitive). Plural labels let a list
# follow ("backup codes are X and Y").
_LABELS: dict[str, str] = {
    "seed_phrase": (
        r"(?:recovery|seed|backup|mnemonic|wallet|secret)[ \t]+(?:phrase|words)|mnemonic"
    ),
    "password": (
        r"pass[ \t-]?words?|pass[ \t-]?phrases?|pass(?=[ \t]*[:=])|passwd|pwd|pw|passcodes?|"
        r"pins?(?:[ \t]+(?:code|number))?|"
        rf"(?:{_THINGS})[ \t]+(?:codes?|pins?|combo|combination|key)|"
        rf"(?:{_OPENED})[ \t]+(?:codes?|pins?|combo|combination)|combination|combo|"
        rf"codes?[ \t]+(?:for|to|of|on)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+)?"
        rf"(?:[a-z]+[ \t]+)?(?:{_THINGS}|{_OPENED})s?"  # a word may say which: "the drug cupboard"
    ),
    "api_key": (
        r"api[ \t_-]?(?:key|token|secret)s?|access[ \t_-]?(?:key|token)s?|"
        r"(?:auth|bearer|session|refresh|github|gitlab|slack|discord|bot)?[ \t_-]?tokens?|"
        r"(?:client[ \t_-]?|aws[ \t_-]?|app[ \t_-]?)?secret(?:[ \t_-]?(?:access[ \t_-]?)?key)?|"
        r"private[ \t_-]?key|secret[ \t_-]?key"
    ),
    "national_id": (
        r"(?:personal|social[ \t]security|social|national|id|identity|citizen|tax|insurance|"
        r"nhs|passport|driver'?s?[ \t]+licen[cs]e|licen[cs]e)[ \t]+(?:number|no\.?|nr\.?|#)|"
        r"passport|driver'?s?[ \t]+licen[cs]e"
    ),
}
_KIND_OF_GROUP = {f"k{i}": kind for i, kind in enumerate(_LABELS)}
_LABEL = "(?:" + "|".join(f"(?P<k{i}>{rx})" for i, rx in enumerate(_LABELS.values())) + ")"
# What a label may be for, between it and the tie: "password for my email", "PIN of the card".
_FOR = (
    r"[ \t]+(?:for|to|of|on|at|in)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+|his[ \t]+|her[ \t]+)?"
    r"[\w.@'-]+(?:[ \t]+[\w.@'-]+){0,2}?"
)
# The ties that name a value plainly: `is`, `'s`, `was`, `are`, `:`, `=`, `is set to`, `is
# now`, `is the same everywhere:`.
_TIE = (
    r"(?:[ \t]*['\u2019]s[ \t]+"
    r"|[ \t]+(?:is|was|are|were)(?:[ \t]+(?:set|changed)[ \t]+to|[ \t]+now|[ \t]+still)?"
    r"(?:[ \t]+(?:the[ \t]+same|still|always)(?:[ \t]+\w+){0,2}[ \t]*:)?[ \t]*:?[ \t]+"
    r"|[ \t]*[:=][ \t]*)"
)
# A value in prose: quoted, or one token (its trailing sentence punctuation is trimmed later).
_VALUE = r"(?P<value>\"[^\"\n]+\"|'[^'\n]+'|`[^`\n]+`|\u201c[^\u201d\n]+\u201d|[^\s\"'`]+)"
#: After a loosely tied value, no word that goes on naming a thing: "the code for the lobby
#: 2024 redesign" and "account 123456 locked" are a year and a ticket's number, not secrets
#: (a code review); "door code 5567", "PIN 4821 and my card" and "account 12345678 at Barclays"
#: are. A word that begins a new clause or phrase may follow.
_NOUN_AFTER = (
    r"[ \t]+(?!(?:and|or|but|with|at|in|on|for|from|to|is|was|so|then|please|sort|ok|okay)"
    r"\b)[A-Za-z]"
)
NO_NOUN_AFTER = f"(?!{_NOUN_AFTER})"
_NOUN_AFTER_RE = re.compile(_NOUN_AFTER)


def _names_a_thing(text: str, match: re.Match[str]) -> bool:
    """Whether a loosely tied number goes on naming a thing ("the lobby 2024 redesign", "the
    elevator 3000 series"): a model or a year, not a code. A word value (a passphrase, a
    token) is judged by its shape instead."""
    value = match.group("value").rstrip(".,;:!?")
    return value.isdigit() and _NOUN_AFTER_RE.match(text, match.end()) is not None


_LABEL_RE = re.compile(r"(?i:(?<![\w-])" + _LABEL + r"(?![\w-]))")


def in_a_path(text: str, start: int) -> bool:
    """Whether the label at `start` is part of a path, and so no label: "../../etc/passwd:
    outside the vault" is an error message, "C:\\keys\\pin: 1234" a path. Only a word that
    reads as a path is one: it starts at the root, the home or a drive ("/etc/passwd",
    "~/.pgpass", "C:\\keys\\pin"), or goes up ("../"), or holds two separators before the label
    ("vault/config/password"). In prose "/" is "or" ("my wifi name/password is Hunter22", "the
    door/gate code"), and a dotted key is a label ("spring.datasource.password: x"): when in
    doubt, a secret. (A code review found both let through by a rule that took any "/" or ".")"""
    before = text[start - 1 : start]
    if before not in ("/", "\\", "."):  # "~/.password": a hidden file of a path
        return False
    word_start = start
    while (
        word_start > 0
        and not text[word_start - 1].isspace()
        and text[word_start - 1] not in "\"'(`"
    ):
        word_start -= 1
    word = text[word_start:start]
    if word.startswith(("/", "~", "../", "./", "..\\", ".\\")) or _DRIVE_RE.match(word):
        return True
    return word.count("/") + word.count("\\") >= 2


#: A Windows drive at a word's start: "C:\\", "d:/".
_DRIVE_RE = re.compile(r"[A-Za-z]:[\\/]")


#: What may follow a label, tried in order until a value of the right shape is found (each
#: row: the pattern, anchored at the label's end, and whether the tie is loose). "L X" is loose:
#: only the value's shape says it is one ("door code 5567", not "API key yesterday").
_AFTER_LABEL: tuple[tuple[re.Pattern[str], bool], ...] = (
    (re.compile(r"(?i:" + _TIE + r")" + _VALUE), False),
    (re.compile(r"(?i:(?:" + _FOR + r"){1,2}" + _TIE + r")" + _VALUE), False),
    (re.compile(r"[ \t]+" + _VALUE), True),
    (re.compile(r"(?i:(?:" + _FOR + r"){1,2}[ \t]+)" + _VALUE), True),
)
# Set or changed to a value: "I set the gate code to 4455", "changed my PIN to 4821".
_SET_TO_RE = re.compile(
    r"(?i:\b(?:set|sets|changed?|changes|reset|resets|updated?|updates|made)[ \t]+"
    r"(?:(?:the|my|our|his|her|their|a|an|its)[ \t]+)?(?:[\w'-]+[ \t]+){0,2}?"
    + _LABEL
    + r"(?![\w-])(?:"
    + _FOR
    + r")?[ \t]+(?:to|as|into)[ \t]*:?[ \t]+)"
    + _VALUE
)
# Value, then label: "hunter2 is my password", "I use Gr33nTea! as my password for my email".
# The label must not open a longer name: "as my password manager" names an app, not a password.
_LABEL_ENDS = (
    r"(?![\w-])(?![ \t]+(?:managers?|apps?|application|policy|generator|hints?|fields?|rules|"
    r"requirements?|strength|reset|protection|protected|keeper|vault|book|list|file|box|prompt|"
    r"holder|case|sheet|plate|office|photo|form|renewal|expir\w*)\b)"
)
_BACKWARD_RE = re.compile(
    r"(?:(?i:\b(?:use|uses|used|using|picked|chose|choose|set|pick|have|had|made)[ \t]+)"
    + _VALUE
    + r"(?i:[ \t]+(?:as|for)[ \t]+)"
    + r"|(?<![\w-])"
    + _VALUE.replace("value", "value2")
    + r"(?i:[ \t]+(?:is|was|'s|remains|stays)[ \t]+))"
    + r"(?i:(?:my|our|the|his|her|their|a)[ \t]+(?:[\w'-]+[ \t]+){0,2}?"
    + _LABEL
    + _LABEL_ENDS
    + ")"
)
# One more item of a list after a value: "1234-5678 and 8765-4321", "X, Y", "X / Y".
_MORE_RE = re.compile(
    r"(?i:[ \t]*,[ \t]*(?:and[ \t]+|or[ \t]+)?|[ \t]+(?:and|or|&|then)[ \t]+|[ \t]*/[ \t]*)"
    + _VALUE
)
# A seed phrase: 12 to 24 lowercase words (BIP-39 mnemonics are 12, 15, 18, 21 or 24).
# Its words are from the BIP-39 list, which holds none of the small words that end it in prose.
_SEED_WORD = r"(?!(?:for|the|and|with|from|into|that|this|which|but|my|our)\b)[a-z]{3,8}\b"
_SEED_RE = re.compile(_SEED_WORD + r"(?:[ \t,]+" + _SEED_WORD + r"){11,23}")

# Punctuation that ends a sentence after an unquoted value rather than belonging to it. `!`, `?`
# `#` and `*` stay: "Summer2024!" and "4455#" end on them, and a redaction one character too long
# costs nothing while one too short leaks part of a password.
_TRAILING = ".,;:)]}>"
_QUOTES = {'"': '"', "'": "'", "`": "`", "\u201c": "\u201d"}
_PLACEHOLDER = "[redacted"
_DIGIT_RE = re.compile(r"\d")
_SYMBOL_RE = re.compile(r"[^A-Za-z\s]")
_EMAIL_RE = re.compile(r"[^\s@]+@[^\s@]+\.[A-Za-z]{2,}")
_CODE_VALUE_RE = re.compile(r"[0-9*#-]*\d[0-9*#-]*|[A-Za-z0-9*#!?@$%&-]*\d[A-Za-z0-9*#!?@$%&-]*")
_TOKEN_VALUE_RE = re.compile(r"[A-Za-z0-9_+/=.~-]{12,}[!?]*")  # "key=...!": the `!` goes too


def _value_span(match: re.Match[str], group: str) -> tuple[int, int, str]:
    """A value's span and text: inside its quotes, or without trailing sentence punctuation."""
    start, end = match.span(group)
    value = match[group]
    if len(value) >= 2 and _QUOTES.get(value[0]) == value[-1]:
        return start + 1, end - 1, value[1:-1]
    stripped = value.rstrip(_TRAILING)
    return start, start + len(stripped), stripped


def _is_word_about_it(value: str) -> bool:
    first = value.split()[0].lower() if value.split() else ""
    return not first or first in NOT_A_PASSWORD or first.startswith(_PLACEHOLDER)


def _shaped(value: str) -> bool:
    """A token a person would not write as a word: a digit or a symbol in it, three or more
    characters, not an e-mail address."""
    return (
        len(value) >= 3
        and bool(_DIGIT_RE.search(value) or _SYMBOL_RE.search(value.strip("'")))
        and not _EMAIL_RE.fullmatch(value)
        and not _is_word_about_it(value)
    )


def _accept(kind: str, label: str, value: str, *, loose: bool) -> bool:
    """Whether `value`, tied to `label` (lowercased), has the shape of that kind of secret.

    `loose` is True where the sentence ties them weakly ("L X", "X is my L", a list's next
    item): then a password needs a digit or a symbol too.
    """
    if not value or value.lower().startswith(_PLACEHOLDER):
        return False
    if kind == "national_id":
        return len(_DIGIT_RE.findall(value)) >= 5
    if kind == "api_key":
        return bool(_TOKEN_VALUE_RE.fullmatch(value)) and bool(_DIGIT_RE.search(value))
    if kind == "seed_phrase":
        return bool(_SEED_RE.fullmatch(value))
    # A PIN, a code or a combination opens something with digits: "PIN 4821", "4455#".
    if label.startswith("pin") or "code" in label or "combo" in label or "combination" in label:
        return len(value) >= 3 and bool(_CODE_VALUE_RE.fullmatch(value))
    if loose:
        return _shaped(value)
    return not _is_word_about_it(value) and not _EMAIL_RE.fullmatch(value)


def _kind(match: re.Match[str]) -> tuple[str, str]:
    for group, kind in _KIND_OF_GROUP.items():
        if match[group] is not None:
            return kind, match[group].lower()
    raise AssertionError("a label matched without a kind")  # the regex always sets one


def _seed_value(text: str, start: int) -> tuple[int, int] | None:
    """The seed phrase that starts at `start`, if one does (its words run past one token)."""
    found = _SEED_RE.match(text, start)
    return (start, found.end()) if found else None


#: The letters a case-insensitive pattern matches as ASCII but `lower()` does not turn into it
#: ("paſsword" matches `password` under IGNORECASE): folded first, so no hint hides them.
HINT_FOLD = str.maketrans({"\u017f": "s", "\u212a": "k", "\u0130": "i", "\u0131": "i"})
#: The word every label holds one of (lowercase), and how far a label reaches either side of it
#: ("code for the front door", "driver license number"). Finding these with `str.find` and
#: matching `_LABEL_RE` only around them is ten times faster than running it over the text:
#: a large alternation, case-insensitive, is tried at every position by `re`.
_STEMS = ("pass", "pw", "pin", "code", "combo", "combi", "phrase", "words", "mnemonic", "key",
          "token", "secret", "number", "no.", "nr", "#", "licen")  # fmt: skip
_REACH = 40
#: The words that must be in the text for `find_labelled` to run at all (`secrets.py`'s gate).
HINTS = _STEMS
#: How far before a label the ties that open with the value or a verb may start ("I always
#: use Gr33nTea! as my password", "changed the front door code to 4455").
_BEFORE = 100
_WORD_START_RE = re.compile(r"(?<![\w-])[\w#]")


def _labels(text: str) -> list[re.Match[str]]:
    """Every label in `text`, in order, each once: tried only at the starts of the few words
    before each stem (a label opens on a word: "front door code", "code for the door")."""
    lowered = text.translate(HINT_FOLD).lower()
    if len(lowered) != len(text):  # a few letters change length when lowercased ("İ")
        return [m for m in _LABEL_RE.finditer(text) if not in_a_path(text, m.start())]
    hits = []
    for stem in _STEMS:
        at = lowered.find(stem)
        while at != -1:
            hits.append(at)
            at = lowered.find(stem, at + len(stem))
    if not hits:
        return []
    starts = [m.start() for m in _WORD_START_RE.finditer(text)]
    found: dict[int, re.Match[str]] = {}
    for at in hits:
        for start in starts[bisect_left(starts, at - _REACH) : bisect_right(starts, at)]:
            if start in found:
                continue
            if (match := _LABEL_RE.match(text, start)) is not None and not in_a_path(text, start):
                found[start] = match
    return [found[start] for start in sorted(found)]


def find_labelled(text: str) -> list[tuple[int, int, str]]:
    """Every value tied to a secret's label in `text`: `(start, end, kind)`, unsorted."""
    spans: list[tuple[int, int, str]] = []
    labels = _labels(text)
    for label_match in labels:
        kind, label = _kind(label_match)
        for pattern, loose in _AFTER_LABEL:
            match = pattern.match(text, label_match.end())
            if match is not None and loose and _names_a_thing(text, match):
                continue
            if match is not None and (found := _tied(text, match, kind, label, loose)):
                spans.extend(found)
                break
    # The ties that put words before the label are matched only near a label found above:
    # run over the whole text they cost more than everything else here.
    seen: set[tuple[int, int]] = set()
    for label_match in labels:
        low, high = max(0, label_match.start() - _BEFORE), min(len(text), label_match.end() + 30)
        # Loose: a plain word after "set ... to" is what the setting does ("to protect the
        # file"); secrets.py's own set-to pattern judges plain words against a list of those.
        for match in _SET_TO_RE.finditer(text, low, high):
            if match.span() not in seen:
                seen.add(match.span())
                # Again over the whole text: the window's end may have cut the value short.
                whole = _SET_TO_RE.match(text, match.start()) or match
                spans.extend(_tied(text, whole, *_kind(whole), loose=True))
        for match in _BACKWARD_RE.finditer(text, low, high):
            if match.span() in seen:
                continue
            seen.add(match.span())
            kind, label = _kind(match)
            group = "value" if match["value"] is not None else "value2"
            start, end, value = _value_span(match, group)
            if kind != "seed_phrase" and _accept(kind, label, value, loose=True):
                spans.append((start, end, kind))
    return spans


def _tied(
    text: str, match: re.Match[str], kind: str, label: str, loose: bool
) -> list[tuple[int, int, str]]:
    """The value a tie matched, and the list it opens, when its shape fits the label."""
    if kind == "seed_phrase":
        seed = _seed_value(text, match.start("value"))
        return [(*seed, kind)] if seed is not None else []
    start, end, value = _value_span(match, "value")
    # A quoted value is tied by its quotes however loose the sentence ("with the passphrase
    # 'blue horse'"): a person quotes a password to give it, not a word about it.
    quoted = end - start == len(match["value"]) - 2
    if not _accept(kind, label, value, loose=loose and not quoted):
        return []
    return [(start, end, kind), *_more(text, _after(match), kind, label)]


def _after(match: re.Match[str]) -> int:
    """Where a list may go on after a value: its own end, before the punctuation trimmed off
    it ("1111, 2222": the comma is the list's)."""
    value = match["value"]
    return match.end("value") - (len(value) - len(value.rstrip(_TRAILING)))


def _more(text: str, position: int, kind: str, label: str) -> list[tuple[int, int, str]]:
    """The further items of a list that starts with a value: each shaped like a secret."""
    spans = []
    while (match := _MORE_RE.match(text, position)) is not None:
        start, end, value = _value_span(match, "value")
        if not _accept(kind, label, value, loose=True):
            break
        spans.append((start, end, kind))
        position = _after(match)
    return spans


# A candidate random token: 20+ key characters, not glued to other word characters or to a `%`
# (URL escapes: "%20Question%20Answering" is words).
_RANDOM_RE = re.compile(r"(?<![\w+/.%-])[A-Za-z0-9+/_-]{20,}={0,2}(?![\w+/=%-])")
# Words that say a hex string is a hash, which is public: "commit 9fceb02...", "sha256: ...".
_HASH_LABEL_RE = re.compile(
    r"(?i:\b(?:commit|sha(?:1|256|512)?|hash|md5|checksum|digest|revision|rev|etag)\b"
    r"[\w \t:=#-]{0,12}$)"
)
#: Prefixes of tokens that are public by design: Stripe publishable keys, a JWT's lone header
#: (base64 of JSON; a whole JWT is `secrets.py`'s `jwt`).
_PUBLIC_PREFIXES = ("pk_live_", "pk_test_", "eyJ")
_HEX_RE = re.compile(r"[0-9a-fA-F]{32,}")
# The runs a word or a name is made of: "Favourite", "Band", "2024", "_".
_RUN_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+|[^A-Za-z0-9]+")
#: Bits per character below which a token is too regular to be random (a base64 key of 20
#: characters has about 4.2; "aaaaBBBB1111cccc2222" about 2.3).
MIN_ENTROPY = 3.5
#: The longest average run of letters or digits a random token has; words have longer ones.
MAX_AVERAGE_RUN = 2.6


def _entropy(token: str) -> float:
    counts = Counter(token)
    return -sum(n / len(token) * math.log2(n / len(token)) for n in counts.values())


def _is_random(token: str) -> bool:
    """32+ hex digits holding letters and digits, or 20+ characters mixing upper case, lower
    case and digits in short runs with a random token's entropy."""
    if _HEX_RE.fullmatch(token):
        return bool(_DIGIT_RE.search(token)) and any(c.isalpha() for c in token)
    core = token.rstrip("=")
    if not (any(c.isupper() for c in core) and any(c.islower() for c in core)):
        return False
    if not _DIGIT_RE.search(core):
        return False
    runs = _RUN_RE.findall(core)
    return len(core) / len(runs) <= MAX_AVERAGE_RUN and _entropy(core) >= MIN_ENTROPY


def find_random_tokens(text: str) -> list[tuple[int, int, str]]:
    """Every token in `text` that looks randomly generated (a key, a token, a hash)."""
    spans = []
    for match in _RANDOM_RE.finditer(text):
        token = match.group()
        if token.startswith(_PUBLIC_PREFIXES) or not _is_random(token):
            continue
        before = text[max(0, match.start() - 30) : match.start()]
        if _HEX_RE.fullmatch(token) and _HASH_LABEL_RE.search(before):
            continue
        spans.append((match.start(), match.end(), "random_token"))
    return spans
