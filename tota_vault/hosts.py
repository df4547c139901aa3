"""Connect tota to an assistant: write its MCP server (and Claude Code's hooks) into the host's
own config file, keeping everything else in that file.

    tota setup claude-code | claude-desktop | cursor | vscode [--scope user|project]

Where each host reads its config (`config_edits`; `Environment` says where home is):

- claude-code, user: the MCP server in `~/.claude.json` (top-level `mcpServers`, as
  `claude mcp add --scope user` writes it), the hooks in `~/.claude/settings.json`; with
  `$CLAUDE_CONFIG_DIR` set, `.claude.json` and `settings.json` inside that folder.
- claude-code, project: `./.mcp.json` (`mcpServers`) and `./.claude/settings.json` (`hooks`).
- claude-desktop (user only): `claude_desktop_config.json` (`mcpServers`) in
  `~/Library/Application Support/Claude/` (macOS), `%APPDATA%\\Claude\\` (Windows), or
  `$XDG_CONFIG_HOME/Claude/`, by default `~/.config/Claude/` (Linux).
- cursor: `~/.cursor/mcp.json` (user) or `./.cursor/mcp.json` (project), `mcpServers`.
- vscode: `./.vscode/mcp.json` (project) or the default profile's `mcp.json` (user) in
  `~/Library/Application Support/Code/User/` (macOS), `%APPDATA%\\Code\\User\\` (Windows),
  `~/.config/Code/User/` (Linux, or under `$XDG_CONFIG_HOME`); top-level `servers`. Other
  VS Code profiles keep their own `mcp.json` under `User/profiles/`: not written.

The server entry is `{"command": "<absolute tota>", "args": ["mcp"]}`, with `"type": "stdio"`
where the host's schema names it (Claude Code, VS Code) and `"env": {"TOTA_VAULT": ...}` when
the vault is not the default one. The hooks are `UserPromptSubmit -> tota hook prompt`,
`Stop -> tota hook stop`, `SessionStart -> tota hook session-start`, each
`{"type": "command", "command": "...", "timeout": 10}` in a group of its own, beside the
person's hooks.

The command is absolute because a host starts it without the person's shell and PATH (a venv's
`bin/` is not on it): `tota_command` takes the `tota` script that is running (`sys.argv[0]`),
else the one beside this Python (`sysconfig`'s scripts folder), else the one on PATH, else
`python -m tota_vault` with this Python's absolute path.

The rules a config file is changed by (`setup_host`):

- Only tota's own things change: the `tota` server entry (by name; keys a person added to it
  are kept) and the hook handlers that run `tota hook ...` (by their command). Every other key,
  server and hook stays, in its order.
- Idempotent: a second run finds nothing to change and writes nothing (no backup either).
- A file tota changes is first copied to `<file>.tota-backup-<YYYYmmddTHHMMSS>`; the new file
  is written atomically and only if the file did not change since tota read it; a symlinked
  config is written through to its target. The file's indentation and final newline are kept.
- A file that is not plain JSON (comments, trailing commas, duplicate keys) is refused with a
  one-line error naming it, before any file is written: rewriting it would drop what the
  person wrote. VS Code accepts comments in its `mcp.json`; for such a file `--print` shows the
  entry to add by hand.
- `remove=True` takes out only what tota added, and drops a section it leaves empty.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from .errors import ConfigFileError, NoteError, ValidationError
from .files import Fingerprint, atomic_write, read_file

__all__ = [
    "HOOK_EVENTS",
    "HOSTS",
    "SCOPES",
    "SERVER_NAME",
    "ConfigEdit",
    "Environment",
    "SetupResult",
    "config_edits",
    "edit_config",
    "parse_config",
    "render_config",
    "setup_host",
    "tota_command",
]

#: The hosts `tota setup` knows.
HOSTS = ("claude-code", "claude-desktop", "cursor", "vscode")
#: `user`: every project of this person; `project`: the current folder only.
SCOPES = ("user", "project")
#: The name of tota's entry among a host's MCP servers (Claude Code shows `mcp__tota__recall`).
SERVER_NAME = "tota"
#: Claude Code hook events -> the `tota hook` subcommand each runs.
HOOK_EVENTS = {"UserPromptSubmit": "prompt", "Stop": "stop", "SessionStart": "session-start"}
#: Seconds Claude Code waits for a hook (its default is 60: ours must never hold a turn long).
HOOK_TIMEOUT = 10
#: How a backup is named: `<file>.tota-backup-<stamp>`.
BACKUP_SUFFIX = ".tota-backup-"


@dataclass(frozen=True)
class Environment:
    """Where this machine keeps things: the inputs of the path rules, so tests can pass theirs."""

    home: Path
    cwd: Path
    platform: str = sys.platform
    env: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def current(cls) -> Environment:
        """The running process's home, folder, platform and environment variables."""
        return cls(Path.home(), Path.cwd(), sys.platform, dict(os.environ))

    def _dir(self, variable: str, *fallback: str) -> Path:
        value = self.env.get(variable)
        return Path(value).expanduser() if value else self.home.joinpath(*fallback)

    def app_config_dir(self, app: str) -> Path:
        """A desktop app's config folder: `~/Library/Application Support/<app>` on macOS,
        `%APPDATA%\\<app>` on Windows, `$XDG_CONFIG_HOME/<app>` (`~/.config/<app>`) elsewhere."""
        if self.platform == "darwin":
            return self.home / "Library" / "Application Support" / app
        if self.platform == "win32":
            return self._dir("APPDATA", "AppData", "Roaming") / app
        return self._dir("XDG_CONFIG_HOME", ".config") / app

    def claude_dir(self) -> Path:
        """Claude Code's user folder: `$CLAUDE_CONFIG_DIR`, or `~/.claude`."""
        return self._dir("CLAUDE_CONFIG_DIR", ".claude")

    def claude_json(self) -> Path:
        """Claude Code's user state file (user-scope MCP servers): `~/.claude.json`, or
        `.claude.json` inside `$CLAUDE_CONFIG_DIR` when that is set."""
        if self.env.get("CLAUDE_CONFIG_DIR"):
            return self.claude_dir() / ".claude.json"
        return self.home / ".claude.json"


