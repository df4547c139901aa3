"""The `tota` console script's entry point: the hot commands without typer, the rest to typer.

Part of the command line (with cli.py): `tota search` and `tota recall` run as processes from
editors, scripts and assistants, and `tota hook prompt` on every prompt a person sends.
typer's import and its argument parsing (it builds a pydantic adapter for every parameter)
cost several times the search itself (docs/benchmarks.md, `bench.startup`), so these commands
are parsed here by hand, in exactly the forms their typer commands accept. Anything else,
`--help` anywhere, and any form this parser does not know (a usage error included) goes to
typer unchanged, so help texts, usage errors and exit codes stay typer's.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import TotaError

if TYPE_CHECKING:
    from .index import Hit
    from .recall import Recalled
    from .vault import Vault

__all__ = [
    "main",
    "parse_argv",
    "print_recall",
    "print_search",
    "recall_argv",
    "recall_message",
    "run_hook_command",
    "search_argv",
    "search_query",
]


@dataclass(frozen=True)
class _Spec:
    """One command's arguments as its typer command declares them: the one positional
    argument, the options that take a whole number of at least 1 or a word, and the flags."""

    name: str
    positional: str
    numbers: Mapping[str, str]
    words: Mapping[str, str]
    flags: Mapping[str, str]
    defaults: Mapping[str, Any]


#: `tota search QUERY [--type T] [--limit N] [--raw] [--json]` (cli.search).
SEARCH = _Spec(
    "search", "query", {"--limit": "limit", "-n": "limit"}, {"--type": "type", "-t": "type"},
    {"--raw": "raw", "--json": "as_json"},
    {"query": None, "type": None, "limit": 10, "raw": False, "as_json": False},
)  # fmt: skip
#: `tota recall MESSAGE [--limit N] [--budget N] [--type T] [--format F] [--json]` (cli.recall;
#: `--profile` and any form typer must judge, such as a missing MESSAGE, go to typer).
RECALL = _Spec(
    "recall", "message", {"--limit": "limit", "-n": "limit", "--budget": "budget"},
    {"--type": "type", "-t": "type", "--format": "output"}, {"--json": "as_json"},
    {"message": None, "limit": 10, "budget": None, "type": None, "output": "markdown",
     "as_json": False},
)  # fmt: skip


def _vault_prefix(argv: list[str]) -> tuple[str | None, list[str]] | None:
    """`--vault PATH` or `--vault=PATH` before the command, split off; None when malformed."""
    if argv[:1] == ["--vault"]:
        if len(argv) < 2 or not argv[1] or argv[1].startswith("-"):
            return None
        return argv[1], argv[2:]
    if argv[:1] and argv[0].startswith("--vault="):
        value = argv[0].split("=", 1)[1]
        return (value, argv[1:]) if value else None
    return None, argv


def parse_argv(argv: list[str], spec: _Spec) -> dict[str, Any] | None:
    """`[--vault PATH] <command> ...` as the command's arguments by `spec`, or None for any
    other command line (typer then parses it, and says what is wrong)."""
    split = _vault_prefix(argv)
    if split is None:
        return None
    vault, rest = split
    if rest[:1] != [spec.name]:
        return None
    args: dict[str, Any] = {"vault": vault, **spec.defaults}
    options = rest[1:]
    while options:
        item = options.pop(0)
        if item in spec.flags:
            args[spec.flags[item]] = True
            continue
        name, equals, value = item.partition("=")
        takes_value = {**spec.numbers, **spec.words}
        if name in takes_value and (not equals or name.startswith("--")):
            if not equals:
                if not options:
                    return None
                value = options.pop(0)
            if name in spec.numbers:
                if not value.isdigit() or int(value) < 1:
                    return None  # typer's own message for a bad number
                args[spec.numbers[name]] = int(value)
            else:
                args[spec.words[name]] = value
            continue
        if item.startswith("-") or args[spec.positional] is not None:
            return None  # help, an option this parser does not know, or a second word
        args[spec.positional] = item
    return args if args[spec.positional] is not None else None


def search_argv(argv: list[str]) -> dict[str, Any] | None:
    """`tota search`'s arguments (`SEARCH`), or None for typer to parse."""
    return parse_argv(argv, SEARCH)


def recall_argv(argv: list[str]) -> dict[str, Any] | None:
    """`tota recall MESSAGE`'s arguments (`RECALL`), or None for typer to parse (a format
    other than markdown or json is typer's usage error)."""
    args = parse_argv(argv, RECALL)
    if args is None or args["output"] not in ("markdown", "json"):
        return None
    return args


