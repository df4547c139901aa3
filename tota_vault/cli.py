"""The `tota` command: a thin typer layer over `tota_vault`.

Each command parses its options, calls the library, and prints: a rich table on a terminal,
plain text in a pipe, JSON with `--json`. Library errors (`TotaError`) become one line on
stderr and an exit code: 0 ok, 1 a problem found or an operation refused, 2 a usage error.
Heavy modules are imported inside the commands so `tota --help` starts fast.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import shlex
import shutil
import signal
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from .cli_fast import (
    _hook_argv,
    _HookUsageError,
    print_recall,
    print_search,
    quiet_broken_pipe,
    recall_message,
    run_hook_command,
    search_query,
)
from .errors import TotaError, ValidationError
from .model import MANUAL_CONFIDENCE

if TYPE_CHECKING:
    from rich.console import Console

    from .recall import Recalled
    from .sync import SyncReport
    from .vault import Vault


class _TotaGroup(TyperGroup):
    """Turns a library error into one line on stderr and its exit code, for every command."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except TotaError as exc:
            typer.echo(f"tota: error: {exc}", err=True)
            raise typer.Exit(exc.exit_code) from None
        except sqlite3.DatabaseError as exc:
            # A query outside the library's guarded calls: still one line, and the cure.
            vault = _state.get("opened")
            if vault is not None and vault.repair_index(exc):
                vault.close()
                typer.echo("tota: error: the index was damaged; run the command again", err=True)
            else:
                typer.echo(
                    f"tota: error: the index failed ({exc}); run `tota reindex` to rebuild it "
                    "from the notes",
                    err=True,
                )
            raise typer.Exit(1) from None
        except BrokenPipeError:
            raise typer.Exit(quiet_broken_pipe()) from None
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            typer.echo(f"tota: error: {where}{exc.strerror or exc}", err=True)
            raise typer.Exit(1) from None