@dataclass(frozen=True)
class ConfigEdit:
    """What tota puts in one config file: its MCP server entry, or its Claude Code hooks.

    `section` is the top-level key it lives under (`mcpServers`, `servers` or `hooks`);
    `entry` is the server entry, or for hooks the handlers by event.
    """

    path: Path
    section: str
    entry: dict[str, Any]

    @property
    def what(self) -> str:
        """`MCP server` or `hooks`, for messages."""
        return "hooks" if self.section == "hooks" else "MCP server"

    def snippet(self) -> dict[str, Any]:
        """The JSON tota adds to the file, as a person would paste it by hand."""
        if self.section == "hooks":
            return {"hooks": {event: [{"hooks": [h]}] for event, h in self.entry.items()}}
        return {self.section: {SERVER_NAME: self.entry}}


@dataclass(frozen=True)
class SetupResult:
    """What `setup_host` did to one file.

    `action`: `created` (a new file), `updated`, `removed` (tota's part taken out),
    `unchanged` (already as wanted: nothing written), or `absent` (nothing of tota's to remove).
    """

    path: Path
    what: str
    action: str
    backup: Path | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (`tota setup --json`)."""
        return {
            "path": str(self.path),
            "what": self.what,
            "action": self.action,
            "backup": str(self.backup) if self.backup else None,
        }


# --- the command and the entries -------------------------------------------------------------


def tota_command(argv0: str | None = None) -> list[str]:
    """The absolute command that starts this tota, as a host must run it (see the module doc).

    `argv0` defaults to `sys.argv[0]`: when that is the `tota` script itself, it is the one the
    person just ran (a pipx shim or a venv's `bin/tota`), kept as given, not resolved through
    symlinks, so it survives a `pipx upgrade`.
    """
    argv0 = sys.argv[0] if argv0 is None else argv0
    script_names = ("tota.exe", "tota") if os.name == "nt" else ("tota",)
    if argv0 and Path(argv0).name.lower() in script_names and Path(argv0).is_file():
        return [os.path.abspath(argv0)]
    scripts = Path(sysconfig.get_path("scripts"))
    for name in script_names:
        if (scripts / name).is_file():
            return [str(scripts / name)]
    found = shutil.which("tota")
    if found:
        return [os.path.abspath(found)]
    return [os.path.abspath(sys.executable), "-m", "tota_vault"]


def _command_line(argv: list[str], platform: str) -> str:
    """One shell command line (Claude Code runs a hook's `command` through a shell)."""
    if platform == "win32":
        return subprocess.list2cmdline(argv)
    return shlex.join(argv)


def config_edits(
    host: str,
    scope: str = "user",
    *,
    command: list[str],
    vault: Path | None = None,
    environment: Environment,
) -> list[ConfigEdit]:
    """The files `host` reads at `scope`, and what tota puts in each (a pure function).

    `command` is `tota_command()`'s; `vault`, when given, is passed to the server as
    `TOTA_VAULT` and to the hooks as `--vault`, since a host does not see the person's
    environment. Raises `ValidationError` for an unknown host or scope, or a scope the host
    does not have.
    """
    if host not in HOSTS:
        raise ValidationError(f"unknown host {host!r} (expected one of: {', '.join(HOSTS)})")
    if scope not in SCOPES:
        raise ValidationError(f"unknown scope {scope!r} (expected user or project)")
    server: dict[str, Any] = {"command": command[0], "args": [*command[1:], "mcp"]}
    if host in ("claude-code", "vscode"):
        server = {"type": "stdio", **server}
    if vault is not None:
        server["env"] = {"TOTA_VAULT": str(vault)}
    env, cwd = environment, environment.cwd
    if host == "claude-code":
        vault_args = ["--vault", str(vault)] if vault is not None else []
        hooks = {
            event: {
                "type": "command",
                "command": _command_line([*command, *vault_args, "hook", sub], env.platform),
                "timeout": HOOK_TIMEOUT,
            }
            for event, sub in HOOK_EVENTS.items()
        }
        if scope == "user":
            mcp_path, settings = env.claude_json(), env.claude_dir() / "settings.json"
        else:
            mcp_path, settings = cwd / ".mcp.json", cwd / ".claude" / "settings.json"
        return [ConfigEdit(mcp_path, "mcpServers", server), ConfigEdit(settings, "hooks", hooks)]
    if host == "claude-desktop":
        if scope != "user":
            raise ValidationError("claude-desktop has no project scope (use --scope user)")
        path = env.app_config_dir("Claude") / "claude_desktop_config.json"
        return [ConfigEdit(path, "mcpServers", server)]
    if host == "cursor":
        folder = env.home if scope == "user" else cwd
        return [ConfigEdit(folder / ".cursor" / "mcp.json", "mcpServers", server)]
    if scope == "user":
        path = env.app_config_dir("Code") / "User" / "mcp.json"
    else:
        path = cwd / ".vscode" / "mcp.json"
    return [ConfigEdit(path, "servers", server)]


# --- reading and writing JSON ----------------------------------------------------------------


def parse_config(text: str, path: Path | str) -> dict[str, Any]:
    """A config file's JSON object; an empty file is `{}`.

    Raises `ConfigFileError` naming the file when the text is not one plain JSON object:
    not JSON, JSON with comments or trailing commas (JSONC), duplicate keys, or not an object.
    """

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise ConfigFileError(
                    f"{path}: the key {key!r} appears twice; tota leaves this file alone "
                    "(rewriting it would drop one)"
                )
            result[key] = value
        return result

    if not text.strip():
        return {}
    try:
        data = json.loads(text, object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        if text[exc.pos : exc.pos + 2] in ("//", "/*"):
            raise ConfigFileError(
                f"{path}: has a comment ({where}); tota does not rewrite a file with comments, "
                "they would be lost: add the entry by hand (see --print)"
            ) from None
        if text[exc.pos : exc.pos + 1] in ("}", "]") and text[: exc.pos].rstrip().endswith(","):
            raise ConfigFileError(
                f"{path}: has a trailing comma ({where}); tota does not rewrite JSON with "
                "comments or trailing commas: add the entry by hand (see --print)"
            ) from None
        raise ConfigFileError(f"{path}: not valid JSON ({where}: {exc.msg}); not changed") from None
    except RecursionError:
        raise ConfigFileError(f"{path}: not valid JSON (nested too deeply); not changed") from None
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else "a single value"
        raise ConfigFileError(f"{path}: expected a JSON object, got {kind}; not changed")
    return data


def render_config(config: dict[str, Any], original: str | None = None) -> str:
    """JSON text for `config`, indented like `original` (two spaces by default), with the
    final newline `original` had (a new file gets one). Non-ASCII stays as it is."""
    indent: str | int = 2
    newline = True
    if original is not None and original.strip():
        newline = original.endswith("\n")
        for line in original.splitlines()[1:]:
            stripped = line.lstrip(" \t")
            if stripped and stripped != line:
                indent = line[: len(line) - len(stripped)]
                break
    text = json.dumps(config, indent=indent, ensure_ascii=False)
    return text + "\n" if newline else text


# --- the edits, as pure functions over the parsed JSON ---------------------------------------


def edit_config(
    config: dict[str, Any], edit: ConfigEdit, *, remove: bool = False
) -> dict[str, Any]:
    """The config with tota's part added (or taken out): a new dict, `config` is not changed.

    Raises `ConfigFileError` when the section tota writes into has the wrong type (a
    `mcpServers` that is a list, say): tota would have to replace what the person wrote.
    """
    new = copy.deepcopy(config)
    section = new.get(edit.section)
    if section is not None and not isinstance(section, dict):
        raise ConfigFileError(
            f"{edit.path}: {edit.section!r} is not an object; tota leaves this file alone"
        )
    if edit.section == "hooks":
        hooks = _edit_hooks(dict(section or {}), edit, remove=remove)
    else:
        hooks = _edit_servers(dict(section or {}), edit.entry, remove=remove)
    if hooks:
        new[edit.section] = hooks
    elif edit.section in new and section:
        del new[edit.section]  # a section tota emptied: no empty `{}` left behind
    return new


def _edit_servers(
    servers: dict[str, Any], entry: dict[str, Any], *, remove: bool
) -> dict[str, Any]:
    if remove:
        servers.pop(SERVER_NAME, None)
        return servers
    current = servers.get(SERVER_NAME)
    if not isinstance(current, dict):
        servers[SERVER_NAME] = entry
        return servers
    # Keep what a person added to tota's entry (other env variables, a `disabled` flag).
    merged = {**current, **{k: v for k, v in entry.items() if k != "env"}}
    env = dict(current.get("env") or {}) if isinstance(current.get("env"), dict) else {}
    env.pop("TOTA_VAULT", None)
    env.update(entry.get("env", {}))
    if env:
        merged["env"] = env
    else:
        merged.pop("env", None)
    servers[SERVER_NAME] = merged
    return servers


def _is_tota_hook(handler: Any, sub: str) -> bool:
    """Whether a hook handler runs `tota ... hook <sub>` (any tota path, any options)."""
    if not isinstance(handler, dict) or not isinstance(handler.get("command"), str):
        return False
    try:  # not POSIX rules: they would eat a Windows path's backslashes
        argv = [word.strip("\"'") for word in shlex.split(handler["command"], posix=False)]
    except ValueError:
        return False
    if len(argv) < 3 or argv[-2:] != ["hook", sub]:
        return False
    program = re.split(r"[\\/]", argv[0])[-1].lower()
    return program in ("tota", "tota.exe") or argv[1:3] == ["-m", "tota_vault"]


def _edit_hooks(hooks: dict[str, Any], edit: ConfigEdit, *, remove: bool) -> dict[str, Any]:
    for event, handler in edit.entry.items():
        sub = HOOK_EVENTS[event]
        groups = hooks.get(event)
        if groups is None:
            groups = []
        elif not isinstance(groups, list):
            raise ConfigFileError(
                f"{edit.path}: hooks.{event} is not a list; tota leaves this file alone"
            )
        placed = False
        kept_groups = []
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(inner, list) or not any(_is_tota_hook(h, sub) for h in inner):
                kept_groups.append(group)
                continue
            kept = []
            for item in inner:
                if not _is_tota_hook(item, sub):
                    kept.append(item)
                elif not remove and not placed:
                    kept.append(handler)  # ours, brought up to date where it stands
                    placed = True
            if kept:
                kept_groups.append({**group, "hooks": kept})
        if not remove and not placed:
            kept_groups.append({"hooks": [handler]})
        if kept_groups:
            hooks[event] = kept_groups
        else:
            hooks.pop(event, None)
    return hooks


# --- the file writer -------------------------------------------------------------------------


@dataclass
class _Plan:
    edit: ConfigEdit
    target: Path
    old: tuple[bytes, Fingerprint] | None
    new_text: str
    action: str


def _plan(edit: ConfigEdit, *, remove: bool) -> _Plan:
    """Read one file and compute its new text; raise `ConfigFileError` before any write."""
    target = Path(os.path.realpath(edit.path)) if edit.path.is_symlink() else edit.path
    old = None
    if os.path.lexists(target):
        try:
            old = read_file(target)
        except NoteError as exc:  # unreadable, or a folder where the file should be
            raise ConfigFileError(str(exc)) from None
    if old is None:
        if remove:
            return _Plan(edit, target, None, "", "absent")
        text = render_config(edit_config({}, edit))
        return _Plan(edit, target, None, text, "created")
    try:
        old_text = old[0].decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigFileError(f"{edit.path}: not UTF-8 text; not changed") from None
    bom = "\ufeff" if old_text.startswith("\ufeff") else ""
    config = parse_config(old_text.removeprefix(bom), edit.path)
    new = edit_config(config, edit, remove=remove)
    if new == config:
        return _Plan(edit, target, old, old_text, "absent" if remove else "unchanged")
    text = bom + render_config(new, old_text.removeprefix(bom))
    return _Plan(edit, target, old, text, "removed" if remove else "updated")


def _backup(plan: _Plan, stamp: str) -> Path:
    """Copy the bytes tota read to `<file>.tota-backup-<stamp>` (a new name, same mode)."""
    assert plan.old is not None
    base = plan.target.with_name(f"{plan.target.name}{BACKUP_SUFFIX}{stamp}")
    candidate, number = base, 1
    while True:
        try:
            fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            break
        except FileExistsError:
            number += 1
            candidate = base.with_name(f"{base.name}-{number}")
    with os.fdopen(fd, "wb") as handle:
        handle.write(plan.old[0])
        handle.flush()
        os.fsync(handle.fileno())
    os.chmod(candidate, os.stat(plan.target).st_mode & 0o7777)
    return candidate


def setup_host(
    host: str,
    scope: str = "user",
    *,
    remove: bool = False,
    vault: Path | None = None,
    command: list[str] | None = None,
    environment: Environment | None = None,
    now: datetime | None = None,
) -> list[SetupResult]:
    """Write tota into `host`'s config files (or take it out with `remove=True`).

    Every file is read and checked before any is written, so a file tota must refuse (see
    `parse_config`) leaves all of them as they were. Returns one `SetupResult` per file.
    """
    environment = environment or Environment.current()
    edits = config_edits(
        host, scope, command=command or tota_command(), vault=vault, environment=environment
    )
    plans = [_plan(edit, remove=remove) for edit in edits]
    stamp = (now or datetime.now()).strftime("%Y%m%dT%H%M%S")
    results = []
    for plan in plans:
        backup = None
        if plan.action in ("created", "updated", "removed"):
            if plan.old is not None:
                backup = _backup(plan, stamp)
            atomic_write(
                plan.target,
                plan.new_text.encode("utf-8"),
                expected=plan.old[1] if plan.old else None,
            )
        results.append(SetupResult(plan.edit.path, plan.edit.what, plan.action, backup))
    return results
