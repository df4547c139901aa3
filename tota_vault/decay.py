"""Decay and confirmation: how much tota still trusts a memory, computed when read.

Files never churn for decay: the note keeps the confidence it was stored with and the date it
was last `confirmed`; the effective confidence is derived at read time:

    half-life (days)      = 30 + 700 * durability^2
    effective confidence  = confidence * 0.5 ^ (days since confirmed / half-life)

So a durable fact (durability 0.95, half-life ~660 days) keeps most of its weight for years,
while a passing episode (durability 0.5, ~205 days) halves in about seven months. A
confirmation (a merge, `tota confirm`, a hand edit) raises the stored confidence and resets
`confirmed`, restarting the clock. `tota decay --apply` archives memories whose effective
confidence fell under `ARCHIVE_FLOOR` (status `archived`: kept on disk, not recalled unless
asked); nothing is ever deleted by decay.
"""

from __future__ import annotations

from datetime import datetime

__all__ = ["ARCHIVE_FLOOR", "effective_confidence", "half_life_days"]

#: Below this effective confidence a memory is stale: `tota decay --apply` archives it.
ARCHIVE_FLOOR = 0.3
BASE_HALF_LIFE = 30.0
DURABLE_HALF_LIFE = 700.0


def half_life_days(durability: float) -> float:
    """Days for a memory's effective confidence to halve without confirmation."""
    return BASE_HALF_LIFE + DURABLE_HALF_LIFE * max(0.0, min(1.0, durability)) ** 2


def effective_confidence(
    confidence: float, durability: float, confirmed: datetime, now: datetime
) -> float:
    """The confidence a memory has today (see the module docstring)."""
    days = max(0.0, (now - confirmed).total_seconds() / 86400.0)
    return confidence * 0.5 ** (days / half_life_days(durability))
