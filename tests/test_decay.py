"""Decay: effective confidence computed at read time."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from tota_vault.decay import ARCHIVE_FLOOR, effective_confidence, half_life_days

NOW = datetime(2026, 11, 29, 12, 0)


@pytest.mark.parametrize(
    ("durability", "days"),
    [(0.0, 30.0), (0.5, 205.0), (1.0, 730.0)],
)
def test_half_life_grows_with_durability(durability, days):
    assert half_life_days(durability) == pytest.approx(days)


def test_effective_confidence_halves_after_one_half_life():
    confirmed = NOW - timedelta(days=half_life_days(0.5))
    assert effective_confidence(0.8, 0.5, confirmed, NOW) == pytest.approx(0.4)


def test_fresh_and_future_confirmations_do_not_decay():
    assert effective_confidence(0.8, 0.5, NOW, NOW) == 0.8
    assert effective_confidence(0.8, 0.5, NOW + timedelta(days=3), NOW) == 0.8


def test_durable_memories_decay_slower():
    confirmed = NOW - timedelta(days=365)
    durable = effective_confidence(0.9, 0.95, confirmed, NOW)
    passing = effective_confidence(0.9, 0.4, confirmed, NOW)
    assert durable > 0.6 > passing
    assert passing < ARCHIVE_FLOOR + 0.2
