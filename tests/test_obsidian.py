"""The vault as Obsidian sees it, checked with a third-party Obsidian vault reader
(obsidiantools, a test dependency): every note's properties parse and every wikilink resolves,
for the sample vault and for a vault that `tota extract` and `tota reflect` wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from tota_vault import Vault

otools = pytest.importorskip("obsidiantools.api")

CHAT = """Date: 2023-05-08
Caroline: I went to a pottery class yesterday and it was so much fun.
Melanie: That sounds lovely! I'm training for a half-marathon in June.
Caroline: My favorite color is teal. I'm planning to adopt a dog this year.
Melanie: I love pottery too. I took a pottery class last year with my sister.
Caroline: I'm working on a pottery bowl for my mom's birthday.
Melanie: My kids love the beach. We went camping at the beach last weekend.
Caroline: The pottery studio downtown has a new kiln, I signed up for glazing lessons.
"""


def check_vault(root: Path) -> int:
    """Connect obsidiantools to the vault; fail on any unparsable property or dangling link."""
    vault = otools.Vault(root).connect().gather()
    notes = vault.md_file_index
    assert notes, "no notes found"
    for name in notes:
        front = vault.get_front_matter(name)
        assert isinstance(front, dict), name
        if front:  # a tota memory note
            assert front.get("type"), name
    assert vault.nonexistent_notes == [], vault.nonexistent_notes
    return len(notes)


def test_the_sample_vault_reads_cleanly_in_obsidian(sample_dir: Path):
    with Vault.open(sample_dir) as vault:
        vault.sync()  # gives the hand-written notes their ids, as a first sync would
    assert check_vault(sample_dir) >= 40


def test_a_vault_written_by_tota_reads_cleanly_in_obsidian(tmp_path: Path):
    root = tmp_path / "written"
    with Vault.open(root) as vault:
        from tota_vault.extract.formats import parse_conversation

        vault.observe(parse_conversation(CHAT, "text"), conversation_id="chat")
        vault.remember("preference", 'Likes "quoted" words: colons, #hashes and [brackets].')
        report = vault.reflect()
        # Reflections with [[wikilinks]] to their members: made after observe, or now.
        assert report.created or report.unchanged
    assert check_vault(root) >= 8