def print_search(vault: Vault, query: str, hits: list[Hit], as_json: bool) -> None:
    """Print `tota search`'s answer: JSON, a line when nothing matched, or a table (a
    memory that is not active has its status under its type)."""
    if as_json:
        out = [hit.to_dict() for hit in hits]
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2, default=str) + "\n")
        return
    if not hits:
        print(f"No notes match {query!r}.")
        return
    import shutil

    from .cli_table import Column, Line, colour_for, draw

    short = vault.short_ids(hit.memory_id for hit in hits)
    columns = (Column("type", wraps=True), Column("memory", wraps=True, folds=True),
               Column("conf.", justify="right"), Column("evidence"))  # fmt: skip
    rows: list[list[list[Line]]] = []
    for hit in hits:
        row = hit.row
        snippet: Line = [
            (piece.replace("\n", " "), "reverse" if matched else "")
            for piece, matched in hit.snippet_parts()
        ]
        named = f"{short[row.memory_id]}  " if row.memory_id in short else ""
        memory = [[(row.title, "bold")], snippet, [(f"{named}{row.path}", "dim")]]
        if row.error:
            memory.append([(f"invalid: {row.error}", "red")])
        conf = "" if row.confidence is None else f"{row.confidence:.2f}"
        kind: list[Line] = [[(row.type or "-", "")]]
        if row.status not in (None, "active"):
            # Search finds what recall skips: a superseded or archived memory says so.
            kind.append([(row.status, "dim")])
        rows.append([kind, memory, [[(conf, "")]], [[(row.evidence or "-", "")]]])
    # COLUMNS, then the terminal's own width; 80 when the output is a pipe or a file.
    width = shutil.get_terminal_size().columns
    _write(draw(columns, rows, width=width, colour=colour_for(sys.stdout)))


def _write(text: str) -> None:
    """`text` on stdout; characters its encoding cannot hold (a legacy Windows code page)
    are replaced there rather than failing the command."""
    try:
        sys.stdout.write(text)
    except UnicodeEncodeError:
        sys.stdout.flush()
        encoding = sys.stdout.encoding or "utf-8"
        sys.stdout.buffer.write(text.encode(encoding, errors="replace"))
        sys.stdout.flush()


def _error(message: str) -> None:
    sys.stderr.write(f"tota: {message}\n")


def print_recall(
    vault: Vault, results: list[Recalled], *, as_json: bool, budget: int | None, heading: str
) -> None:
    """Print `tota recall`'s answer: JSON in rank order, or the context block; when the
    budget leaves out every match, how many there were and the budget the first needs."""
    if as_json:
        # `rank` says the order in so many words: a result's `score` is its own ranking's
        # (memories and turns are ranked apart, then fused), not its place in this list.
        out = [{"rank": i, **r.to_dict()} for i, r in enumerate(results, 1)]
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2, default=str) + "\n")
        return
    from .recall import context_block

    ids = vault.short_ids(r.id for r in results)
    block = context_block(results, budget=budget, heading=heading, ids=ids)
    if block or not results:
        sys.stdout.write(block or "No memories match.\n")
        return
    # Something matched, and the budget cut it all: say so, not "no match".
    needed = smallest_budget(
        lambda b: bool(context_block(results[:1], budget=b, heading=heading, ids=ids))
    )
    found = f"{len(results)} {'match' if len(results) == 1 else 'matches'}"
    sys.stdout.write(
        f"Found {found}, but a budget of {budget} tokens holds none: the first needs {needed} "
        f"(--budget {needed} or more).\n"
    )


def smallest_budget(fits: Callable[[int], bool], start: int = 1) -> int:
    """The smallest whole budget `fits` accepts, `fits` being monotone (a larger budget fits
    whatever a smaller one does): doubled until it fits, then halved back. Pure but for
    `fits`."""
    high = max(1, start)
    while not fits(high):
        high *= 2
    low = high // 2  # does not fit (or 0)
    while high - low > 1:
        middle = (low + high) // 2
        if fits(middle):
            high = middle
        else:
            low = middle
    return high


def search_query(query: str) -> str:
    """The words `tota search` looks for; none (or only spaces) is a usage error (exit 2), as
    `recall_message` makes an empty message one, and as README says."""
    if not query.strip():
        from .errors import ValidationError

        raise ValidationError("search needs words to find: an empty text matches nothing")
    return query


def _search(vault: Vault, args: dict[str, Any]) -> None:
    search_query(args["query"])
    hits = vault.search(args["query"], type=args["type"], limit=args["limit"], raw=args["raw"])
    print_search(vault, args["query"], hits, args["as_json"])


def recall_message(message: str) -> str:
    """The message `tota recall` recalls for; an empty one (or only spaces) is a usage error
    (exit 2), as README says, not "No memories match"."""
    if not message.strip():
        from .errors import ValidationError

        raise ValidationError(
            "recall needs a message: an empty text recalls nothing (--profile prints the profile)"
        )
    return message


def _recall(vault: Vault, args: dict[str, Any]) -> None:
    recall_message(args["message"])
    results = vault.recall(args["message"], args["limit"], type=args["type"])
    as_json = args["as_json"] or args["output"] == "json"
    print_recall(vault, results, as_json=as_json, budget=args["budget"], heading="Memories")


