"""Text as it enters: cleaned once, capped, and the faults it caused, each with its real input.

The faults (issue #14): a NUL byte in a statement made a note sync called binary; a lone
surrogate in a conversation crashed `extract` after some notes were written; a U+202E in a
statement made a file name that shows reversed; a 1 MB message with no spaces became a 1 MB
statement printed whole to stdout.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import single
from typer.testing import CliRunner

from tota_vault import Vault
from tota_vault.cli import app
from tota_vault.extract.messages import Message
from tota_vault.notes import parse_note, statement_problem, title_from_text
from tota_vault.sanitize import (
    MAX_STATEMENT_CHARS,
    cap_statement,
    clean_text,
    clean_title,
    shorten,
)

runner = CliRunner()

CLEAN_TEXT = [
    pytest.param("I like tea.", "I like tea.", id="plain"),
    pytest.param("tabs\tand\nnewlines stay", "tabs\tand\nnewlines stay", id="tab-newline"),
    pytest.param("I love the\x00 colour blue", "I love the colour blue", id="nul"),
    pytest.param("a\x1b[31mred\x1b[0m", "a[31mred[0m", id="escape"),
    pytest.param("bell\x07 and del\x7f", "bell and del", id="bell-del"),
    pytest.param("c1 \x9b2J csi", "c1 2J csi", id="c1-csi"),
    pytest.param("crlf\r\nline", "crlf\nline", id="crlf"),
    pytest.param("old mac\rline", "old mac\nline", id="lone-cr"),
    pytest.param("line\u2028separator\u2029para", "line\nseparator\npara", id="unicode-breaks"),
    pytest.param("next\x85line\x0cfeed\x0bvt", "next\nline\nfeed\nvt", id="nel-ff-vt"),
    pytest.param("tea \ud83d over coffee", "tea \ufffd over coffee", id="lone-high-surrogate"),
    pytest.param("tea \ude00 over", "tea \ufffd over", id="lone-low-surrogate"),
    pytest.param("smile \ud83d\ude00 ok", "smile \U0001f600 ok", id="surrogate-pair-joined"),
    pytest.param("family 👨\u200d👩\u200d👧 ok", "family 👨\u200d👩\u200d👧 ok", id="zwj-kept"),
    pytest.param("שלום\u200f world", "שלום\u200f world", id="rlm-kept-in-text"),
    pytest.param("", "", id="empty"),
]


@pytest.mark.parametrize(("raw", "clean"), CLEAN_TEXT)
def test_clean_text(raw: str, clean: str) -> None:
    assert clean_text(raw) == clean
    assert clean_text(clean) == clean  # idempotent
    clean.encode("utf-8")  # always encodable


def test_clean_text_returns_the_same_object_when_nothing_changes() -> None:
    text = "An ordinary sentence, with punctuation: nothing to clean."
    assert clean_text(text) is text


CLEAN_TITLE = [
    pytest.param("Likes \u202egnp.exe files", "Likes gnp.exe files", id="rlo"),
    pytest.param("a\u2066b\u2069c\u202ad\u202c", "abcd", id="isolates-embeddings"),
    pytest.param("zero\u200bwidth\u200c\u200dspace", "zerowidthspace", id="zero-width"),
    pytest.param("soft\u00adhyphen\ufeffbom", "softhyphenbom", id="soft-hyphen-bom"),
    pytest.param("blank\u3164filler", "blankfiller", id="hangul-filler"),
    pytest.param("tabs\tand\x00controls", "tabs\tand controls", id="control-is-a-space"),
    pytest.param("tea \ud83d", "tea \ufffd", id="lone-surrogate"),
    pytest.param("Café in Lisboa", "Café in Lisboa", id="visible-kept"),
]


@pytest.mark.parametrize(("raw", "clean"), CLEAN_TITLE)
def test_clean_title(raw: str, clean: str) -> None:
    assert clean_title(raw) == clean


def test_title_from_text_has_no_invisible_characters() -> None:
    assert title_from_text("Likes \u202egnp.exe files.") == "Likes gnp.exe files"
    assert title_from_text("\u200b\u202e") == "Untitled"


CAPS = [
    pytest.param("short", 20, "short", id="short"),
    pytest.param("exactly twenty chars", 20, "exactly twenty chars", id="at-limit"),
    pytest.param("one two three four five six", 20, "one two three four …", id="cut-at-word"),
    pytest.param("x" * 50, 20, None, id="no-boundary"),
    pytest.param("ab " + "x" * 50, 20, None, id="boundary-too-early"),
]


@pytest.mark.parametrize(("text", "limit", "expected"), CAPS)
def test_cap_statement(text: str, limit: int, expected: str | None) -> None:
    capped = cap_statement(text, limit)
    assert capped == expected
    assert capped is None or len(capped) <= limit


def test_shorten() -> None:
    assert shorten("abc", 5) == "abc"
    assert shorten("abcdefgh", 5) == "abcd…"


# --- the faults, each with the input that caused it --------------------------------------------


def notes(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*.md"))}


def all_valid(vault: Vault) -> None:
    """Every note parses as a memory, and a full sync calls none invalid."""
    for rel, data in notes(vault.root).items():
        note = parse_note(data, rel)
        assert note.error is None and note.memory is not None, (rel, note.error)
    assert vault.sync().invalid == []


def test_a_nul_byte_in_a_statement_makes_a_valid_note(vault: Vault) -> None:
    report = vault.observe(
        [{"role": "user", "content": "I love the\x00 colour blue and green."}],
        conversation_id="c1",
    )
    assert [o.action for o in report.outcomes] == ["create"]
    stored = vault.remember("preference", "Likes\x00 jasmine tea.")
    data = (vault.root / stored.path).read_bytes()
    assert b"\x00" not in data and b"Likes jasmine tea." in data
    all_valid(vault)


def test_a_lone_surrogate_in_a_json_conversation_no_longer_crashes_extract(tmp_path: Path) -> None:
    # The real input: a JSON file whose text holds half an emoji (valid JSON, not valid UTF-8).
    chat = tmp_path / "chat.json"
    chat.write_text(
        '[{"role": "user", "content": "I love hiking in the alps."},'
        ' {"role": "user", "content": "I prefer tea \\ud83d over coffee."},'
        ' {"role": "user", "content": "My sister lives in Berlin."}]',
        "utf-8",
    )
    root = tmp_path / "vault"
    result = runner.invoke(app, ["--vault", str(root), "extract", str(chat), "--json"])
    assert result.exit_code == 0, result.output
    report = single(json.loads(result.stdout))
    assert report["counts"]["create"] == 3
    with Vault.open(root) as vault:
        all_valid(vault)
        texts = [vault.read(o["path"])[0].memory.text for o in report["outcomes"]]
    assert "Prefers tea \ufffd over coffee." in texts


def test_a_lone_surrogate_through_observe_and_remember(vault: Vault) -> None:
    vault.observe([Message("user", "I prefer tea \udc80 over coffee.", "1")], conversation_id="c")
    vault.remember("preference", "Likes \ud83d emoji", tags=["x\ud800"])
    all_valid(vault)


def test_a_bidi_override_never_reaches_a_file_name(vault: Vault) -> None:
    stored = vault.remember("preference", "Likes \u202egnp.exe files")
    assert stored.path == "preference/Likes gnp.exe files.md"
    report = vault.observe(
        [{"role": "user", "content": "I love \u202ecod\u200b my dog Rex."}], conversation_id="c"
    )
    paths = [o.path for o in report.outcomes if o.path]
    assert paths and all(not any(ch in p for ch in "\u202e\u200b") for p in paths), paths
    assert not any("\u202e" in p.name for p in vault.root.rglob("*"))


def test_a_1mb_message_without_spaces_is_not_printed_or_stored_whole(tmp_path: Path) -> None:
    chat = tmp_path / "huge.txt"
    chat.write_text("User: I like " + "x" * 1_000_000 + "\n", "utf-8")
    root = tmp_path / "vault"
    plain = runner.invoke(app, ["--vault", str(root), "extract", str(chat), "-v"])
    assert plain.exit_code == 0 and len(plain.stdout) < 2_000, len(plain.stdout)
    assert "too long" in plain.stdout
    as_json = runner.invoke(app, ["--vault", str(root), "extract", str(chat), "--json"])
    assert len(as_json.stdout) < 5_000, len(as_json.stdout)
    assert all(len(data) < 10_000 for data in notes(root).values())


def test_a_statement_too_long_for_a_memory_is_skipped_not_cut(vault: Vault) -> None:
    """A user-style review: "I prefer really really ... short functions." was cut to "Prefers
    really really …" at 2,000 characters and stored at 0.90: its object was lost. Cut, a
    statement says something else; skipped, the message stays among the turns."""
    text = "I prefer " + "really " * 600 + "short functions. I live in Porto."
    report = vault.observe([{"role": "user", "content": text}], conversation_id="c")
    created = [o.text for o in report.outcomes if o.action == "create"]
    assert created == ["Lives in Porto."]
    [skipped] = [o for o in report.outcomes if o.action == "skip" and "too long" in o.reason]
    assert "2,000" in skipped.reason and len(skipped.text) <= 200
    assert vault.recall("short functions")[0].kind == "turn"  # what was said is still there
    assert all(len(data) <= 3 * MAX_STATEMENT_CHARS for data in notes(vault.root).values())
    all_valid(vault)


def test_remember_refuses_an_overlong_statement_and_writes_nothing(vault: Vault) -> None:
    from tota_vault import ValidationError

    with pytest.raises(ValidationError, match="2,000"):
        vault.remember("preference", "word " * 1000)
    assert notes(vault.root) == {}


# --- statements the note format would read back as something else ------------------------------

STATEMENTS = [
    pytest.param("Prefers tea.", None, id="plain"),
    pytest.param("Likes `code` and <3 emoji.", None, id="inline-code-and-less-than"),
    pytest.param("Line one.\n\n> quoted\nthen more.", None, id="quote-in-the-middle"),
    pytest.param("Writes:\n```\ncode\n```", None, id="closed-fence"),
    pytest.param("Notes\n## History\n- x", "History", id="history-heading"),
    pytest.param("Opens a fence\n```python\nprint(1)", "code fence", id="unclosed-fence"),
    pytest.param("Notes\n<!-- an unclosed comment", "HTML block", id="unclosed-html-comment"),
    pytest.param("<div>\nends at a blank line", None, id="html-block-ends-at-blank"),
    pytest.param("Says:\n> the last line quoted", "block quote", id="trailing-quote"),
    pytest.param("a\n<<<<<<< HEAD\nb", "conflict marker", id="conflict-marker"),
    pytest.param("   ", "needs some text", id="blank"),
]


@pytest.mark.parametrize(("text", "problem"), STATEMENTS)
def test_statement_problem(text: str, problem: str | None) -> None:
    found = statement_problem(text)
    assert (found is None) if problem is None else (found is not None and problem in found)


def test_remember_refuses_a_statement_that_would_read_back_differently(vault: Vault) -> None:
    from tota_vault import ValidationError

    with pytest.raises(ValidationError, match="cannot be stored as written: .*History"):
        vault.remember("preference", "Likes tea.\n## History\n- made up")
    assert notes(vault.root) == {}


class HeadingExtractor:
    """An extractor whose statement would swallow the note's History section."""

    name = "heading"

    def extract(self, messages, *, conversation_id):
        from tota_vault.extract.base import Candidate
        from tota_vault.model import MemoryType

        return [Candidate(MemoryType.PREFERENCE, "Likes tea.\n## History\n- x", "user", "1",
                          strength=0.9)], []  # fmt: skip


def test_the_pipeline_skips_a_statement_that_would_read_back_differently(vault: Vault) -> None:
    report = vault.observe(
        [{"role": "user", "content": "hi"}], conversation_id="c", extractor=HeadingExtractor()
    )
    [outcome] = report.outcomes
    assert outcome.action == "skip" and "cannot be stored as written" in outcome.reason
    assert notes(vault.root) == {}


def test_remember_checks_the_text_as_the_note_will_hold_it(vault: Vault) -> None:
    # Found by the remember property: a tab after a conflict marker became a space when the
    # line was normalised, after the check, and the note was then invalid.
    from tota_vault import ValidationError

    with pytest.raises(ValidationError, match="conflict marker"):
        vault.remember("preference", "<<<<<<<\t0")
    assert notes(vault.root) == {}


def test_clean_title_of_ascii_text_is_the_character_filter():
    # ASCII text skips the per-character category look-up: none of it is a format character.
    import unicodedata

    every = "".join(map(chr, range(128)))
    filtered = "".join(
        " " if unicodedata.category(c) == "Cc" and c not in "\t\n" else c
        for c in every
        if unicodedata.category(c) != "Cf"
    )
    assert clean_title(every) == clean_title(every + "\u00e9")[:-1] == filtered
