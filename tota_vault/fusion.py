"""Fusing two rankings: the memories recall ranked, and the conversation turns FTS5 ranked.

Reciprocal rank fusion (Cormack, Clarke and Buettcher, SIGIR 2009): an item at rank r (1 is
the best) of a list earns `weight / (K + r)`, and items are ordered by what they earn. It
reads ranks only, so the two lists' scores (recall's weighted formula, FTS5's bm25) never
have to be put on one scale.

Two rules make it a memory's fusion rather than a search engine's:

- **The memory takes the turn's place.** A turn that a ranked memory cites (the memory was
  learned from it) is not listed beside it: its share goes to the best-ranked memory citing
  it, which is what an assistant should read (a statement with a date and a name, and a
  confidence), and the turn is dropped.
- **An echo goes with its turn.** A turn found only through the start of the turn before it
  (its context, turns.py) is an echo of that turn: when a ranked memory cites the turn
  before, the query's words were that memory's, and the echo (a reply such as "Noted.") is
  dropped rather than listed beside it.
- **A context budget.** The first `BUDGET_RANKS` results cite at most `MAX_TURNS` distinct
  turns between them: an item that would pass the budget (a reflection citing 16 turns) is
  moved after them, so the top of the list is never one summary that costs the context of
  sixteen messages.

Everything here is pure: plain lists of sources in, positions out. `Vault.recall` does the
look-ups and builds the results. The constants are justified in docs/quality.md on data they
were not tuned on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "BUDGET_RANKS",
    "MAX_TURNS",
    "MEMORY_DEPTH",
    "RRF_K",
    "TURN_DEPTH",
    "TURN_WEIGHT",
    "Pick",
    "fuse",
]

#: The fusion's damping: Cormack et al.'s K = 60, which flattens the head of each list so
#: neither ranking's first item wins by itself.
RRF_K = 60.0
#: A turn's share against a memory's (1.0): turns hold what no memory learned (the
#: assistant's words, answers in the next turn), and memories what a turn cannot say (whose,
#: when, the link across sessions).
TURN_WEIGHT = 1.0
#: The context budget: the first `BUDGET_RANKS` results cite at most `MAX_TURNS` turns.
MAX_TURNS = 12
BUDGET_RANKS = 10
#: How deep each ranking is read. Chosen on the tuning parts (docs/quality.md): reading 60
#: memories let a turn lift a weak memory from far down over a better one (LoCoMo all@10
#: -0.005), and reading 30 turns let the tail of a list with no good turn in it fill the
#: top ten. The two depths are the only constants tuned; K and the weight are the paper's.
MEMORY_DEPTH = 20
TURN_DEPTH = 10

Kind = Literal["memory", "turn"]


@dataclass(frozen=True)
class Pick:
    """One fused result: which list it came from, its position there, and what it earned."""

    kind: Kind
    index: int
    score: float


def fuse(
    memories: Sequence[Sequence[str]],
    turns: Sequence[str],
    *,
    limit: int,
    echoes: Sequence[str | None] = (),
    k: float = RRF_K,
    turn_weight: float = TURN_WEIGHT,
    max_turns: int = MAX_TURNS,
    budget_ranks: int = BUDGET_RANKS,
) -> list[Pick]:
    """The best `limit` of two rankings, fused. Pure.

    `memories` holds each ranked memory's sources, best first; `turns` each ranked turn's
    source (`<conversation>#<message>`), best first; `echoes`, where given, for each turn the
    source of the turn before it when the turn matched through that one's words only (else
    None). With no turns the memories keep their order (unless the budget moves one).
    """
    earned: dict[tuple[Kind, int], float] = {}
    for i in range(len(memories)):
        earned["memory", i] = 1.0 / (k + i + 1)
    first_citing: dict[str, int] = {}
    for i, sources in enumerate(memories):
        for source in sources:
            first_citing.setdefault(source, i)
    for j, source in enumerate(turns):
        share = turn_weight / (k + j + 1)
        owner = first_citing.get(source)
        echo_of = echoes[j] if j < len(echoes) else None
        if owner is None and echo_of is not None and echo_of in first_citing:
            continue  # its match was a ranked memory's words: listed, it would say them twice
        if owner is not None:
            earned["memory", owner] += share
        else:
            earned["turn", j] = share
    # Ties keep memories first, then each list's own order.
    order = sorted(earned, key=lambda key: (-earned[key], key[0] != "memory", key[1]))

    def cites(key: tuple[Kind, int]) -> set[str]:
        return set(memories[key[1]]) if key[0] == "memory" else {turns[key[1]]}

    head: list[tuple[Kind, int]] = []
    moved: list[tuple[Kind, int]] = []
    cited: set[str] = set()
    rest = iter(order)
    for key in rest:
        adds = cites(key)
        if len(cited | adds) > max_turns:
            moved.append(key)
            continue
        head.append(key)
        cited |= adds
        if len(head) == min(budget_ranks, limit):
            break
    fused = head + moved + list(rest)
    return [Pick(kind, index, earned[kind, index]) for kind, index in fused[:limit]]
