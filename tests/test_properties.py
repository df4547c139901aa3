"""Properties the note format and the vault promise, checked over generated inputs (hypothesis).

* parse(render(m)) == m: any memory tota can hold reads back as itself, and renders to the
  same bytes again;
* a surgical patch changes only the lines of the keys it names: every other byte stays;
* whatever text goes in through `remember` or `observe`, the note that comes out is valid,
  inside the vault, and holds no secret that was in the text; secrets are planted both in
  known templates and in generated phrasings (`secretkit.labelled_secrets`: a random label of
  the detector's families, a random tie, a random sentence around it, at a random place);
* the sync planner converges: from any mix of adds, edits, moves and deletes, one plan
  applied to the index leaves it equal to the files, and planning again finds nothing to do
  (on plain data through `plan_scan`/`plan_reads`/`match_moves`, and on a real vault through
  `Vault.sync`).

Example counts are modest (the whole file runs in about ten seconds); a failure prints the
smallest input hypothesis found.
"""

from __future__ import annotations

import hashlib
import os
import string
from datetime import UTC, datetime

import pytest
from conftest import index_sql
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from secretkit import labelled_secrets

from tota_vault import SecretError, Vault
from tota_vault.extract.secrets import find_secrets, redact
from tota_vault.files import FileStat, Fingerprint, read_file
from tota_vault.index import IndexedFile, IndexedStat, record_from_note
from tota_vault.model import Evidence, Memory, MemoryType, Status
from tota_vault.notes import (
    ParsedNote,
    parse_note,
    patch_frontmatter,
    reads_back,
    render_note,
    statement_problem,
)
from tota_vault.sanitize import clean_text
from tota_vault.seal import SealState, _seal_by_patch, render_sealed, seal, seal_state
from tota_vault.sync import match_moves, plan_reads, plan_scan

#: The same examples on every run (`derandomize`): a property that fails, fails every time, in
#: CI too. To search further, raise `max_examples` locally; a new failure's smallest example
#: then belongs in the module's own example table.
SETTINGS = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# --- strategies --------------------------------------------------------------------------------