app = typer.Typer(
    name="tota",
    cls=_TotaGroup,
    help="tota: an AI assistant's long-term memory as a Markdown vault you can read, edit, "
    "search and version.",
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

_state: dict[str, Any] = {"vault": None}

VaultOption = Annotated[
    Path | None,
    typer.Option(
        "--vault",
        envvar="TOTA_VAULT",
        help="The vault folder (default: ~/.tota/memory/second-brain; TOTA_HOME moves ~/.tota).",
        show_default=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def _score(meaning: str) -> Any:
    return typer.Option(help=f"{meaning}, from 0 to 1.", min=0.0, max=1.0)


@app.callback()
def _root(vault: VaultOption = None) -> None:
    """tota: an AI assistant's long-term memory as a Markdown vault."""
    _state["vault"] = vault


def _open(create: bool = False) -> Vault:
    from .vault import Vault

    # What tota repaired by itself (from the opening on): one line on stderr.
    vault = Vault.open(_state["vault"], create=create, on_notice=_notice)
    _state["opened"] = vault
    return vault


def _notice(message: str) -> None:
    typer.echo(f"tota: {message}", err=True)


def _console(stderr: bool = False) -> Console:
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            # rich's own exits 1, "a problem found"; the reader went away: as every command.
            self.quiet = True
            raise SystemExit(quiet_broken_pipe())

    return _Console(stderr=stderr, highlight=False, soft_wrap=False)


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


class _JsonList:
    """Print `{**head, key: [items]}` exactly as `_print_json` would, an item at a time as
    they are added (`with _JsonList(head, key) as out: out.add(item)`), for a list too long
    to hold whole. `key` comes last. Nothing is printed before the first item, so an error
    before it leaves stdout empty; the closing brackets are printed when the block ends."""

    def __init__(self, head: dict[str, Any], key: str) -> None:
        whole = json.dumps({**head, key: []}, ensure_ascii=False, indent=2, default=str)
        self._opening = whole[: -len("[]\n}")]  # up to and including `"key": `
        self._count = 0

    def __enter__(self) -> _JsonList:
        return self

    def add(self, item: Any) -> None:
        text = json.dumps(item, ensure_ascii=False, indent=2, default=str)
        lead = self._opening + "[\n" if not self._count else ",\n"
        sys.stdout.write(lead + _indented(text, "    "))
        self._count += 1

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is None:
            sys.stdout.write("\n  ]\n}\n" if self._count else self._opening + "[]\n}\n")


def _indented(text: str, prefix: str) -> str:
    """Every line of `text` with `prefix` in front (JSON text: no newline inside a string)."""
    return prefix + text.replace("\n", "\n" + prefix)


def _sync_with_progress(vault: Vault, *, reindex: bool = False) -> SyncReport:
    """Run a sync; show a progress bar once it has run for a second, on a terminal only."""
    bar: dict[str, Any] = {}
    started = time.monotonic()
    show = sys.stderr.isatty() and os.environ.get("TERM") != "dumb"

    def progress(done: int, total: int) -> None:
        if not show:
            return
        if "progress" not in bar:
            if time.monotonic() - started < 1.0:
                return
            from rich.progress import Progress

            bar["progress"] = Progress(console=_console(stderr=True), transient=True)
            bar["progress"].start()
            bar["task"] = bar["progress"].add_task("Syncing notes", total=total)
        bar["progress"].update(bar["task"], completed=done, total=total)

    try:
        return vault.reindex(progress=progress) if reindex else vault.sync(progress=progress)
    finally:
        if "progress" in bar:
            bar["progress"].stop()


def _print_sync(report: SyncReport, as_json: bool, verb: str) -> None:
    if as_json:
        _print_json(report.to_dict())
        return
    summary = report.to_dict()
    parts = [f"{summary[k]} {k}" for k in ("added", "updated", "moved", "removed", "unchanged")]
    line = f"{verb}: " + ", ".join(parts) + f", {summary['invalid']} invalid"
    if report.ids_assigned:
        line += f"; gave {len(report.ids_assigned)} hand-written note(s) an id"
    print(f"{line} ({report.seconds:.2f}s)")
    for path, reason in report.invalid:
        print(f"  invalid: {path}: {reason}")
    for folder, reason in report.blocked:
        print(f"  unreadable folder: {folder}: {reason} (its notes are kept in the index)")
    for path, reason in report.unreadable:
        print(f"  unreadable: {path}: {reason} (its last readable version stays indexed)")
    for folder, reason in report.links:
        print(f"  link not followed: {folder}: {reason}")
    for path in report.swept:
        print(f"  removed a temp file left by an interrupted write: {path}")
    for path, waits in report.held:
        print(f"  held by an editor: {path}: {waits}")
    carried = report.turns
    if carried is not None and (carried.found or carried.reason):
        if carried.dropped is None:
            print(f"  conversation turns: the old index's are lost ({carried.reason})")
        else:
            line = f"  conversation turns: {carried.kept} kept, {carried.dropped} dropped"
            print(line + (f" ({carried.reason})" if carried.reason else ""))


@app.command()
def init(
    git: Annotated[
        bool,
        typer.Option(
            "--git",
            help="Also make a git repository and its first commit, with the merge driver for "
            "memory notes registered (see `tota git setup`).",
        ),
    ] = False,
) -> None:
    """Create a vault: one folder per memory type and a .gitignore for the index."""
    from .vault import Vault

    vault = Vault(_resolve())
    created = vault.init(git=git)
    print(f"Vault ready at {vault.root}")
    for item in created:
        if item != ".":
            print(f"  created {item}")


def _resolve() -> Path:
    from .paths import resolve_vault_path

    return resolve_vault_path(_state["vault"])


@app.command()
def add(
    type: Annotated[str, typer.Argument(help="Memory type: identity, preference, goal, ...")],
    text: Annotated[str, typer.Argument(help="The memory, one or two sentences.")],
    confidence: Annotated[float, _score("How sure tota is that it is true")] = MANUAL_CONFIDENCE,
    importance: Annotated[
        float | None, _score("How much it matters (default: the type's, as learning scores it)")
    ] = None,
    durability: Annotated[
        float | None, _score("How long it stays true (default: the type's)")
    ] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", help="A tag (repeatable).")] = None,
    key: Annotated[
        str | None, typer.Option(help="The slot it fills, e.g. preference/editor.")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Add a memory by hand (evidence: manual) as a new note.

    Text holding a secret (a password, an API key, a card number, an IBAN, an ID number) is
    refused with exit code 1; the message names the kind, never the value.
    """
    from .model import MemoryType
    from .scoring import TYPE_SCORES

    # A memory added by hand starts from its type's scores, as learning and MCP `remember` do:
    # a constraint matters more and lasts longer than an episode.
    try:
        by_type = TYPE_SCORES[MemoryType(type.lower())]
    except ValueError:  # an unknown type: `remember` refuses it in one line
        by_type = (0.5, 0.8)
    from .manage import said_already

    with _open(create=True) as vault:
        same = said_already(vault, type, text)
        if same is not None:
            raise TotaError(
                f"{same.path} already says this; `tota confirm {same.memory_id}` confirms it"
            )
        stored = vault.remember(
            type, text, confidence=confidence,
            importance=by_type[0] if importance is None else importance,
            durability=by_type[1] if durability is None else durability,
            evidence="manual", key=key, tags=tag or (),
        )  # fmt: skip
        if as_json:
            _print_json({"id": stored.memory.id, "path": stored.path})
        else:
            print(f"Added {stored.memory.type.value} {stored.memory.id}: {stored.path}")


@app.command()
def show(
    ref: Annotated[str, typer.Argument(help="A memory id, a note path, or a note title.")],
    as_json: JsonOption = False,
) -> None:
    """Show one note as it is on disk (and whether it is a valid memory)."""
    with _open() as vault:
        note, text = vault.read(ref)
        if as_json:
            data: dict[str, Any] = {"path": note.path, "title": note.title, "error": note.error}
            data["fields"] = note.fields
            data["body"] = note.body
            _print_json(data)
            return
        binary = "\x00" in text  # its bytes would only garble the terminal
        shown = "# not shown: binary content\n" if binary else text
        out = f"# {note.path}\n" + (f"# invalid: {note.error}\n" if note.error else "") + shown
        if sys.stdout.isatty():  # a note (or its name) must not drive the terminal
            out = for_terminal(out)
        sys.stdout.write(out if out.endswith("\n") else out + "\n")


def for_terminal(text: str) -> str:
    """`text` with every character a terminal would act on written out (`\\x1b`), CRLF read
    as a line break. Pure."""
    return _TERMINAL_CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", text.replace("\r\n", "\n"))


#: The characters a terminal acts on rather than shows (all C0 and C1 controls but tab and
#: LF; a lone CR too, which would write over a line): `tota show` writes them as `\x1b` to a
#: terminal.
_TERMINAL_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="Words to find; any text works (C++, foo-bar).")],
    type: Annotated[str | None, typer.Option("--type", "-t", help="Only this memory type.")] = None,
    limit: Annotated[
        int, typer.Option("--limit", "-n", help="At most this many results.", min=1)
    ] = 10,
    raw: Annotated[
        bool, typer.Option("--raw", help="Pass FTS5 query syntax through as is.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Full-text search over every note, best match first.

    Superseded and archived memories are found too, their status under their type; at an
    equal score an active memory comes first.
    """
    search_query(query)
    with _open() as vault:
        hits = vault.search(query, type=type, limit=limit, raw=raw)
        print_search(vault, query, hits, as_json)


@app.command()
def sync(as_json: JsonOption = False) -> None:
    """Bring the index up to date with the notes on disk (one pass, then exit)."""
    with _open() as vault:
        _print_sync(_sync_with_progress(vault), as_json, "Synced")


@app.command()
def reindex(as_json: JsonOption = False) -> None:
    """Delete the index and rebuild it from the notes (the vault is the truth).

    The conversation turns recall quotes are in no note: they are copied from the old index
    when it can be read, and the output says how many were kept and how many dropped.
    """
    with _open() as vault:
        _print_sync(_sync_with_progress(vault, reindex=True), as_json, "Reindexed")


@app.command()
def doctor(as_json: JsonOption = False) -> None:
    """Check the vault: invalid or unreadable notes, index drift, duplicate ids, links leading
    outside the vault or into its hidden folders, temp files left by a killed write, notes
    that hold a secret (named by kind, never by value), a damaged index (rebuilt) and the damaged
    copy kept aside. Exit 1 if anything is wrong."""
    with _open() as vault:
        report = vault.doctor()
        if as_json:
            _print_json(report.to_dict())
        else:
            for path, reason in report.invalid:
                print(f"invalid: {path}: {reason}")
            for path, problem in report.drift:
                print(f"drift: {path}: {problem}")
            for path, waits in report.held:
                print(f"held by an editor: {path}: {waits} (fine)")
            for memory_id, paths in report.duplicate_ids.items():
                print(f"duplicate id {memory_id}: {', '.join(paths)}")
            for problem in report.integrity:
                print(f"index: {problem}")
            for folder, reason in report.blocked:
                print(f"unreadable folder: {folder}: {reason}")
            for problem in report.git:
                print(f"git: {problem}")
            for path, reason in report.unreadable:
                print(f"unreadable: {path}: {reason}")
            for folder, reason in report.links:
                print(f"link not followed: {folder}: {reason}")
            for path, age in report.temp_files:
                print(
                    f"temp file: {path}: left by an interrupted write {age / 60:.0f} min ago "
                    "(`tota sync` removes it)"
                )
            for pattern in report.gitignore_missing:
                print(f".gitignore: lacks {pattern}; git could commit temp files (run `tota init`)")
            for name, age in report.broken_copies:
                print(
                    f"damaged index copy: {name}: moved aside {_age(age)} ago; it holds the "
                    f"text of every memory it indexed; delete it: rm {shlex.quote(name)}*"
                )
            for path, target in report.aliases:
                print(f"alias: {path}: a link to {target}, indexed there (fine)")
            for path, kind in report.secrets:
                print(f"secret: {path}: note holds {kind} (edit it out, or `tota forget` it)")
            if report.ok:
                but = " but for the damaged copy above" if report.broken_copies else ""
                print(f"All good{but}: {report.notes} notes, index in sync.")
        if not report.ok:
            raise typer.Exit(1)


def _age(seconds: float) -> str:
    """An age in words a person reads at a glance: 40 s, 12 min, 3 h, 5 days."""
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 86400:
        return f"{seconds / 3600:.0f} h"
    return f"{seconds / 86400:.0f} days"


@app.command()
def extract(
    file: Annotated[
        str, typer.Argument(help="A conversation file, or - for standard input.")
    ] = "-",
    format: Annotated[
        str,
        typer.Option("--format", "-f", help="auto, text, json, jsonl, chatgpt or claude-ai."),
    ] = "auto",
    conversation_id: Annotated[
        str | None,
        typer.Option(
            "--conversation-id",
            help="Names the conversation in sources (default: the transcript's own id, else a "
            "digest of its opening messages).",
        ),
    ] = None,
    dry_run: Annotated[
        bool,
        typer.Option("--dry-run", help="Show what a real run would store; write nothing."),
    ] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="List every candidate and its outcome.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Learn from a conversation: extract, score, merge, resolve conflicts and store memories.

    Reads a transcript, chat JSON or JSONL, or a ChatGPT or Claude.ai data export
    (conversations.json), whose conversations are each learned under their own id. A long
    transcript or JSONL file is learned as it is read, its notes indexed as it goes, with
    progress on a terminal. Prints a summary; -v lists every candidate, --json prints the
    report (one shape, see docs/learning.md). A conversation of an export that cannot be read,
    or a note edited while it was being learned, is skipped and reported; the rest is learned.

    The offline rules extract, unless the vault's tota.toml says [extract] backend = "llm"
    (a local model; see docs/learning.md). Notes about the run go to stderr.
    """
    from .extract.formats import FORMATS

    if format not in FORMATS:
        raise typer.BadParameter(
            f"{format!r} is not one of {', '.join(FORMATS)}", param_hint="--format"
        )
    source = "<stdin>" if file == "-" else file
    try:
        stream = sys.stdin if file == "-" else open(file, encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        raise ValidationError(f"{file}: cannot be read ({exc.strerror or exc})") from None
    problems: list[str] = []
    reports: list[Any] = []
    try:
        with stream, _StopBetweenSteps() as stop:
            reports = _learn_stream(
                stream, format, source, conversation_id, dry_run, problems, stop.check
            )
    except UnicodeDecodeError as exc:
        raise ValidationError(f"{source}: not UTF-8 text ({exc.reason})") from None
    _print_extract(reports, problems, dry_run=dry_run, as_json=as_json, verbose=verbose)


def _learn_stream(
    stream: Any,
    format: str,
    source: str,
    conversation_id: str | None,
    dry_run: bool,
    problems: list[str],
    between_steps: Callable[[], None],
) -> list[Any]:
    """Learn each conversation of `stream` as it is read; their reports, in order.
    `between_steps` runs after each step is written and indexed (it may stop the run)."""
    from .extract.formats import stream_conversations

    conversations: Iterable[tuple[str, Iterable[Any]]] = stream_conversations(
        stream, format, source=source, problems=problems
    )
    if conversation_id is not None:
        # A stream yields one conversation; an export (read whole) may hold several.
        listed = list(conversations)
        if len(listed) > 1:
            raise ValidationError(
                f"{source}: holds {len(listed)} conversations, each learned under its "
                "own id; --conversation-id names a file of one conversation"
            )
        conversations = [(conversation_id, listed[0][1])]
    # The first conversation's opening is read before the vault is opened: a file that is
    # not a conversation at all changes nothing, not even by creating the vault.
    pending = iter(conversations)
    first = next(pending)
    reports = []
    progress = _Progress(between_steps)
    try:
        with _learning_vault(dry_run) as vault:
            for cid, messages in itertools.chain([first], pending):
                reports.append(
                    vault.observe(
                        messages,
                        conversation_id=cid,
                        dry_run=dry_run,
                        progress=progress.conversation(),
                    )
                )
    except KeyboardInterrupt:
        progress.close()
        learned = progress.before + progress.done
        typer.echo(
            f"tota: stopped after {learned:,} messages; every note written is indexed "
            "(run it again to learn the rest: what was learned is skipped)",
            err=True,
        )
        raise
    finally:
        progress.close()
    return reports


@contextlib.contextmanager
def _learning_vault(dry_run: bool) -> Iterator[Vault]:
    """The vault `tota extract` learns into. A dry run of a folder with no index yet (no
    vault, or one never synced) predicts against a copy of its notes in a temporary folder:
    "write nothing" writes nothing, not even the vault or its index (a mistyped `--vault` is
    no new vault, and an Obsidian folder gains no `.tota/`)."""
    from .capped import CAPPED_DIR
    from .config import CONFIG_FILE, load_config
    from .files import scan_vault
    from .forgotten import FORGOTTEN_FILE
    from .paths import resolve_vault_path, state_dir
    from .sync import TEMPLATES_CONFIG
    from .vault import Vault

    root = resolve_vault_path(_state["vault"])
    fresh = not state_dir(root).exists() and (root.is_dir() or not root.exists())
    if dry_run and fresh:
        with tempfile.TemporaryDirectory(prefix="tota-dry-run-") as scratch:
            copy = Path(scratch) / "vault"
            if root.is_dir():
                # What a real run reads: the notes (as its first sync would, through the
                # links it follows), the settings, Obsidian's templates folder (never
                # indexed), what was forgotten and the sources the cap left out of notes.
                follow = load_config(root).follow_external_links
                for rel, stat in scan_vault(root, follow_external=follow).items():
                    if stat.error is not None:
                        continue  # a real run indexes it as unreadable: no memory to meet
                    (copy / rel).parent.mkdir(parents=True, exist_ok=True)
                    with contextlib.suppress(OSError):  # unreadable: the real run's error too
                        shutil.copyfile(root / rel, copy / rel)
                copy.mkdir(exist_ok=True)
                for name in (CONFIG_FILE, FORGOTTEN_FILE, TEMPLATES_CONFIG):
                    if (root / name).is_file():
                        (copy / name).parent.mkdir(parents=True, exist_ok=True)
                        shutil.copyfile(root / name, copy / name)
                if (root / CAPPED_DIR).is_dir():
                    shutil.copytree(root / CAPPED_DIR, copy / CAPPED_DIR, symlinks=True)
            with Vault.open(copy, create=True, on_notice=_notice) as vault:
                yield vault
        return
    with _open(create=True) as vault:
        yield vault


class _Progress:
    """`tota extract`'s progress: a count of messages on stderr, rewritten in place, shown on a
    terminal only and once a run has lasted a second (a short chat prints nothing)."""

    def __init__(self, between_steps: Callable[[], None]) -> None:
        self.between_steps = between_steps
        self.show = sys.stderr.isatty() and os.environ.get("TERM") != "dumb"
        self.started = time.monotonic()
        self.before = 0  # messages of the conversations already learned
        self.done = 0
        self.shown = False

    def conversation(self) -> Callable[[int], None]:
        """The callback for the next conversation."""
        self.before += self.done
        self.done = 0
        return self.update

    def update(self, done: int) -> None:
        self.done = done
        self.between_steps()
        if self.show and time.monotonic() - self.started >= 1.0:
            total = self.before + done
            typer.echo(f"\rtota: learned from {total:,} messages...", err=True, nl=False)
            self.shown = True

    def close(self) -> None:
        if self.shown:
            typer.echo("", err=True)
            self.shown = False


class _StopBetweenSteps:
    """While learning, Ctrl-C (SIGINT), SIGTERM or SIGHUP (the terminal closed) stops the run
    between two steps, once the
    step under way is written and indexed: an interrupted run leaves every note it wrote in
    the index, with nothing to sync. A second signal stops at once (the notes written since
    the step began are then indexed by `Vault.batch`'s own failure path). Only the main
    thread may set handlers; elsewhere nothing changes."""

    SIGNALS = tuple(
        getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
    )

    def __init__(self) -> None:
        self.requested = False
        self.previous: dict[int, Any] = {}

    def __enter__(self) -> _StopBetweenSteps:
        try:
            for signum in self.SIGNALS:
                self.previous[signum] = signal.signal(signum, self._handle)
        except ValueError:  # not the main thread
            pass
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)

    def _handle(self, signum: int, frame: Any) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def check(self) -> None:
        """Raise `KeyboardInterrupt` if a stop was asked for (called between steps)."""
        if self.requested:
            raise KeyboardInterrupt


#: The actions of a report, in the order every view lists them.
_ACTIONS = ("create", "merge", "supersede", "keep", "skip")


def extract_summary(reports: list[Any], problems: list[str], *, dry_run: bool) -> dict[str, Any]:
    """`tota extract --json`: one shape for a chat and for an export of many.

    `messages` read, `counts` by action and `secrets` by kind over every conversation, the
    run's `notes` (each once), the `reflections` written or updated after learning (each
    once), `skipped_records` (an export's conversations that could not be read), and
    `conversations`: one `ObserveReport.to_dict()` each.
    """
    dicts = [r.to_dict() for r in reports]
    secrets: dict[str, int] = {}
    for report in reports:
        for kind, n in report.secrets.items():
            secrets[kind] = secrets.get(kind, 0) + n
    return {
        "paused": any(r.paused for r in reports),
        "dry_run": dry_run,
        "messages": sum(d["messages"] for d in dicts),
        "counts": {a: sum(d["counts"][a] for d in dicts) for a in _ACTIONS},
        "secrets": dict(sorted(secrets.items())),
        "notes": list(dict.fromkeys(n for d in dicts for n in d["notes"])),
        "reflections": list(dict.fromkeys(p for d in dicts for p in d["reflections"])),
        "skipped_records": list(problems),
        "conversations": dicts,
    }


def _print_extract(
    reports: list[Any], problems: list[str], *, dry_run: bool, as_json: bool, verbose: bool
) -> None:
    """`tota extract`'s output: a summary (every candidate with -v), or the JSON report."""
    summary = extract_summary(reports, problems, dry_run=dry_run)
    if as_json:
        _print_json(summary)
        return
    for problem in problems:
        typer.echo(f"tota: skipped: {problem}", err=True)
    if summary["paused"]:
        print("Learning is paused: nothing was stored (resume with `tota resume`).")
        return
    _print_extract_notes(reports)
    counts = summary["counts"]
    verb = "Would store" if dry_run else "Stored"
    scope = f" in {len(reports)} conversations" if len(reports) > 1 else ""
    # A sentence the extractor left out is skipped too, or "I love sushi and eat it every
    # Friday." alone would read "0 skipped" with nothing stored.
    from .extract.base import dropped_sentences

    dropped = sum(dropped_sentences(report.skipped) for report in reports)
    sentences = "sentence" if dropped == 1 else "sentences"
    not_proposed = f" ({dropped} {sentences} not proposed)" if dropped else ""
    read = summary["messages"]
    print(
        f"{verb} from {read} message{'' if read == 1 else 's'}{scope}: {counts['create']} created, "
        f"{counts['merge']} merged, {counts['supersede']} superseded, "
        f"{counts['keep']} kept over a contradiction, {counts['skip'] + dropped} skipped"
        f"{not_proposed}"
    )
    if summary["reflections"]:
        written = summary["reflections"]
        print(f"Reflections written or updated: {len(written)}")
        for path in written if verbose else ():
            print(f"  reflect   {path}")
    if summary["secrets"]:
        kinds = ", ".join(f"{n} {kind}" for kind, n in summary["secrets"].items())
        print(f"Secrets kept out of the vault (redacted or skipped): {kinds}")
    if problems:
        print(f"Skipped {len(problems)} conversation(s) that could not be read (see stderr)")
    outcomes = [o for report in reports for o in report.outcomes]
    if outcomes and not verbose:
        print("  (-v lists every candidate and its outcome)")
    for outcome in outcomes if verbose else ():
        where = f" -> {outcome.path}" if outcome.path else ""
        print(f"  {outcome.action:9} {outcome.type:12} {outcome.text}{where} ({outcome.reason})")


def _print_extract_notes(reports: list[Any]) -> None:
    """The extractor's notes (the LLM's fallbacks, a remote endpoint) on stderr, each once:
    an export of many conversations would otherwise repeat the same warning for each."""
    for note in dict.fromkeys(note for report in reports for note in report.notes):
        typer.echo(f"tota: note: {note}", err=True)


#: Host names as people write them, for `tota setup`'s messages.
_HOST_TITLES = {
    "claude-code": "Claude Code",
    "claude-desktop": "Claude Desktop",
    "cursor": "Cursor",
    "vscode": "VS Code",
}


@app.command()
def setup(
    host: Annotated[str, typer.Argument(help="claude-code, claude-desktop, cursor or vscode.")],
    scope: Annotated[
        str,
        typer.Option(
            "--scope", help="user (every project) or project (the current folder's config)."
        ),
    ] = "user",
    print_only: Annotated[
        bool, typer.Option("--print", help="Show the JSON tota would add; write nothing.")
    ] = False,
    remove: Annotated[
        bool, typer.Option("--remove", help="Take out what tota added; leave the rest.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Connect tota to an assistant: write its MCP server (and for Claude Code its hooks) into
    the host's own config file, keeping every other key, with a backup of a file it changes.

    The command written is the absolute path of this tota (a host does not see a venv's PATH);
    a vault chosen with --vault, TOTA_VAULT or TOTA_HOME is passed along. Running it again
    changes nothing.
    """
    from .hosts import Environment, config_edits, setup_host, tota_command
    from .paths import resolve_vault_path

    chosen = _state["vault"] or os.environ.get("TOTA_HOME")
    vault = resolve_vault_path(_state["vault"]) if chosen else None
    if print_only:
        edits = config_edits(
            host, scope, command=tota_command(), vault=vault, environment=Environment.current()
        )
        if as_json:
            _print_json([{"path": str(e.path), "snippet": e.snippet()} for e in edits])
            return
        for edit in edits:
            verb = "remove from" if remove else "add to"
            print(f"# {verb} {edit.path}")
            print(json.dumps(edit.snippet(), indent=2, ensure_ascii=False))
        return
    results = setup_host(host, scope, remove=remove, vault=vault)
    if as_json:
        _print_json([r.to_dict() for r in results])
        return
    words = {
        "created": "Created",
        "updated": "Updated",
        "removed": "Removed tota from",
        "unchanged": "Already set up:",
        "absent": "Nothing of tota's in",
    }
    for result in results:
        backup = f"; backup {result.backup}" if result.backup else ""
        print(f"{words[result.action]} {result.path} ({result.what}{backup})")
    if any(r.action in ("created", "updated", "removed") for r in results):
        print(f"Restart {_HOST_TITLES[host]} to load the change.")
    import importlib.util

    if not remove and importlib.util.find_spec("mcp") is None:
        typer.echo(
            "tota: note: the MCP server needs the MCP SDK, not installed here: "
            "pipx install --force 'tota_vault[mcp]' (or pip install 'tota_vault[mcp]')",
            err=True,
        )


@app.command()
def pause() -> None:
    """Pause learning: `tota extract` and `observe` store nothing until `tota resume`."""
    with _open(create=True) as vault:
        vault.pause()
        print("Learning paused.")


@app.command()
def resume() -> None:
    """Resume learning after `tota pause`."""
    with _open(create=True) as vault:
        vault.resume()
        print("Learning resumed.")


@app.command()
def recall(
    message: Annotated[
        str | None, typer.Argument(help="The message to recall memories for.")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", help="At most N memories.", min=1)] = 10,
    budget: Annotated[
        int | None, typer.Option(help="Cut the context block to about this many tokens.", min=1)
    ] = None,
    type: Annotated[str | None, typer.Option("--type", "-t", help="Only this type.")] = None,
    profile: Annotated[
        bool, typer.Option("--profile", help="The durable profile instead of a message's recall.")
    ] = False,
    output: Annotated[
        str, typer.Option("--format", help="markdown (a context block for a prompt) or json.")
    ] = "markdown",
    as_json: JsonOption = False,
) -> None:
    """Recall the memories most relevant to a message, ranked and explained."""
    if output not in ("markdown", "json"):
        raise typer.BadParameter(f"{output!r} is not markdown or json", param_hint="--format")
    if message is None and not profile:
        raise typer.BadParameter("give a MESSAGE, or --profile", param_hint="MESSAGE")
    if not profile:
        recall_message(message or "")
    with _open() as vault:
        if profile:
            results = vault.profile(limit=max(limit, 20))
        else:
            results = vault.recall(message or "", limit, type=type)
        heading = "Profile" if profile else "Memories"
        print_recall(
            vault, results, as_json=as_json or output == "json", budget=budget, heading=heading
        )


#: The one memory a command acts on, however the person names it (`Vault.resolve`).
MemoryRef = Annotated[
    str,
    typer.Argument(help="A memory id (or a short prefix of it), path, title or whole statement."),
]


@app.command()
def confirm(
    ref: MemoryRef,
) -> None:
    """Confirm a memory: its confidence rises and its decay clock restarts."""
    with _open() as vault:
        path = vault.confirm(ref)
        print(f"Confirmed {path}")


@app.command()
def forget(
    ref: MemoryRef,
    as_json: JsonOption = False,
) -> None:
    """Delete one memory (its note and index row); it is not learned again from the same message."""
    with _open() as vault:
        path = vault.forget(ref)
        if as_json:
            _print_json({"forgotten": path})
            return
        print(f"Forgot {path}")


@app.command()
def archive(
    ref: MemoryRef,
) -> None:
    """Archive one memory: kept on disk, skipped by recall; `tota confirm` reactivates it."""
    with _open() as vault:
        path = vault.archive(ref)
        print(f"Archived {path}")


@app.command()
def edit(
    ref: MemoryRef,
    as_json: JsonOption = False,
) -> None:
    """Open one memory in $VISUAL or $EDITOR (default vi); a change is recorded as a hand edit."""
    from . import manage

    with _open() as vault:
        report = manage.edit_in_editor(vault, ref)
        if as_json:
            _print_json(report.to_dict())
            return
        if report.editor_status:
            print(f"The editor exited with status {report.editor_status}.", file=sys.stderr)
        if not report.changed:
            print(f"Unchanged: {report.path}")
        elif report.error and report.error_before:
            print(f"Saved {report.path}; it is still not a valid memory: {report.error}")
        elif report.error:
            print(f"Saved {report.path}, but it is not a valid memory now: {report.error}")
        else:
            print(f"Saved {report.path} (evidence: {report.evidence})")


@app.command()
def decay(
    apply: Annotated[
        bool, typer.Option("--apply", help="Archive the stale memories (never deletes).")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """List memories whose confidence decayed under the floor; --apply archives them."""
    from .decay import ARCHIVE_FLOOR

    with _open() as vault:
        if as_json:
            # Written as it is read: 50k stale memories of a large vault are never held whole.
            with _JsonList({"applied": apply}, "stale") as out:
                vault.decay_each(lambda r: out.add(r.to_dict()), apply=apply)
            return
        verb = "Archived" if apply else "Stale (archive with --apply)"

        def heading(count: int) -> None:
            if not count:
                print(f"No memory has decayed under {ARCHIVE_FLOOR:.2f}.")
            else:
                print(f"{verb}: {count} memories under effective confidence {ARCHIVE_FLOOR:.2f}")

        def line(result: Recalled) -> None:
            print(f"  {result.effective_confidence:.2f}  {result.path}")

        vault.decay_each(line, apply=apply, count=heading)


@app.command()
def reflect(
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show what would be written; write nothing.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Consolidate related memories into reflection notes (run it again: nothing changes)."""
    with _open() as vault:
        report = vault.reflect(dry_run=dry_run)
        if as_json:
            _print_json(report.to_dict())
            return
        verb = "Would write" if dry_run else "Reflections"
        print(
            f"{verb}: {len(report.created)} new, {len(report.updated)} updated, "
            f"{len(report.unchanged)} unchanged, "
            f"{len(report.left_alone)} edited by hand (left alone)"
        )
        for path in report.created + report.updated:
            print(f"  {path}")


@app.command()
def memory() -> None:
    """Open the interactive memory manager (overview, recent, search, pause, clear all)."""
    # Textual draws on stderr: all three must be the terminal, or the screen goes to a file.
    if not (sys.stdin.isatty() and sys.stdout.isatty() and sys.stderr.isatty()):
        raise ValidationError(
            "tota memory needs a terminal; in scripts use tota overview, recent, search, "
            "pause, resume or clear --yes"
        )
    from .menu import run_menu

    root = _resolve()
    if not root.is_dir():
        _open(create=True).close()  # a new vault, once; otherwise the manager opens it later
    run_menu(root)


@app.command()
def overview(as_json: JsonOption = False) -> None:
    """Totals per type (active, and superseded or archived apart) and evidence kind, whether
    learning is paused, a short profile."""
    from . import manage

    with _open() as vault:
        data = manage.overview(vault)
        if as_json:
            _print_json(data)
            return
        statuses = manage.status_counts(data["by_status"])
        print(
            f"{data['memories']} memories in {data['vault']}: {statuses}; "
            f"learning is {data['learning']}"
        )
        for mtype, counted in manage.type_counts(data["by_type_status"]).items():
            print(f"  {mtype:13} {counted}")
        print(f"evidence (every memory): {manage.evidence_counts(data['by_evidence'])}")
        if data["invalid"]:
            print(f"invalid notes: {data['invalid']} (see tota doctor)")
        print(f"conversation turns: {manage.turn_counts(data)}; tota clear deletes them")
        if data["profile"]:
            print("profile:")
            for line in data["profile"]:
                print(f"  - {line}")


@app.command()
def recent(
    limit: Annotated[int, typer.Option("--limit", "-n", help="How many.", min=1)] = 10,
    as_json: JsonOption = False,
) -> None:
    """The memories changed most recently, with confidence and evidence kind."""
    from . import manage

    with _open() as vault:
        results = manage.recent(vault, limit=limit)
        if as_json:
            _print_json([r.to_dict() for r in results])
            return
        if not results:
            print("No memories yet.")
            return
        _console().print(recent_table(results, vault.short_ids(r.id for r in results)))


def recent_table(results: list[Any], short_ids: dict[str, str]) -> Any:
    """The recent memories as a rich table: short id, text, type, confidence, evidence, date."""
    from rich.table import Table
    from rich.text import Text

    table = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
    table.add_column("id", no_wrap=True)
    table.add_column("memory", overflow="fold")
    table.add_column("type")
    table.add_column("conf.", justify="right")
    table.add_column("evidence")
    table.add_column("updated")
    for result in results:
        conf = result.effective_confidence
        first = result.text.strip().split("\n", 1)[0]
        table.add_row(
            short_ids.get(result.id or "", "-"),
            Text(first if len(first) <= 120 else first[:119] + "…"),
            result.type or "-",
            "" if conf is None else f"{conf:.2f}",
            result.evidence or "-",
            (result.updated or "")[:10],
        )
    return table


@app.command()
def clear(
    yes: Annotated[
        bool, typer.Option("--yes", help="Confirm: delete every memory note, irreversibly.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Delete all memory notes (irreversible). Notes that are not memories stay."""
    from . import manage

    if not yes:
        raise ValidationError(
            "tota clear deletes every memory note and cannot be undone; run it with --yes"
        )
    with _open() as vault:
        report = manage.clear(vault)
        if as_json:
            _print_json(report.to_dict())
            return
        print(
            f"Deleted {len(report.deleted)} memories and {report.turns} conversation turns; "
            f"{report.kept} other notes kept."
        )
        if report.held:
            print(
                f"Kept {len(report.held)} held by an editor ({', '.join(report.held)}): close it "
                "in the editor and clear again."
            )
        if report.broken_copies:
            print(
                f"Deleted {len(report.broken_copies)} damaged index copies too "
                f"({', '.join(report.broken_copies)}): they held the memories' text."
            )


@app.command()
def watch(
    debounce: Annotated[
        float, typer.Option(help="Seconds of quiet after a file's last event before syncing it.")
    ] = 0.5,
    settle: Annotated[
        float, typer.Option(help="Seconds a hand-edited note must be quiet before tota patches it.")
    ] = 3.0,
    full_every: Annotated[
        float, typer.Option(help="Seconds between full reconciles (the cure for lost events).")
    ] = 300.0,
    polling: Annotated[
        bool, typer.Option("--polling", help="Poll instead of inotify (network folders).")
    ] = False,
    verbose: Annotated[
        int,
        typer.Option(
            "--verbose",
            "-v",
            count=True,
            help="Log every event of a note or folder; -vv also watchdog's own debug lines.",
        ),
    ] = 0,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Log only problems.")] = False,
) -> None:
    """Run the sync daemon: mirror every edit of the vault into the index until stopped."""
    import logging
    import signal

    from .watch import Daemon, WatchOptions

    level = logging.DEBUG if verbose else logging.WARNING if quiet else logging.INFO
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(message)s")
    # watchdog logs every raw inotify event at DEBUG (.git's objects too): hundreds of lines
    # at start in a small vault. Its warnings (a queue overflow) always come through.
    logging.getLogger("watchdog").setLevel(logging.DEBUG if verbose > 1 else logging.WARNING)
    options = WatchOptions(
        debounce=debounce, quiet=settle, full_every=full_every, polling=polling,
        max_wait=max(5.0, debounce * 4),
    )  # fmt: skip
    daemon = Daemon(_resolve(), options)
    if not daemon.root.is_dir():
        raise typer.BadParameter(f"{daemon.root}: no vault here; create one with `tota init`")

    def on_signal(signum: int, _frame: Any) -> None:
        daemon.stop(wake=False)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    daemon.run()


@app.command()
def status(as_json: JsonOption = False) -> None:
    """Say whether a daemon watches this vault, when it last synced, and what the index holds."""
    from .watch import daemon_status

    with _open() as vault:
        running = daemon_status(vault.root)
        data = vault.stats()
        data["daemon"] = running
        if as_json:
            _print_json(data)
            return
        if running:
            print(f"daemon: running (pid {running.get('pid')})")
        else:
            print("daemon: not running (start it with `tota watch`)")
        print(f"vault: {data['vault']}")
        print(f"last full sync: {data['last_sync'] or 'never'}")
        if data["last_update"]:
            print(f"last change synced: {data['last_update']}")
        from .manage import status_counts

        active = {t: c.get("active", 0) for t, c in data["by_type_status"].items()}
        by_type = ", ".join(f"{k} {v}" for k, v in active.items() if v) or "none"
        print(f"memories: {data['memories']}: {status_counts(data['by_status'])}")
        print(f"  active by type: {by_type}")
        print(f"notes: {data['notes']}, invalid: {data['invalid']}")
        for path, reason in vault.open_index().invalid():
            print(f"  invalid: {path}: {reason}")


@app.command()
def path(
    index: Annotated[bool, typer.Option("--index", help="Print the index file instead.")] = False,
) -> None:
    """Print where the vault (or its index) is."""
    from .paths import index_path

    root = _resolve()
    print(index_path(root) if index else root)


git_app = typer.Typer(
    cls=_TotaGroup,
    help="Sync the vault between devices with git: memory notes merge field by field.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(git_app, name="git")


@git_app.command("setup")
def git_setup() -> None:
    """Register the merge driver for memory notes in this clone (idempotent).

    Writes `*.md merge=tota` to the vault's .gitattributes and sets merge.tota.driver in the
    repository's config, naming this Python by its absolute path. Run it in every clone: git
    does not copy its config, and without it notes merge as text, with conflict markers.
    """
    from .gitdriver import setup_git

    root = _resolve()
    changed = setup_git(root)
    if not changed:
        print(f"The merge driver is already set up for {root}.")
        return
    print(f"Merge driver set up for {root}:")
    for item in changed:
        print(f"  {item}")
    if ".gitattributes" in changed:
        print("Commit .gitattributes so every clone merges notes the same way.")


@git_app.command("resolve")
def git_resolve() -> None:
    """Keep both notes of an add/add conflict: two different memories added at one path.

    The merge driver leaves such a file with both notes whole between conflict markers; this
    writes the first back to its path and the second to `<title> 2.md`, and stages both.
    Conflicts of any other shape are left to you: each file still in conflict is named, and
    the exit code is 1 until none is left and `git commit` can finish the merge.
    """
    from .gitdriver import resolve_both_kept, unmerged_paths

    root = _resolve()
    done = resolve_both_kept(root)
    if not done:
        print("No add/add conflict of two memories to resolve.")
    for first, second in done:
        print(f"kept both: {first} and {second}")
    left = unmerged_paths(root)
    if not left:
        if done:
            print("Commit to finish the merge.")
        return
    files = "file is" if len(left) == 1 else "files are"
    print(
        f"{len(left)} {files} still in conflict, for you to resolve "
        "(edit out the markers, then `git add` each):"
    )
    for path in left:
        print(f"  {path}")
    raise typer.Exit(1)


MCP_SDK_MISSING = (
    "tota mcp needs the MCP SDK: pipx install 'tota_vault[mcp]' (or pip install 'tota_vault[mcp]')"
)


@app.command()
def mcp(
    http: Annotated[
        bool, typer.Option("--http", help="Serve streamable HTTP on 127.0.0.1 instead of stdio.")
    ] = False,
    port: Annotated[
        int | None,
        typer.Option(help="The HTTP port, with --http (default 8765).", min=1, max=65535),
    ] = None,
) -> None:
    """Run the MCP server that gives an assistant its memory (stdio; see docs/mcp.md)."""
    if port is not None and not http:
        raise typer.BadParameter("--port is for --http", param_hint="--port")
    try:
        # Imported here: the SDK takes most of a second to import, and only this command needs it.
        from .mcp_server import DEFAULT_PORT, serve
    except ImportError as exc:
        if (exc.name or "").split(".")[0] != "mcp":
            raise
        typer.echo(MCP_SDK_MISSING, err=True)
        raise typer.Exit(1) from None
    _open(create=True).close()  # a bad vault path is one line here, not a server that dies
    serve(_resolve(), http=http, port=port or DEFAULT_PORT)


@app.command()
def hook(
    event: Annotated[str, typer.Argument(help="prompt, stop or session-start.")],
    budget: Annotated[
        int | None,
        typer.Option(
            help="Cut the added context to about this many tokens "
            "(default: 600 for prompt, 800 for session-start).",
            min=1,
        ),
    ] = None,
    limit: Annotated[
        int, typer.Option("--limit", "-n", help="prompt: at most N memories.", min=1)
    ] = 8,
    inline: Annotated[
        bool, typer.Option("--inline", hidden=True, help="stop: learn now, never detach.")
    ] = False,
) -> None:
    """Run a Claude Code hook: read the hook's JSON on stdin, print its JSON answer.

    prompt (UserPromptSubmit) prints the memories recalled for the person's message,
    session-start (SessionStart) their profile, as hookSpecificOutput.additionalContext;
    stop (Stop) learns the person's new messages from the session transcript and prints
    nothing. A hook never blocks the host: any failure exits 0 with one line on stderr.
    See docs/hooks.md.
    """
    run_hook_command(_state["vault"], event, budget=budget, limit=limit, inline=inline)


def cli_reference(width: int = 88) -> str:
    """The command-line reference in Markdown, made from the commands' own help.

    `docs/cli.md` is this text (a test keeps it so); regenerate it with
    `python -m tota_vault.cli --reference > docs/cli.md`.
    """
    from typer.main import get_command

    group = get_command(app)
    ctx = group.make_context("tota", [], resilient_parsing=True)
    ctx.terminal_width = ctx.max_content_width = width
    parts = [
        "# Command line reference",
        "",
        "Generated from the commands' own `--help` by `tota_vault.cli.cli_reference()`; "
        "`tests/test_docs.py` fails when it is out of date.",
        "",
        "## tota",
        "",
        "```text",
        group.get_help(ctx).rstrip(),
        "```",
    ]

    def document(command: Any, name: str, parent: Any, prefix: str) -> None:
        sub = command.make_context(name, [], parent=parent, resilient_parsing=True)
        sub.terminal_width = sub.max_content_width = width
        title = f"{prefix} {name}"
        parts.extend(["", f"## {title}", "", "```text", command.get_help(sub).rstrip(), "```"])
        # A group's own subcommands (`tota git setup`) get sections of their own.
        for child in getattr(command, "list_commands", lambda _ctx: [])(sub):
            document(command.get_command(sub, child), child, sub, title)

    for name in group.list_commands(ctx):  # type: ignore[attr-defined]
        document(group.get_command(ctx, name), name, ctx, "tota")  # type: ignore[attr-defined]
    return "\n".join(parts) + "\n"


def main() -> None:
    """Entry point of the `tota` console script."""
    if sys.argv[1:] == ["--reference"]:  # python -m tota_vault.cli --reference > docs/cli.md
        sys.stdout.write(cli_reference())
        return
    try:
        fast = _hook_argv(sys.argv[1:])
    except _HookUsageError as exc:
        sys.stderr.write(f"tota hook: {exc}\n")
        return  # exit 0: the host carries on
    if fast is not None:
        run_hook_command(fast.pop("vault"), **fast)
        return
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("tota: interrupted\n")
        sys.exit(130)


if __name__ == "__main__":
    main()
