"""`tota setup <host>`: tota's MCP server and Claude Code hooks in a host's own config file.

Every test points HOME (and APPDATA, XDG_CONFIG_HOME, CLAUDE_CONFIG_DIR) at a temp folder and
writes fixture config files there shaped like the hosts' own, with other servers, hooks and
keys, so nothing here reads or writes the real home.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tota_vault.cli import app
from tota_vault.errors import ConfigFileError, ValidationError
from tota_vault.hosts import (
    Environment,
    _is_tota_hook,
    config_edits,
    setup_host,
    tota_command,
)

runner = CliRunner()
TOTA = ["/opt/tota/bin/tota"]
NOW = datetime(2026, 12, 1, 9, 30, 0)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake home; the process's HOME and the hosts' variables point into it."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    for variable in ("APPDATA", "XDG_CONFIG_HOME", "CLAUDE_CONFIG_DIR"):
        monkeypatch.delenv(variable, raising=False)
    return folder


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def env_at(home: Path, cwd: Path | None = None, platform: str = "linux", **env: str) -> Environment:
    return Environment(home, cwd or home / "project", platform, env)


def setup(host: str, scope: str, home: Path, **kwargs):
    return setup_host(
        host, scope, command=TOTA, environment=env_at(home, home / "project"), now=NOW, **kwargs
    )


def read(path: Path) -> dict:
    return json.loads(path.read_text("utf-8"))


def backups(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if ".tota-backup-" in p.name)


# --- where each host keeps its config --------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "scope", "platform", "env", "expected"),
    [
        ("claude-code", "user", "linux", {}, [".claude.json", ".claude/settings.json"]),
        ("claude-code", "user", "darwin", {"CLAUDE_CONFIG_DIR": "{home}/cc"}, ["cc/.claude.json", "cc/settings.json"]),
        ("claude-code", "project", "linux", {}, ["project/.mcp.json", "project/.claude/settings.json"]),
        ("claude-desktop", "user", "darwin", {}, ["Library/Application Support/Claude/claude_desktop_config.json"]),
        ("claude-desktop", "user", "win32", {"APPDATA": "{home}/Roaming"}, ["Roaming/Claude/claude_desktop_config.json"]),
        ("claude-desktop", "user", "win32", {}, ["AppData/Roaming/Claude/claude_desktop_config.json"]),
        ("claude-desktop", "user", "linux", {"XDG_CONFIG_HOME": "{home}/xdg"}, ["xdg/Claude/claude_desktop_config.json"]),
        ("claude-desktop", "user", "linux", {}, [".config/Claude/claude_desktop_config.json"]),
        ("cursor", "user", "linux", {}, [".cursor/mcp.json"]),
        ("cursor", "project", "win32", {}, ["project/.cursor/mcp.json"]),
        ("vscode", "user", "linux", {}, [".config/Code/User/mcp.json"]),
        ("vscode", "user", "darwin", {}, ["Library/Application Support/Code/User/mcp.json"]),
        ("vscode", "user", "win32", {"APPDATA": "{home}/Roaming"}, ["Roaming/Code/User/mcp.json"]),
        ("vscode", "project", "linux", {}, ["project/.vscode/mcp.json"]),
    ],
)  # fmt: skip
def test_config_file_locations(tmp_path: Path, host, scope, platform, env, expected):
    env = {k: v.format(home=tmp_path) for k, v in env.items()}
    edits = config_edits(
        host, scope, command=TOTA, environment=env_at(tmp_path, platform=platform, **env)
    )
    assert [e.path.relative_to(tmp_path).as_posix() for e in edits] == expected


@pytest.mark.parametrize(
    ("host", "section", "entry"),
    [
        ("claude-code", "mcpServers", {"type": "stdio", "command": TOTA[0], "args": ["mcp"]}),
        ("claude-desktop", "mcpServers", {"command": TOTA[0], "args": ["mcp"]}),
        ("cursor", "mcpServers", {"command": TOTA[0], "args": ["mcp"]}),
        ("vscode", "servers", {"type": "stdio", "command": TOTA[0], "args": ["mcp"]}),
    ],
)
def test_server_entry_per_host(tmp_path: Path, host, section, entry):
    edit = config_edits(host, command=TOTA, environment=env_at(tmp_path))[0]
    assert (edit.section, edit.entry) == (section, entry)


def test_the_vault_is_passed_to_the_server_and_the_hooks(tmp_path: Path):
    vault = tmp_path / "my vault"
    mcp, hooks = config_edits(
        "claude-code", command=TOTA, vault=vault, environment=env_at(tmp_path)
    )
    assert mcp.entry["env"] == {"TOTA_VAULT": str(vault)}
    assert hooks.entry["Stop"]["command"] == f"/opt/tota/bin/tota --vault '{vault}' hook stop"


def test_python_m_fallback_makes_the_hook_and_server_commands(tmp_path: Path):
    command = ["/usr/bin/python3", "-m", "tota_vault"]
    mcp, hooks = config_edits("claude-code", command=command, environment=env_at(tmp_path))
    assert (mcp.entry["command"], mcp.entry["args"]) == (
        "/usr/bin/python3",
        ["-m", "tota_vault", "mcp"],
    )
    assert (
        hooks.entry["UserPromptSubmit"]["command"] == "/usr/bin/python3 -m tota_vault hook prompt"
    )


@pytest.mark.parametrize(
    ("host", "scope", "error"),
    [
        ("claude-desktop", "project", "claude-desktop has no project scope (use --scope user)"),
        ("zed", "user", "unknown host 'zed' (expected one of: claude-code, claude-desktop, cursor, vscode)"),
        ("cursor", "global", "unknown scope 'global' (expected user or project)"),
    ],
)  # fmt: skip
def test_bad_host_or_scope(tmp_path: Path, host, scope, error):
    with pytest.raises(ValidationError) as caught:
        config_edits(host, scope, command=TOTA, environment=env_at(tmp_path))
    assert str(caught.value) == error


@pytest.mark.parametrize(
    ("command", "sub", "ours"),
    [
        ("/opt/tota/bin/tota hook prompt", "prompt", True),
        ("'/Users/Sam Lee/.local/bin/tota' --vault '/v w' hook stop", "stop", True),
        ('"C:\\Users\\Sam Lee\\Scripts\\tota.exe" hook session-start', "session-start", True),
        ("/usr/bin/python3 -m tota_vault hook prompt", "prompt", True),
        ("tota hook prompt", "stop", False),
        ("/home/sam/bin/my-hook.sh hook prompt", "prompt", False),
        ("echo 'unbalanced", "prompt", False),
        ("totally hook prompt", "prompt", False),
    ],
)
def test_which_hooks_are_ours(command, sub, ours):
    assert _is_tota_hook({"type": "command", "command": command}, sub) is ours


# --- writing: a fresh home, then fixture configs ---------------------------------------------


def test_claude_code_user_scope_from_nothing(home: Path):
    results = setup("claude-code", "user", home)
    assert [(r.path, r.action, r.backup) for r in results] == [
        (home / ".claude.json", "created", None),
        (home / ".claude" / "settings.json", "created", None),
    ]
    assert read(home / ".claude.json") == {
        "mcpServers": {"tota": {"type": "stdio", "command": TOTA[0], "args": ["mcp"]}}
    }
    hooks = read(home / ".claude" / "settings.json")["hooks"]
    assert hooks == {
        event: [{"hooks": [{"type": "command", "command": f"{TOTA[0]} hook {sub}", "timeout": 10}]}]
        for event, sub in [("UserPromptSubmit", "prompt"), ("Stop", "stop"), ("SessionStart", "session-start")]
    }  # fmt: skip


CLAUDE_JSON = """{
  "numStartups": 42,
  "installMethod": "native",
  "oauthAccount": {"emailAddress": "sam@example.com"},
  "projects": {
    "/home/sam/code": {"allowedTools": [], "mcpServers": {"local-db": {"command": "db-mcp"}}}
  },
  "mcpServers": {
    "github": {"type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}}
  },
  "editorMode": "vim",
  "name": "Zoë"
}
"""

SETTINGS = {
    "permissions": {"allow": ["Bash(npm run test:*)"], "deny": ["Read(./.env)"]},
    "env": {"FOO": "bar"},
    "hooks": {
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "~/bin/log-prompt.sh"}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/guard.sh", "timeout": 5}]}],
    },
    "model": "opus",
}  # fmt: skip


def test_claude_code_keeps_every_other_key_server_and_hook(home: Path):
    claude_json = home / ".claude.json"
    claude_json.write_text(CLAUDE_JSON, "utf-8")
    claude_json.chmod(0o600)
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(SETTINGS, indent=4), "utf-8")  # no final newline, 4 spaces

    results = setup("claude-code", "user", home)
    assert [r.action for r in results] == ["updated", "updated"]
    assert [r.backup.name for r in results] == [
        ".claude.json.tota-backup-20261201T093000",
        "settings.json.tota-backup-20261201T093000",
    ]
    assert results[0].backup.read_text("utf-8") == CLAUDE_JSON  # the bytes tota read
    assert oct(claude_json.stat().st_mode & 0o777) == "0o600"  # a token file stays private

    before, after = json.loads(CLAUDE_JSON), read(claude_json)
    assert list(after) == list(before)  # every key, in its order
    assert after["mcpServers"]["github"] == before["mcpServers"]["github"]
    assert list(after["mcpServers"]) == ["github", "tota"]
    assert {k: v for k, v in after.items() if k != "mcpServers"} == {
        k: v for k, v in before.items() if k != "mcpServers"
    }
    assert '"name": "Zoë"' in claude_json.read_text("utf-8")  # not \u00eb

    text = settings.read_text("utf-8")
    assert not text.endswith("\n") and '\n    "permissions"' in text  # its style kept
    new = json.loads(text)
    assert {k: new[k] for k in ("permissions", "env", "model")} == {
        k: SETTINGS[k] for k in ("permissions", "env", "model")
    }
    assert new["hooks"]["PreToolUse"] == SETTINGS["hooks"]["PreToolUse"]
    prompt_groups = new["hooks"]["UserPromptSubmit"]
    assert prompt_groups[0] == SETTINGS["hooks"]["UserPromptSubmit"][0]  # theirs first
    assert prompt_groups[1]["hooks"][0]["command"] == f"{TOTA[0]} hook prompt"

    # Again: nothing to change, nothing written, no second backup.
    snapshot = {p: p.read_bytes() for p in (claude_json, settings)}
    again = setup("claude-code", "user", home)
    assert [(r.action, r.backup) for r in again] == [("unchanged", None), ("unchanged", None)]
    assert {p: p.read_bytes() for p in snapshot} == snapshot
    assert len(backups(home)) == 2

    # Removed: exactly the person's files again (as JSON; the indentation is theirs too).
    removed = setup_host("claude-code", "user", remove=True, command=TOTA,
                         environment=env_at(home), now=datetime(2026, 12, 1, 10, 0))  # fmt: skip
    assert [r.action for r in removed] == ["removed", "removed"]
    assert read(claude_json) == json.loads(CLAUDE_JSON)
    assert read(settings) == SETTINGS
    assert settings.read_text("utf-8") == json.dumps(SETTINGS, indent=4, ensure_ascii=False)
    assert [r.action for r in setup_host("claude-code", "user", remove=True, command=TOTA,
                                         environment=env_at(home))] == ["absent", "absent"]  # fmt: skip
    assert len(backups(home)) == 4


def test_a_moved_tota_is_updated_in_place_never_duplicated(home: Path):
    setup("claude-code", "project", home)
    settings = home / "project" / ".claude" / "settings.json"
    config = read(settings)
    config["hooks"]["Stop"][0]["hooks"].insert(
        0, {"type": "command", "command": "notify-send done"}
    )
    settings.write_text(json.dumps(config, indent=2) + "\n", "utf-8")

    moved = ["/home/sam/.local/bin/tota"]
    setup_host("claude-code", "project", command=moved, environment=env_at(home, home / "project"))
    stop = read(settings)["hooks"]["Stop"]
    assert stop == [{"hooks": [
        {"type": "command", "command": "notify-send done"},
        {"type": "command", "command": "/home/sam/.local/bin/tota hook stop", "timeout": 10},
    ]}]  # fmt: skip
    assert read(home / "project" / ".mcp.json")["mcpServers"]["tota"]["command"] == moved[0]

    setup_host("claude-code", "project", remove=True, command=moved,
               environment=env_at(home, home / "project"))  # fmt: skip
    assert read(settings)["hooks"] == {
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
    }
    assert read(home / "project" / ".mcp.json") == {}


def test_what_a_person_added_to_totas_entry_is_kept(home: Path):
    config = home / ".cursor" / "mcp.json"
    config.parent.mkdir()
    config.write_text(json.dumps({"mcpServers": {"tota": {
        "command": "tota", "args": ["mcp"], "env": {"TOTA_VAULT": "/old", "LOG": "1"}, "disabled": False,
    }}}), "utf-8")  # fmt: skip
    vault = home / "vault"
    setup("cursor", "user", home, vault=vault)
    assert read(config)["mcpServers"]["tota"] == {
        "command": TOTA[0], "args": ["mcp"], "env": {"LOG": "1", "TOTA_VAULT": str(vault)},
        "disabled": False,
    }  # fmt: skip
    setup("cursor", "user", home)  # back to the default vault: TOTA_VAULT goes, LOG stays
    assert read(config)["mcpServers"]["tota"]["env"] == {"LOG": "1"}


def test_claude_desktop_and_vscode_fixture_configs(home: Path, monkeypatch: pytest.MonkeyPatch):
    desktop = home / ".config" / "Claude" / "claude_desktop_config.json"
    desktop.parent.mkdir(parents=True)
    desktop.write_text('{\n\t"globalShortcut": "Ctrl+Space",\n\t"mcpServers": {\n\t\t"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/sam"]}\n\t}\n}\n', "utf-8")  # fmt: skip
    [result] = setup("claude-desktop", "user", home)
    assert result.action == "updated"
    text = desktop.read_text("utf-8")
    assert text.startswith('{\n\t"globalShortcut": "Ctrl+Space",\n\t"mcpServers": {\n\t\t"fs"')
    assert list(read(desktop)["mcpServers"]) == ["fs", "tota"]

    vscode = home / "project" / ".vscode" / "mcp.json"
    vscode.parent.mkdir(parents=True)
    vscode.write_text(json.dumps({"inputs": [{"type": "promptString", "id": "key"}],
                                  "servers": {"memory": {"type": "stdio", "command": "npx"}}}), "utf-8")  # fmt: skip
    [result] = setup("vscode", "project", home)
    assert read(vscode) == {
        "inputs": [{"type": "promptString", "id": "key"}],
        "servers": {"memory": {"type": "stdio", "command": "npx"},
                    "tota": {"type": "stdio", "command": TOTA[0], "args": ["mcp"]}},
    }  # fmt: skip


def test_a_symlinked_config_is_written_through_to_its_target(home: Path, tmp_path: Path):
    dotfiles = tmp_path / "dotfiles" / "mcp.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text('{"mcpServers": {}}\n', "utf-8")
    link = home / ".cursor" / "mcp.json"
    link.parent.mkdir()
    link.symlink_to(dotfiles)
    [result] = setup("cursor", "user", home)
    assert result.action == "updated" and link.is_symlink()
    assert "tota" in read(dotfiles)["mcpServers"]
    assert result.backup.parent == dotfiles.parent


def test_remove_where_nothing_is_writes_nothing(home: Path):
    assert [r.action for r in setup("cursor", "user", home, remove=True)] == ["absent"]
    assert not (home / ".cursor").exists()
    config = home / ".cursor" / "mcp.json"
    config.parent.mkdir()
    config.write_text('{"mcpServers": {}, "other": 1}', "utf-8")
    assert [r.action for r in setup("cursor", "user", home, remove=True)] == ["absent"]
    assert config.read_text("utf-8") == '{"mcpServers": {}, "other": 1}' and not backups(home)


def test_an_empty_file_is_an_empty_config(home: Path):
    config = home / ".cursor" / "mcp.json"
    config.parent.mkdir()
    config.write_text("", "utf-8")
    [result] = setup("cursor", "user", home)
    assert result.action == "updated" and result.backup.read_text("utf-8") == ""
    assert "tota" in read(config)["mcpServers"]


# --- refused: files tota cannot rewrite without losing something -----------------------------


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('{\n  // my servers\n  "servers": {}\n}\n', "has a comment (line 2 column 3); tota does not rewrite a file with comments, they would be lost: add the entry by hand (see --print)"),
        ('{"servers": {}, /* x */ "inputs": []}', "has a comment (line 1 column 17)"),
        ('{"servers": {"a": {"command": "x"},}}', "has a trailing comma (line 1 column 36); tota does not rewrite JSON with comments or trailing commas: add the entry by hand (see --print)"),
        ('{"servers": {"a": 1 "b": 2}}', "not valid JSON (line 1 column 21: Expecting ',' delimiter); not changed"),
        ('{"servers": {}, "servers": {"a": {}}}', "the key 'servers' appears twice; tota leaves this file alone (rewriting it would drop one)"),
        ("[]", "expected a JSON object, got a list; not changed"),
        ('"servers"', "expected a JSON object, got a single value; not changed"),
        ('{"servers": []}', "'servers' is not an object; tota leaves this file alone"),
        (b"\xff\xfe{}", "not UTF-8 text; not changed"),
    ],
)  # fmt: skip
def test_a_config_tota_cannot_rewrite_is_refused_and_left_alone(home: Path, text, error):
    config = home / "project" / ".vscode" / "mcp.json"
    config.parent.mkdir(parents=True)
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    config.write_bytes(data)
    with pytest.raises(ConfigFileError) as caught:
        setup("vscode", "project", home)
    assert str(caught.value).startswith(f"{config}: {error}")
    assert config.read_bytes() == data and not backups(home)


def test_a_folder_where_the_config_should_be_is_refused(home: Path):
    (home / ".cursor" / "mcp.json").mkdir(parents=True)
    with pytest.raises(ConfigFileError, match=r"mcp\.json: not a regular file"):
        setup("cursor", "user", home)


def test_one_refused_file_stops_every_write(home: Path):
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"hooks": {"Stop": {"command": "x"}}}', "utf-8")
    with pytest.raises(ConfigFileError, match="hooks.Stop is not a list"):
        setup("claude-code", "user", home)
    assert not (home / ".claude.json").exists()  # the other file was not written either


# --- the command line ------------------------------------------------------------------------


def test_cli_print_writes_nothing(home: Path, project: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("TOTA_HOME")
    result = runner.invoke(app, ["setup", "claude-code", "--print"])
    assert result.exit_code == 0, result.output
    assert f"# add to {home / '.claude.json'}\n" in result.stdout
    assert '"UserPromptSubmit"' in result.stdout and "TOTA_VAULT" not in result.stdout
    as_json = json.loads(runner.invoke(app, ["setup", "vscode", "--print", "--json"]).stdout)
    assert as_json == [{"path": str(home / ".config/Code/User/mcp.json"), "snippet": {"servers": {
        "tota": {"type": "stdio", "command": tota_command()[0], "args": ["mcp"]}}}}]  # fmt: skip
    assert list(home.iterdir()) == [] and list(project.iterdir()) == []


def test_cli_setup_passes_the_chosen_vault(home: Path, project: Path, tmp_path: Path):
    vault = tmp_path / "vault"
    result = runner.invoke(app, ["--vault", str(vault), "setup", "cursor", "--scope", "project"])
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"Created {project / '.cursor' / 'mcp.json'} (MCP server)\nRestart Cursor to load the change.\n"
    )
    entry = read(project / ".cursor" / "mcp.json")["mcpServers"]["tota"]
    assert entry["env"] == {"TOTA_VAULT": str(vault)} and os.path.isabs(entry["command"])
    again = runner.invoke(
        app, ["--vault", str(vault), "setup", "cursor", "--scope", "project", "--json"]
    )
    assert json.loads(again.stdout)[0]["action"] == "unchanged"


def test_cli_refusal_is_one_line_and_exit_1(home: Path, project: Path):
    (project / ".vscode").mkdir()
    (project / ".vscode" / "mcp.json").write_text("{\n  // mine\n}\n", "utf-8")
    result = runner.invoke(app, ["setup", "vscode", "--scope", "project"])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and "has a comment (line 2 column 3)" in result.stderr
    bad = runner.invoke(app, ["setup", "claude-desktop", "--scope", "project"])
    assert bad.exit_code == 2 and "no project scope" in bad.stderr


# --- the absolute command, as the installed script finds it ----------------------------------


def test_tota_command_prefers_the_running_script(tmp_path: Path):
    script = tmp_path / "bin" / "tota"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n", "utf-8")
    assert tota_command(str(script)) == [str(script)]
    relative = os.path.relpath(script)
    assert tota_command(relative) == [str(script)]  # made absolute
    beside_python = Path(sys.executable).parent / "tota"
    assert beside_python.is_file(), "the test venv installs the tota script"
    assert tota_command("/usr/lib/python3/site-packages/tota_vault/cli.py") == [str(beside_python)]


def test_the_installed_script_writes_its_own_absolute_path(tmp_path: Path):
    """A real `tota setup` process from a folder whose PATH has no tota at all."""
    script = Path(sys.executable).parent / "tota"
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "TOTA_HOME": str(tmp_path / "th")}
    for argv in ([str(script)], [sys.executable, "-m", "tota_vault"]):
        done = subprocess.run(
            [*argv, "setup", "cursor"], cwd=tmp_path, env=env, capture_output=True, text=True,
            timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        entry = read(home / ".cursor" / "mcp.json")["mcpServers"]["tota"]
        assert entry["command"] == str(script)
        assert entry["env"] == {"TOTA_VAULT": str(tmp_path / "th" / "memory" / "second-brain")}
