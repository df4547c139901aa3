"""The tombstones of forgotten memories: what they keep from being learned, and the turns
they remove."""

from __future__ import annotations

from tota_vault import Vault
from tota_vault.forgotten import add_forgotten, forget_tombstoned


def test_the_tombstones_remove_their_turns_once_per_change_of_the_file(vault: Vault):
    vault.observe(
        [{"role": "user", "content": "I collect stamps.", "id": "1"},
         {"role": "assistant", "content": "Stamps are fun.", "id": "2"}],
        conversation_id="c",
    )  # fmt: skip
    index = vault.open_index()
    assert forget_tombstoned(vault.root, index) == 0  # no tombstone file
    add_forgotten(vault.root, ["c#2"])
    assert forget_tombstoned(vault.root, index) == 1
    assert forget_tombstoned(vault.root, index) == 0  # the file did not change
    assert forget_tombstoned(vault.root, index, force=True) == 0  # nothing left to remove
    assert index.turns().counts()["turns"] == 1  # the user's turn stays
