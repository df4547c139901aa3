"""A dry run's overlay: imagined memories found by the index's own FTS5 queries and limits."""

from __future__ import annotations

import pytest

from tota_vault.index import BY_KEY_LIMIT, SIMILAR_LIMIT
from tota_vault.overlay import Overlay


@pytest.fixture
def overlay():
    made = Overlay()
    yield made
    made.close()


def test_similar_asks_for_two_of_the_first_three_words_stemmed_as_the_index(overlay) -> None:
    overlay.put("episode/a.md", "Went to Lyon for a conference.", "episode", "user", None)
    overlay.put("episode/b.md", "Runs along the river.", "episode", "user", None)
    overlay.put("habit/c.md", "Went to conferences in Lyon.", "habit", "user", None)
    found = overlay.similar(["conference", "lyon", "went"], type="episode", subject="user")
    assert found == ["episode/a.md"]  # the habit is another type; "conferences" stems alike
    assert overlay.similar(["conferences", "lyon"], type="habit", subject="user") == ["habit/c.md"]
    assert overlay.similar(["river"], type="episode", subject="sam") == []
    assert overlay.similar([], type="episode", subject="user") == []


def test_newest_first_a_change_keeps_its_place_and_a_drop_is_gone(overlay) -> None:
    for n in range(3):
        overlay.put(
            f"episode/{n}.md", f"Bought {n} stickers at the market.", "episode", "user", None
        )
    overlay.put("episode/0.md", "Bought stickers at the market in Graz.", "episode", "user", None)
    words = ["stickers", "market"]
    assert overlay.similar(words, type="episode", subject="user") == [
        "episode/2.md", "episode/1.md", "episode/0.md"
    ]  # fmt: skip
    overlay.drop("episode/1.md")
    assert overlay.similar(words, type="episode", subject="user") == [
        "episode/2.md",
        "episode/0.md",
    ]
    overlay.put("episode/1.md", "Bought stickers at the market again.", "episode", "user", None)
    assert overlay.similar(words, type="episode", subject="user")[0] == "episode/1.md"


def test_look_ups_return_as_many_as_the_index_does(overlay) -> None:
    for n in range(30):
        overlay.put(f"episode/{n}.md", f"Bought {n} stickers at the market.", "episode", "user",
                    "user/stickers")  # fmt: skip
    found = overlay.similar(["stickers", "market"], type="episode", subject="user")
    assert found == [f"episode/{n}.md" for n in range(29, 29 - SIMILAR_LIMIT, -1)]
    assert len(overlay.by_key("user/stickers", "user")) == BY_KEY_LIMIT


def test_mentioning_leaves_out_reflections_and_by_key_follows_a_changed_key(overlay) -> None:
    overlay.put("goal/a.md", "Is planning to apply for the Zurich job.", "goal", "user", "user/job")
    overlay.put("reflection/r.md", "The Zurich job and moving.", "reflection", "user", None)
    assert overlay.mentioning(["zurich"], subject="user") == ["goal/a.md"]
    assert overlay.by_key("user/job", "user") == ["goal/a.md"]
    overlay.put("goal/a.md", "Is planning to apply for the Zurich job.", "goal", "user", None)
    assert overlay.by_key("user/job", "user") == []
    overlay.drop("goal/a.md")
    assert overlay.mentioning(["zurich"], subject="user") == []
