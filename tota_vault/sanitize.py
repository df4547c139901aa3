"""Text as it enters tota: made storable, and no longer than a statement can be.

Every way text comes in (a conversation through `Vault.observe`, a statement through
`Vault.remember` or `tota add`, and so the MCP tools and hooks built on them) passes
`clean_text` once, where it enters. Without it tota wrote notes it then called invalid:

* a NUL byte in a statement made a note that sync reports as a binary file;
* a lone surrogate (`"\\ud83d"`, half an emoji, is valid JSON) cannot be encoded as UTF-8, so
  `extract` crashed after writing some of a conversation's notes;
* other control characters (ESC starts a terminal escape sequence when a note is printed) and
  the line separators Python splits lines on but Markdown does not (U+2028, U+0085, form feed)
  are invisible in an editor and break line-based parsing.

Titles, which become file names, lose more (`clean_title`): the invisible format characters
(category Cf: bidi controls such as U+202E, which shows a name reversed, zero-width spaces and
joiners, the soft hyphen, the BOM) and the blank Hangul fillers. A statement keeps those: a
right-to-left sentence needs its marks, and an emoji family its joiners.

`cap_statement` bounds what one memory's statement may be (`MAX_STATEMENT_CHARS`).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "MAX_STATEMENT_CHARS",
    "cap_statement",
    "clean_text",
    "clean_title",
    "shorten",
]

#: The longest statement a memory holds. A memory is a sentence or two about a person (the
#: rule extractor writes one sentence per memory); 2,000 characters leave room for a long
#: hand-written one, and keep a 1 MB paste from becoming a 1 MB note, search snippet and line
#: of `tota extract` output.
MAX_STATEMENT_CHARS = 2000

#: Characters no note may hold: C0 controls but tab and newline, DEL, C1 controls, and lone
#: surrogates. `\r` and the Unicode line breaks are handled first (they become newlines).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: Line breaks Python's `splitlines` honours and Markdown does not: read as a newline.
_LINE_BREAKS = str.maketrans({"\u2028": "\n", "\u2029": "\n", "\x85": "\n", "\x0b": "\n",
                              "\x0c": "\n"})  # fmt: skip
#: Invisible characters that are not category Cf but show as nothing: the Hangul fillers.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")


def _join_surrogates(text: str) -> str:
    """A surrogate pair becomes its character; a lone surrogate becomes U+FFFD."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def clean_text(text: str) -> str:
    """`text` as a note can store it: every character a person can see is kept.

    CRLF and lone CR become LF, the Unicode line breaks LF; surrogate pairs are joined and a
    lone surrogate becomes U+FFFD (the replacement character, so the reader sees something
    was there); NUL, the other C0 and C1 controls and DEL are removed. Tab and newline stay.
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not _UNSAFE.search(text):
        return text  # the common case: one scan, no copy
    text = text.translate(_LINE_BREAKS)
    if _SURROGATE.search(text):
        text = _join_surrogates(text)
    return _CONTROL.sub("", text)


def clean_title(text: str) -> str:
    """Text for a title: without the invisible format characters a file name must not hold.

    Lone surrogates become U+FFFD as in `clean_text`; a control character becomes a space (in
    one line of title it stood between words: "tabs\tand\x00controls" keeps three words).
    """
    if _SURROGATE.search(text):
        text = _join_surrogates(text)
    text = _CONTROL.sub(" ", text)
    if text.isascii():
        return text  # no format character or blank letter is ASCII: nothing to look up
    return "".join(
        char for char in text if unicodedata.category(char) != "Cf" and char not in _BLANK_LETTERS
    )


def cap_statement(text: str, limit: int = MAX_STATEMENT_CHARS) -> str | None:
    """`text`, or when longer than `limit`, cut at its last word boundary with " …".

    None when no boundary falls in the second half of the limit (a 1 MB token, a base64
    blob): cutting there would keep a meaningless fragment, so the caller skips it instead.
    """
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    cut = max(head.rfind(" "), head.rfind("\n"), head.rfind("\t"))
    if cut < limit // 2:
        return None
    return head[:cut].rstrip() + " …"


def shorten(text: str, limit: int = 200) -> str:
    """`text` for a report line: at most `limit` characters, marked with "…" when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
