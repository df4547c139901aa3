"""Overview, recent memories and Clear All, through the library and the CLI twins."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from conftest import write
from typer.testing import CliRunner

from tota_vault import Vault, manage
from tota_vault.cli import app

runner = CliRunner()


def test_overview_counts_and_profile(sample_dir: Path):
    with Vault.open(sample_dir) as vault:
        vault.sync()
        data = manage.overview(vault)
        assert data["memories"] == sum(data["by_type"].values()) >= 34
        assert set(data["by_evidence"]) <= {"direct", "inferred", "manual", "system"}
        assert data["learning"] == "on" and data["profile"]
        vault.pause()
        assert manage.overview(vault)["learning"] == "paused"


def test_recent_lists_the_newest_first(vault: Vault):
    for day in (3, 1, 2):
        vault.remember("habit", f"Habit from day {day}.", when=datetime(2026, 11, day))
    assert [r.text for r in manage.recent(vault, limit=2)] == [
        "Habit from day 3.",
        "Habit from day 2.",
    ]


def test_clear_deletes_memories_only(vault: Vault):
    kept = {
        "README.md": "# My vault\nNot a memory.\n",
        "goal/Broken.md": "---\ntype: goal\nconfidence: [\n---\nBroken.\n",
        "attachments/photo.txt": "not markdown",
    }
    for rel, text in kept.items():
        write(vault.root, rel, text)
    stored = [vault.remember("goal", f"Goal number {i}.") for i in range(3)]
    hand = write(vault.root, "habit/Walks.md", "---\ntype: habit\n---\nWalks after lunch.\n")
    report = manage.clear(vault)
    assert sorted(report.deleted) == sorted([s.path for s in stored] + ["habit/Walks.md"])
    assert not hand.exists()
    for rel, text in kept.items():
        assert (vault.root / rel).read_text() == text
    assert vault.stats()["memories"] == 0
    assert report.kept == 2  # the README and the invalid note are still indexed
    assert vault.search("memory") and not vault.search("goal number")


def test_cli_twins(sample_dir: Path):
    v = str(sample_dir)
    runner.invoke(app, ["--vault", v, "sync"])
    data = json.loads(runner.invoke(app, ["--vault", v, "overview", "--json"]).output)
    assert data["memories"] >= 34
    recent = json.loads(runner.invoke(app, ["--vault", v, "recent", "--json", "-n", "3"]).output)
    assert len(recent) == 3 and all("confidence" in r for r in recent)
    refused = runner.invoke(app, ["--vault", v, "clear"])
    assert refused.exit_code == 2 and "--yes" in refused.output
    assert len(list(sample_dir.rglob("*.md"))) >= 40
    done = json.loads(runner.invoke(app, ["--vault", v, "clear", "--yes", "--json"]).output)
    assert done["deleted"] >= 40
    assert not [p for p in sample_dir.rglob("*.md") if ".obsidian" not in p.parts]
    assert (sample_dir / ".gitignore").exists()


def test_memory_needs_a_terminal(vault_dir: Path):
    result = runner.invoke(app, ["--vault", str(vault_dir), "memory"])
    assert result.exit_code == 2 and "needs a terminal" in result.output
