"""What `tota search` loads when it starts: the heavy parts stay out of reading commands.

Each check runs a fresh interpreter (a real subprocess), since this interpreter has imported
everything already; the guard is which modules get loaded, never how long it took.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Modules a search never needs: the checks, the learning pipeline and its extractors, the
# secret patterns, the file watcher, the terminal UI and the MCP server.
NEVER_FOR_SEARCH = (
    "tota_vault.doctor",
    "tota_vault.pipeline",
    "tota_vault.extract.secrets",
    "tota_vault.extract.rules",
    "tota_vault.extract.chatter",
    "tota_vault.extract.cues",
    "tota_vault.watch",
    "tota_vault.mcp_server",
    "tota_vault.menu",
    "watchdog",
    "textual",
    "mcp",
)

PROBE = """
import json, sys, runpy
sys.argv = ["tota"] + json.loads(sys.argv[1])
try:
    runpy.run_module("tota_vault", run_name="__main__")
except SystemExit:
    pass
sys.stdout.flush()
print("\\nLOADED " + json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def loaded_by(args: list[str]) -> tuple[set[str], str]:
    """The modules a fresh `tota <args>` process has loaded at its end, and its stdout."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args)],
        capture_output=True, text=True, env=dict(os.environ), timeout=120,
    )  # fmt: skip
    line = done.stderr.rsplit("LOADED ", 1)
    assert len(line) == 2, done.stderr
    return set(json.loads(line[1])), done.stdout


def roots(modules: set[str]) -> set[str]:
    return {name for name in modules for heavy in NEVER_FOR_SEARCH
            if name == heavy or name.startswith(heavy + ".")}  # fmt: skip


def test_importing_the_cli_loads_nothing_heavy() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import json, sys, tota_vault.cli; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    modules = set(json.loads(done.stdout))
    assert "tota_vault.cli" in modules
    assert not roots(modules) | ({"rich", "pydantic"} & modules)


@pytest.mark.parametrize("as_json", [False, True], ids=["table", "json"])
def test_search_as_a_process_loads_nothing_heavy(sample_dir: Path, as_json: bool) -> None:
    args = ["--vault", str(sample_dir), "search", "postgres"] + (["--json"] if as_json else [])
    modules, out = loaded_by(args)
    assert "tota_vault.vault" in modules  # the probe did run a search, and found the note
    assert "PostgreSQL" in (json.loads(out)[0]["title"] if as_json else out)
    assert not roots(modules)


@pytest.mark.parametrize(
    "args",
    [["search", "postgres"], ["search", "postgres", "--json"],
     ["recall", "postgres", "--budget", "300"], ["hook", "prompt", "--limit", "3"]],
    ids=["search", "search --json", "recall", "hook prompt"],
)  # fmt: skip
def test_the_hot_commands_skip_typer(sample_dir: Path, args: list[str]) -> None:
    # cli_fast parses these by hand: typer's import and parsing cost more than the search.
    modules, _ = loaded_by(["--vault", str(sample_dir), *args])
    assert "tota_vault.cli_fast" in modules
    assert not {"typer", "click", "pydantic", "tota_vault.cli"} & modules


def test_any_other_command_goes_to_typer(sample_dir: Path) -> None:
    modules, out = loaded_by(["--vault", str(sample_dir), "search", "postgres", "--help"])
    assert "typer" in modules and "Full-text search" in out


# Beyond those, a search in a vault whose index is up to date reads the index and nothing
# else: not the note parser (nor PyYAML and python-frontmatter behind it), not the syncer,
# the ranking, reflect, the config file or OpenSSL's hashing (docs/benchmarks.md, bench.startup).
NOT_FOR_AN_INDEXED_SEARCH = (
    "tota_vault.notes",
    "tota_vault.sync",
    "tota_vault.recall",
    "tota_vault.reflect",
    "tota_vault.config",
    "tota_vault.capped",
    "yaml",
    "frontmatter",
    "markdown_it",
    "rapidfuzz",
    "hashlib",
)


def test_a_search_of_an_indexed_vault_reads_only_the_index(sample_dir: Path) -> None:
    from tota_vault import Vault

    with Vault.open(sample_dir) as vault:
        vault.sync()
    modules, out = loaded_by(["--vault", str(sample_dir), "search", "postgres", "--json"])
    assert "PostgreSQL" in json.loads(out)[0]["title"]
    loaded = {name for name in modules for light in NOT_FOR_AN_INDEXED_SEARCH
              if name == light or name.startswith(light + ".")}  # fmt: skip
    assert not loaded


def test_a_table_of_results_loads_no_manager(sample_dir: Path) -> None:
    from tota_vault import Vault

    with Vault.open(sample_dir) as vault:
        vault.sync()
    modules, out = loaded_by(["--vault", str(sample_dir), "search", "postgres"])
    assert "PostgreSQL" in out
    assert not {"tota_vault.manage", "tota_vault.recall", "tota_vault.notes"} & modules


def test_a_table_of_results_loads_no_rich(sample_dir: Path) -> None:
    """The table is drawn by tota_vault.cli_table: rich, which alone cost more than the rest
    of a search process, is for the interactive menu."""
    modules, out = loaded_by(["--vault", str(sample_dir), "search", "postgres"])
    assert "PostgreSQL" in out and "tota_vault.cli_table" in modules
    assert not {name for name in modules if name == "rich" or name.startswith("rich.")}