def _run(command: Callable[[Vault, dict[str, Any]], None], args: dict[str, Any]) -> int:
    """Run a command on the vault as typer's commands run, with the same one-line errors and
    exit codes (cli._TotaGroup.invoke)."""
    from .vault import Vault

    vault: Vault | None = None
    try:
        # What tota repaired by itself (from the opening on): one line on stderr.
        vault = Vault.open(args["vault"], create=False, on_notice=_error)
        with vault:
            command(vault, args)
    except TotaError as exc:
        _error(f"error: {exc}")
        return exc.exit_code
    except sqlite3.DatabaseError as exc:
        if vault is not None and vault.repair_index(exc):
            vault.close()
            _error("error: the index was damaged; run the command again")
        else:
            _error(
                f"error: the index failed ({exc}); run `tota reindex` to rebuild it from the notes"
            )
        return 1
    except BrokenPipeError:
        return quiet_broken_pipe()
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        _error(f"error: {where}{exc.strerror or exc}")
        return 1
    return 0


#: The exit code of a process the reader of its output went away from (`tota recent | head
#: -1`): 128 + SIGPIPE, what a shell reports for `cat` or `git log` in the same pipe.
BROKEN_PIPE_EXIT = 141


def quiet_broken_pipe() -> int:
    """The reader of stdout closed it: say nothing (there is no one to tell) and point stdout
    at /dev/null, so the interpreter's flush at exit does not fail a second time."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return BROKEN_PIPE_EXIT


class _HookUsageError(ValueError):
    """A `tota hook` command line that cannot be run: said in one line, exit 0 (a hook that
    exits 2 blocks the person's turn in Claude Code)."""


def _hook_argv(argv: list[str]) -> dict[str, Any] | None:
    """`[--vault PATH] hook EVENT [--budget N] [--limit N] [--inline]` as `hook`'s arguments,
    or None for anything that is not a hook (or asks for help), which typer then parses.

    Claude Code runs a hook on every prompt: going around typer's parser saves a third of
    the process's time (docs/hooks.md). The forms are exactly those of `hook`'s options; any
    other form of a hook raises `_HookUsageError` instead of reaching typer, whose usage
    error would exit 2.
    """
    args: dict[str, Any] = {"vault": None}  # None: resolve_vault_path reads TOTA_VAULT
    rest = list(argv)
    if rest[:1] == ["--vault"] and len(rest) >= 2:
        args["vault"], rest = rest[1], rest[2:]
    elif rest[:1] and rest[0].startswith("--vault="):
        args["vault"], rest = rest[0].split("=", 1)[1], rest[1:]
    if rest[:1] != ["hook"] or any(a in ("-h", "--help") for a in rest):
        return None
    if len(rest) < 2 or rest[1].startswith("-"):
        raise _HookUsageError("no hook event given (prompt, stop or session-start)")
    args.update(event=rest[1], budget=None, limit=8, inline=False)
    options = rest[2:]
    while options:
        name = options.pop(0)
        if name == "--inline":
            args["inline"] = True
            continue
        name, _, value = name.partition("=")
        key = {"--budget": "budget", "--limit": "limit", "-n": "limit"}.get(name)
        if key is None:
            raise _HookUsageError(f"unknown option {name!r} (--budget N, --limit N, --inline)")
        if not value:
            if not options:
                raise _HookUsageError(f"{name} needs a number")
            value = options.pop(0)
        if not value.isdigit() or int(value) < 1:
            raise _HookUsageError(f"{name} {value!r} is not a whole number of at least 1")
        args[key] = int(value)
    return args


def run_hook_command(
    vault: str | None, event: str, *, budget: int | None, limit: int, inline: bool
) -> None:
    """`tota hook EVENT`: read the hook's JSON on stdin, print its answer (see cli.hook)."""
    from .hooks import run_hook

    # Bytes, decoded leniently: garbage on stdin is the hook's one-line error, not a traceback.
    # An unknown EVENT is too (run_hook says so): exit 2 would block the person's prompt.
    try:
        data = b"" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.buffer.read()
    except (OSError, ValueError):
        data = b""
    text = data.decode("utf-8", errors="replace")
    result = run_hook(event, text, vault=vault, budget=budget, limit=limit, inline=inline)
    if result.stdout:
        sys.stdout.write(result.stdout)
        sys.stdout.flush()
    if result.stderr:
        sys.stderr.write(result.stderr + "\n")


def main() -> None:
    """Entry point of the `tota` console script."""
    argv = sys.argv[1:]
    try:
        hook = _hook_argv(argv)
    except _HookUsageError as exc:
        sys.stderr.write(f"tota hook: {exc}\n")
        return  # exit 0: the host carries on
    if hook is not None:
        run_hook_command(hook.pop("vault"), **hook)
        return
    search, recall = search_argv(argv), recall_argv(argv)
    if search is None and recall is None:
        from .cli import main as typer_main

        typer_main()
        return
    try:
        code = _run(_search, search) if search is not None else _run(_recall, recall or {})
    except KeyboardInterrupt:
        sys.stderr.write("tota: interrupted\n")
        code = 130
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        code = quiet_broken_pipe()
    if code:
        sys.exit(code)