#: Any character a person could type or paste, bar surrogates (a `str` from a decoder never
#: holds one; `clean_text` is tested with them separately).
ANY_CHAR = st.characters(exclude_categories=("Cs",))
#: Pieces that mean something to YAML, Markdown or the note layout, mixed into random text so
#: the generator reaches them (a random string almost never holds "\n## History\n").
SIGNIFICANT = st.sampled_from(
    ["\n", "\n\n", "---", "\n---\n", "## History", "\n## History\n- x", "\n> ", ">", "- ",
     "# ", ": ", " #", "```", "[[", "]]", "{{", "%}", "'", '"', "\\", "\t", " ", "\ufeff",
     "<<<<<<< ", "=======", "no", "0123", "~", "\u2028", "\r\n", "\x00", "\x1b"]
)  # fmt: skip
ANY_TEXT = st.lists(st.text(ANY_CHAR, max_size=30) | SIGNIFICANT, max_size=12).map("".join)
#: One line of text as a field holds it: no line breaks, no outer spaces, not empty.
LINE = (
    st.text(st.characters(exclude_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=40)
    .map(lambda s: s.strip())
    .filter(bool)
)
SCORE = st.integers(0, 10_000).map(lambda n: n / 10_000)
DATE = st.datetimes(min_value=datetime(1000, 1, 1), max_value=datetime(9999, 12, 31)).map(
    lambda d: d.replace(microsecond=0)
)
WORDS = st.lists(
    st.text(string.ascii_letters + "éçøß漢字", min_size=1, max_size=10), min_size=1, max_size=12
).map(" ".join)


@st.composite
def statements(draw: st.DrawFn) -> str:
    """A memory's statement: one or more paragraphs of any text, as a note body holds it."""
    paragraphs = draw(st.lists(ANY_TEXT, min_size=1, max_size=3))
    text = clean_text("\n\n".join(paragraphs)).strip()
    return text or draw(WORDS)


@st.composite
def memories(draw: st.DrawFn) -> Memory:
    return Memory(
        id=draw(st.text("0123456789ABCDEFGHJKMNPQRSTVWXYZ", min_size=26, max_size=26)),
        type=draw(st.sampled_from(MemoryType)),
        text=draw(statements()),
        confidence=draw(SCORE),
        importance=draw(SCORE),
        durability=draw(SCORE),
        evidence=draw(st.sampled_from(Evidence)),
        status=draw(st.sampled_from(Status)),
        created=draw(DATE),
        updated=draw(DATE),
        confirmed=draw(DATE),
        confirmations=draw(st.integers(0, 10_000)),
        key=draw(st.none() | LINE),
        subject=draw(LINE),
        sources=tuple(draw(st.lists(LINE, max_size=3))),
        tags=tuple(draw(st.lists(LINE, max_size=3))),
        aliases=tuple(draw(st.lists(LINE, max_size=2))),
        history=tuple(draw(st.lists(LINE, max_size=3))),
        quote=clean_text(draw(ANY_TEXT)).strip(),
        extra=draw(
            st.dictionaries(st.from_regex(r"x_[a-z]{1,8}", fullmatch=True), LINE, max_size=2)
        ),
    )


# --- parse(render(m)) == m ---------------------------------------------------------------------


@SETTINGS
@given(memories())
def test_parse_of_render_is_the_memory(memory: Memory) -> None:
    assume(statement_problem(memory.text) is None)  # refused where text enters (below)
    text = render_note(memory)
    parsed = parse_note(text.encode("utf-8"), f"{memory.type.value}/x.md")
    assert parsed.error is None, parsed.error
    assert parsed.memory == memory
    assert render_note(parsed.memory) == text
    # ... so a new note is indexed from its memory, not its bytes: the same row either way.
    # (U+FFFE and U+FFFF in a one-line field are written escaped, which only YAML reads back:
    # such a memory is parsed back.)
    lines = (*memory.sources, *memory.tags, *memory.aliases, *memory.history, memory.subject,
             memory.key or "", memory.id, *memory.extra.values())  # fmt: skip
    assert reads_back(memory) or any("\ufffe" in x or "\uffff" in x for x in lines)
    fingerprint = Fingerprint(size=len(text), mtime_ns=1, hash="sha256:x")
    direct = ParsedNote(parsed.path, parsed.title, {}, parsed.body, memory, None, True)
    assert record_from_note(direct, fingerprint) == record_from_note(parsed, fingerprint)


# Memories whose rendering loses something: `reads_back` must say so (they are parsed back).
_LOSSY = {
    "a score of five decimals": {"confidence": 0.12345},
    "microseconds": {"created": datetime(2026, 1, 2, 3, 4, 5, 6)},
    "a zone": {"updated": datetime(2026, 1, 2, tzinfo=UTC)},
    "a statement with outer space": {"text": "Lives in Porto. "},
    "a quote with outer space": {"quote": "\nI live in Porto"},
    "a two-line source": {"sources": ("c1#1\nc1#2",)},
    "an empty tag": {"tags": ("",)},
    "a control character in a History entry": {"history": ("x\x1b[0m",)},
    "a list among unknown keys": {"extra": {"x_list": ["a", "b"]}},
    "a noncharacter YAML refuses raw": {"tags": ("C:\\users\\ana", "x\uffff")},
    "no id": {"id": ""},
}


@pytest.mark.parametrize("changes", list(_LOSSY.values()), ids=list(_LOSSY))
def test_reads_back_refuses_what_the_format_would_change(changes):
    memory = Memory(id="01JDX3M7Q9T8ZK4W5N6P2R1S0V", type=MemoryType.IDENTITY, text="Lives in Porto.",
                    created=datetime(2026, 1, 2), updated=datetime(2026, 1, 2),
                    confirmed=datetime(2026, 1, 2))  # fmt: skip
    assert reads_back(memory)
    assert not reads_back(memory.with_changes(**changes))


# --- a surgical patch keeps every other byte ---------------------------------------------------

#: Frontmatter lines a person may write: comments, quoted values, blank lines, lists.
PERSON_LINES = st.lists(
    st.one_of(
        st.builds(lambda k, v: f"{k}: {v}", st.from_regex(r"p_[a-z]{1,6}", fullmatch=True), WORDS),
        st.builds(
            lambda k, v: f'{k}: "{v}"', st.from_regex(r"q_[a-z]{1,6}", fullmatch=True), WORDS
        ),
        st.builds(lambda c: f"# {c}", WORDS),
        st.just(""),
        st.builds(
            lambda k, items: f"{k}:\n" + "".join(f"  - {i}\n" for i in items).rstrip("\n"),
            st.from_regex(r"l_[a-z]{1,6}", fullmatch=True),
            st.lists(WORDS, min_size=1, max_size=3),
        ),
    ),
    max_size=8,
)
PATCHES = st.dictionaries(
    st.sampled_from(["confidence", "status", "updated", "sources", "id", "tags"]),
    st.one_of(SCORE, st.sampled_from(["active", "archived"]), DATE, st.lists(LINE, max_size=2)),
    min_size=1,
    max_size=3,
)


#: The keys a patch changes, as a note may already hold them (a subset, anywhere among the
#: person's lines, so a patch replaces lines in the middle as well as at the end).
TOTA_LINES = st.lists(
    st.sampled_from(
        ["confidence: 0.5", "status: active", "updated: 2026-01-02T03:04:05",
         "sources:\n  - chat#1\n  - chat#2", "tags: [a, b]", "id: 01ABCDEF"]
    ),
    unique=True,
    max_size=6,
)  # fmt: skip


@SETTINGS
@given(
    st.tuples(PERSON_LINES, TOTA_LINES).flatmap(lambda pair: st.permutations(pair[0] + pair[1])),
    st.sampled_from(["\n", "\r\n"]),
    st.text(ANY_CHAR, max_size=120),
    PATCHES,
)
def test_a_patch_changes_only_the_lines_it_names(
    lines: list[str], newline: str, body: str, changes: dict
) -> None:
    fm = ["type: preference", *lines]
    # Unique keys only: a person's YAML with a repeated key is not valid to begin with.
    keys = [line.split(":", 1)[0] for line in fm if line and not line.startswith((" ", "#"))]
    assume(len(keys) == len(set(keys)))
    text = "---\n" + "\n".join(fm) + "\n---\n" + body
    text = text.replace("\n", newline)
    before = parse_note(text.encode("utf-8"), "preference/x.md")
    assume(before.error is None)
    patched = patch_frontmatter(text, changes, verify=False)  # the patcher, not its safety net

    # Every line of the original that belongs to no patched key is still there, in order.
    def kept(source: str) -> list[str]:
        out, skipping = [], False
        head, _, rest = source.partition(newline + "---" + newline)
        for line in head.split(newline):
            top = line.split(":", 1)[0] if line and line[0] not in " #-" else None
            if top is not None:
                skipping = top in changes
            elif line == "" or line.startswith("#"):
                skipping = False
            if not skipping:
                out.append(line)
        return [*out, rest]

    assert kept(patched) == kept(text)
    assert patched.endswith(newline + "---" + newline + body.replace("\n", newline)) or body == ""
    after = parse_note(patched.encode("utf-8"), "preference/x.md")
    for name, value in before.fields.items():
        if name not in changes:
            assert after.fields[name] == value


# --- what goes in through remember or observe --------------------------------------------------

#: Secrets to plant, generated: each is (the sentence that states it, with `{}` for the value,
#: and the value). Every value is new, built the way real ones are: passwords with a digit,
#: IBANs and cards with valid check digits, SSNs from the issued ranges.
_TOKEN = string.ascii_letters + string.digits + "!#$%&*+=?@^_~-"
PASSWORDS = st.builds(
    lambda head, digit, tail: head + digit + tail,
    st.text(_TOKEN, min_size=4, max_size=8),
    st.sampled_from(string.digits),
    st.text(_TOKEN, max_size=8),
    # Long and lettered enough not to turn up by chance in an id, a date or a hash of a note.
).filter(lambda value: value[0] not in "-#" and sum(c.isalpha() for c in value) >= 2)
PROSE = st.sampled_from(
    [
        "my password is {}",
        "I set the wifi password to {}",
        "the door code is {}",
        "the passcode: {}",
        "username sam and the password {}",
        "I always log in with {}",
    ]
)


def _luhn_complete(digits: str) -> str:
    total = 0
    for index, char in enumerate(reversed(digits + "0")):
        value = int(char) * (2 if index % 2 else 1)
        total += value - 9 if value > 9 else value
    return digits + str((10 - total % 10) % 10)


def _iban(country: str, bank: str, account: str) -> str:
    body = bank + account
    moved = body + country + "00"
    check = 98 - int("".join(str(int(c, 36)) for c in moved)) % 97
    return f"{country}{check:02d}{body}"


CARDS = st.builds(
    lambda first, rest: _luhn_complete(first + rest),
    st.sampled_from("3456"),
    st.text(string.digits, min_size=14, max_size=14),
).filter(lambda n: len(set(n)) > 1)
IBANS = st.builds(
    _iban,
    st.just("GB"),
    st.text(string.ascii_uppercase, min_size=4, max_size=4),
    st.text(string.digits, min_size=14, max_size=14),
)
SSNS = st.builds(
    lambda area, group, serial: f"{area:03d}-{group:02d}-{serial:04d}",
    st.integers(1, 899).filter(lambda a: a != 666),
    st.integers(1, 99),
    st.integers(1, 9999),
)
URL_PASSWORDS = st.text(string.ascii_letters + string.digits + "-_.~", min_size=6, max_size=16)
GITHUB_TOKENS = st.text(string.ascii_letters + string.digits, min_size=36, max_size=40).map(
    lambda s: "gh" + "p_" + s
)
SECRET_VALUES = st.one_of(
    st.tuples(PROSE, PASSWORDS),
    st.tuples(st.just("postgres://app:{}@db.internal/app"), URL_PASSWORDS),
    st.tuples(st.just("my IBAN is {}"), IBANS),
    st.tuples(st.just("my SSN is {}"), SSNS),
    st.tuples(st.just("pay with {}"), CARDS),
    st.tuples(st.just("token {}"), GITHUB_TOKENS),
)


def assert_vault_is_sound(vault: Vault, forbidden: list[str], rels: list[str]) -> None:
    """The notes at `rels` (those an example wrote) are valid, inside the vault, without a
    forbidden value; and a sync of the whole vault finds no invalid note."""
    root = vault.root.resolve()
    for rel in rels:
        path = vault.root / rel
        assert path.resolve().is_relative_to(root)
        data = path.read_bytes()
        note = parse_note(data, path.relative_to(vault.root).as_posix())
        assert note.error is None, (path, note.error)
        for value in forbidden:
            assert value.encode("utf-8") not in data, (path, value)
    assert vault.sync().invalid == []


@pytest.fixture(scope="module")
def shared_vault(tmp_path_factory: pytest.TempPathFactory):
    """One vault for many examples: each example only adds notes, and checks all of them."""
    root = tmp_path_factory.mktemp("props") / "vault"
    with Vault.open(root) as vault:
        yield vault


@SETTINGS
@given(text=ANY_TEXT, secret=st.none() | SECRET_VALUES, where=st.integers(0, 200))
def test_remember_writes_a_valid_note_inside_the_vault_or_refuses(
    shared_vault: Vault, text: str, secret: tuple[str, str] | None, where: int
) -> None:
    forbidden: list[str] = []
    if secret is not None:
        template, value = secret
        assume(value not in text)  # the value must be the secret's alone to be looked for
        cut = min(where, len(text))
        text = f"{text[:cut]} {template.format(value)} {text[cut:]}"
        forbidden.append(value)
    try:
        stored = shared_vault.remember("preference", text)
    except SecretError as exc:
        event("refused: a secret")
        assert secret is not None or find_secrets(clean_text(text))
        assert all(value not in str(exc) for value in forbidden)
        return
    except Exception as exc:  # the only other refusal: an empty or overlong statement
        assert type(exc).__name__ == "ValidationError", exc
        event("refused: not a statement")
        return
    event("stored")
    assert secret is None
    assert (shared_vault.root / stored.path).is_file()
    assert_vault_is_sound(shared_vault, forbidden, [stored.path])


@settings(SETTINGS, max_examples=100)
@given(
    messages=st.lists(ANY_TEXT, min_size=1, max_size=4),
    secret=st.none() | SECRET_VALUES,
    lead=st.sampled_from(["I love ", "I live in ", "My sister ", "I'm working on ", ""]),
)
def test_observe_writes_valid_notes_inside_the_vault_with_no_secret(
    shared_vault: Vault, messages: list[str], secret: tuple[str, str] | None, lead: str
) -> None:
    forbidden: list[str] = []
    if secret is not None:
        template, value = secret
        assume(all(value not in m for m in messages) and value not in f"{lead}x y z")
        messages = [*messages[:-1], f"{lead}{messages[-1]} {template.format(value)}. {lead}x y z"]
        forbidden.append(value)
    else:
        messages = [lead + m for m in messages]
    conversation = [{"role": "user", "content": m} for m in messages]
    digest = hashlib.sha256("\x00".join(messages).encode("utf-8", "surrogatepass")).hexdigest()
    report = shared_vault.observe(conversation, conversation_id=f"c-{digest[:12]}")
    shown = repr(report.to_dict())
    assert all(value not in shown for value in forbidden)
    written = sorted({o.path for o in report.outcomes if o.path})
    event("wrote a note" if written else "wrote nothing")
    assert_vault_is_sound(shared_vault, forbidden, written)


@SETTINGS
@given(planted=labelled_secrets(), text=ANY_TEXT, where=st.integers(0, 200))
def test_no_generated_secret_survives_redaction(
    planted: tuple[str, list[str]], text: str, where: int
) -> None:
    """Every value, in any generated phrasing, anywhere in any text, is redacted whole."""
    sentence, values = planted
    assume(all(value not in text for value in values))
    cut = min(where, len(text))
    whole = clean_text(f"{text[:cut]} {sentence} {text[cut:]}")
    shown = redact(whole)
    assert all(value not in shown for value in values), (whole, shown)


@settings(SETTINGS, max_examples=60)
@given(planted=labelled_secrets(), before=ANY_TEXT, after=ANY_TEXT)
def test_observe_stores_no_generated_secret(
    shared_vault: Vault, planted: tuple[str, list[str]], before: str, after: str
) -> None:
    """Through the whole pipeline: no file the example wrote, and not its report, holds a
    value planted in a generated phrasing."""
    sentence, values = planted
    assume(all(value not in before + after for value in values))
    messages = [f"I live in Porto. {before}", f"{before} {sentence} {after}", "I love jazz."]
    conversation = [{"role": "user", "content": m} for m in messages]
    digest = hashlib.sha256("\x00".join(messages).encode("utf-8", "surrogatepass")).hexdigest()
    report = shared_vault.observe(conversation, conversation_id=f"g-{digest[:12]}")
    shown = repr(report.to_dict())
    assert all(value not in shown for value in values)
    written = sorted({o.path for o in report.outcomes if o.path})
    assert_vault_is_sound(shared_vault, values, written)


# --- the sync planner converges ------------------------------------------------------------------
#
# The planner (`plan_scan`, `plan_reads`, `match_moves`) is pure; `reconcile` applies its
# decisions to the index. `reconcile_model` applies them to plain data the same way: a file is
# (bytes, memory id, mtime), an index row (hash, memory id, size, mtime, row number). Row
# numbers say which rows survived: a move keeps its row (and so the memory's history).

NAMES = st.sampled_from([f"{t}/n{i}.md" for t in ("preference", "goal") for i in range(5)])
BODIES = st.sampled_from(["alpha", "beta", "gamma", "delta!"])
IDS = st.sampled_from(["01A", "01B", "01C", "01D", None])

File = tuple[str, str | None, int]  # bytes, memory id, mtime
Row = tuple[str, str | None, int, int, int]  # hash, memory id, size, mtime, row number


@st.composite
def histories(draw: st.DrawFn) -> tuple[dict[str, Row], dict[str, File]]:
    """An index in sync with its files, then a mix of adds, edits, moves, copies, touches and
    deletes on the files (each change a tick of the clock)."""
    start = draw(st.dictionaries(NAMES, st.tuples(BODIES, IDS), max_size=7))
    files: dict[str, File] = {p: (body, mid, 0) for p, (body, mid) in start.items()}
    rows: dict[str, Row] = {
        p: (f"h:{body}:{mid}", mid, len(body), 0, n)
        for n, (p, (body, mid)) in enumerate(start.items())
    }
    for clock in range(1, draw(st.integers(0, 10)) + 1):
        op = draw(st.sampled_from(["add", "edit", "move", "move-edit", "copy", "touch", "delete"]))
        if op == "add":
            files[draw(NAMES)] = (draw(BODIES), draw(IDS), clock)
        elif not files:
            continue
        path = draw(st.sampled_from(sorted(files)))
        body, mid, _ = files[path]
        if op == "edit":
            files[path] = (draw(BODIES), mid, clock)
        elif op in ("move", "move-edit"):
            del files[path]
            files[draw(NAMES)] = (draw(BODIES) if op == "move-edit" else body, mid, clock)
        elif op == "copy":
            files[draw(NAMES)] = (body, mid, clock)
        elif op == "touch":
            files[path] = (body, mid, clock)
        elif op == "delete":
            del files[path]
    return rows, files


def reconcile_model(rows: dict[str, Row], files: dict[str, File]) -> tuple[dict[str, Row], int]:
    """One full reconcile on plain data; returns the new rows and how many paths it read."""
    snapshot = {p: FileStat(len(body), mtime) for p, (body, _, mtime) in files.items()}
    stats = {p: IndexedStat(size, mtime) for p, (_, _, size, mtime, _) in rows.items()}
    indexed = {p: IndexedFile(size, mtime, h, mid) for p, (h, mid, size, mtime, _) in rows.items()}
    scan = plan_scan(snapshot, stats)
    vanished_by_hash: dict[str, list[str]] = {}
    for path in scan.vanished:
        vanished_by_hash.setdefault(indexed[path].hash, []).append(path)
    hashes = {p: f"h:{files[p][0]}:{files[p][1]}" for p in scan.to_read}
    reads = plan_reads(hashes, indexed, vanished_by_hash)
    new_ids = {
        p: files[p][1] for p in reads.to_parse if p not in indexed and files[p][1] is not None
    }
    claimed_by_hash = {old for old, _ in reads.moves}
    vanished_ids = {
        p: indexed[p].memory_id
        for p in scan.vanished
        if indexed[p].memory_id and p not in claimed_by_hash
    }
    moves = [*reads.moves, *match_moves(new_ids, vanished_ids)]
    olds = [old for old, _ in moves]
    news = [new for _, new in moves]
    assert len(set(olds)) == len(olds) and len(set(news)) == len(news)  # each claimed once

    out = {p: rows[p] for p in scan.unchanged}
    next_row = max((r[4] for r in rows.values()), default=-1) + 1
    for old, new in moves:
        out[new] = rows[old]  # the row moves, number and all; its content is refreshed below
    for path in (*reads.touches, *reads.to_parse, *news):
        body, mid, mtime = files[path]
        number = out[path][4] if path in out else rows[path][4] if path in rows else None
        if number is None:
            number, next_row = next_row, next_row + 1
        out[path] = (hashes[path], mid, len(body), mtime, number)
    # The vanished paths no move claimed are deleted (reconcile checks they are still gone).
    assert set(rows) - set(out) <= set(scan.vanished)
    return out, len(scan.to_read)


@SETTINGS
@given(histories())
def test_the_sync_planner_converges(state: tuple[dict[str, Row], dict[str, File]]) -> None:
    rows, files = state
    once, _ = reconcile_model(rows, files)
    # The index mirrors the files: every path, its bytes and its memory id.
    assert {p: (h, mid) for p, (h, mid, *_rest) in once.items()} == {
        p: (f"h:{body}:{mid}", mid) for p, (body, mid, _) in files.items()
    }
    numbers = [r[4] for r in once.values()]
    assert len(numbers) == len(set(numbers))
    # A move keeps its row: no new path got a new row while a vanished row with the same bytes
    # or the same memory id was dropped (that pair is a move, and must have been matched).
    # An id held by two notes (a copy) pairs once: `match_moves` keeps one vanished path per
    # id, so for such ids only the bytes are checked (the files stay the truth either way).
    old_numbers = {r[4] for r in rows.values()}
    created = [(p, r) for p, r in once.items() if r[4] not in old_numbers and p not in rows]
    dropped = [r for p, r in rows.items() if r[4] not in numbers]
    ids = [r[1] for r in rows.values()] + [f[1] for f in files.values()]
    for _path, row in created:
        for gone in dropped:
            assert gone[0] != row[0], "moved bytes lost their row"
            if row[1] is not None and ids.count(row[1]) == 2:
                assert gone[1] != row[1], "a moved memory id lost its row"
    # Converged: a second sync reads nothing and changes nothing.
    twice, read = reconcile_model(once, files)
    assert twice == once and read == 0


# --- the same, with real files, a real index and `Vault.sync` ----------------------------------


def _note(memory_id: str, body: str) -> str:
    return (
        f"---\nid: {memory_id}\ntype: preference\nconfidence: 0.8\nevidence: manual\n---\n{body}\n"
    )


@settings(SETTINGS, max_examples=40)
@given(
    start=st.dictionaries(NAMES, BODIES, min_size=1, max_size=5),
    ops=st.lists(
        st.tuples(st.sampled_from(["add", "edit", "move", "delete"]), NAMES, BODIES), max_size=6
    ),
)
def test_sync_converges_on_a_real_vault(
    tmp_path_factory: pytest.TempPathFactory, start: dict[str, str], ops: list
) -> None:
    """Adds, hand edits, moves and deletes on disk; one `sync` later the index holds every
    file with its bytes and memory id, a moved note kept its id, and a second sync finds
    nothing to do."""
    root = tmp_path_factory.mktemp("sync") / "vault"
    with Vault.open(root) as vault:
        ids = {}
        for n, (rel, body) in enumerate(sorted(start.items())):
            ids[rel] = f"01SYNCTEST{n:016d}"
            (root / rel).write_text(_note(ids[rel], body), "utf-8")
        vault.sync()
        counter = len(ids)
        for op, rel, body in ops:
            present = sorted(p for p in ids if (root / p).exists())
            if op == "add" and rel not in ids:
                ids[rel] = f"01SYNCTEST{counter:016d}"
                counter += 1
                (root / rel).write_text(_note(ids[rel], body), "utf-8")
            elif op == "edit" and present:
                target = present[len(body) % len(present)]
                text = (root / target).read_text("utf-8")
                (root / target).write_text(text.rstrip("\n") + f" {body}\n", "utf-8")
            elif op == "move" and present and rel not in ids:
                source = present[len(body) % len(present)]
                os.replace(root / source, root / rel)
                ids[rel] = ids.pop(source)
            elif op == "delete" and present:
                target = present[len(body) % len(present)]
                (root / target).unlink()
                del ids[target]
        vault.sync()
        rows = {
            row["path"]: (row["hash"], row["memory_id"])
            for row in index_sql(vault).execute("SELECT path, hash, memory_id FROM notes")
        }
        on_disk = {p.relative_to(root).as_posix(): p for p in root.rglob("*.md")}
        assert set(rows) == set(on_disk) == set(ids)
        for rel, path in on_disk.items():
            assert rows[rel] == (read_file(path)[1].hash, ids[rel])
        again = vault.sync()
        assert not again.changed and again.invalid == []


# --- sealing in place --------------------------------------------------------------------------

#: Lines around a digest a sealed note may hold: tota's own keys, a person's, comments, blank
#: lines, a list, and the lines that make the in-place seal hand over to the patch (a second
#: or quoted `digest`, an indented continuation, a value that mentions the word).
DIGEST_LINES = st.lists(
    st.sampled_from(
        ["digest: \"sha256:000000000000000000000000\"", "digest: stale", "digest:",
         "digest:x", '"digest": quoted', "digest :spaced", "  - item", "  indented",
         "sources:\n  - chat#1", "p_key: digest of the week", "# a comment", "",
         "confidence: 0.5", "tags: [digest]"]
    ),
    max_size=6,
)  # fmt: skip


@SETTINGS
@given(memories(), PATCHES)
def test_sealing_in_place_is_the_patch_for_what_tota_writes(memory: Memory, changes) -> None:
    text = render_note(memory)
    sealed = render_sealed(memory)
    assert sealed == _seal_by_patch(text) and seal_state(sealed) is SealState.SEALED
    patched = patch_frontmatter(sealed, changes, verify=False)  # a merge's patch, resealed
    assert seal(patched) == _seal_by_patch(patched)
    assert seal_state(seal(patched)) is SealState.SEALED


@SETTINGS
@given(PERSON_LINES, DIGEST_LINES, st.sampled_from(["\n", "\r\n"]), st.text(ANY_CHAR, max_size=60))
def test_sealing_in_place_is_the_patch_for_any_frontmatter(
    person: list[str], around: list[str], newline: str, body: str
) -> None:
    text = ("---\n" + "\n".join(["type: goal", *person, *around]) + "\n---\n" + body).replace(
        "\n", newline
    )
    assert seal(text) == _seal_by_patch(text)
