"""Fusing two rankings: the memories recall ranked, and the conversation turns FTS5 ranked.

Reciprocal rank fusion (Cormack, Clarke and Buettcher, SIGIR 2009): an item at rank r (1 is
the best) of a list earns `weight / (K + r)`, and items are ordered by what they earn. It
reads ranks only, so the two lists' scores (recall's weighted formula, FTS5's bm25) never
have to be put on one scale.

Two rules make it a memory's fusion rather than a search engine's:

- **The memory takes the turn's place.** A turn that a ranked memory cites (the memory was
  learned from it) is not listed beside it: its share goes to the best-ranked memory citing
  it, which is what an assistant should read (a statement with a date and a name, and a
  confidence), and the turn is dropped. With `best_place` (what `Vault.recall` asks for) the
  memory earns the better of its own share and its turn's, not their sum: the memory and
  the turn it was learned from are one piece of evidence placed twice, their words the same
  words. Summed, every memory whose turn the turn list reached (up to ten of them) passed
  every memory it did not reach, however recall had ranked them (on LoCoMo's tuning part
  the answer recall placed 6th was pushed to 11th by memories it placed 9th and 10th);
  taking the better place keeps recall's order except where a turn ranks its memory
  higher (docs/quality.md, "The better of two places"). Ties keep memories first in their
  own order, so with equal weights the order no longer depends on `k`.
- **An echo goes with its turn.** A turn found only through the start of the turn before it
  (its context, turns.py) is an echo of that turn: when a ranked memory cites the turn
  before, the query's words were that memory's, and the echo (a reply such as "Noted.") is
  dropped rather than listed beside it.
- **The person's own words first.** For a question about the person's own life
  (`recall.about_the_person`), the assistant's turns rank after the person's turns in the
  turn list (`later`): the question is answered by what the person said, and the replies
  that repeat it ("Congratulations on the Bike-a-Thon!") would take the places of the other
  sessions' answers. They are not dropped: the question's reading may be wrong. So too, for
  a question naming one of the speakers ("Where has Melanie camped?"), the other speakers'
  turns rank after the named one's: in a chat between two people bm25 ranks the other's
  questions about it ("What do you love most about camping?") beside her answers
  (`recall.turns_later`, docs/quality.md "The named speaker's words first"). An echo
  counts as said by the speaker of the turn before, whose words it was found by.
- **A context budget.** The first `BUDGET_RANKS` results cite at most `MAX_TURNS` distinct
  turns between them, always: each place of the top keeps room for one new turn for every
  place after it, so a result citing many turns cannot leave the rest of the top to results
  that would pass the budget. An item that does not fit is moved after the top, except a
  reflection: it stands for its members, and it cites as many of the members' sources the
  message reached as fit (`cuttable`, best member first), so an overview of an area of a
  life still reaches the top, citing the members that answer, not all sixteen.
- **Something new in each place.** A result all of whose turns the results above it already
  cite also moves after the top, as recall moves such a memory down its own list
  (`recall._diversify`): a memory lifted by its turn's share can outrank the memories that
  list put before it, and the place is worth more spent on another message. The list fused
  keeps a reflection's members in their places (`recall(members_stay=True)`), so this rule
  is what moves the members the cut reflection cites, and only those.

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
#: neither ranking's first item wins by itself. With `best_place` and the weight at 1.0 the
#: order no longer depends on it (the lists merge by place); it still scales `Pick.score`.
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
    """One fused result: which list it came from, its position there, what it earned, and
    the sources it cites (a cut reflection's are fewer than its list gave)."""

    kind: Kind
    index: int
    score: float
    sources: tuple[str, ...] = ()


def fuse(
    memories: Sequence[Sequence[str]],
    turns: Sequence[str],
    *,
    limit: int,
    echoes: Sequence[str | None] = (),
    cuttable: Sequence[bool] = (),
    later: Sequence[bool] = (),
    best_place: bool = False,
    k: float = RRF_K,
    turn_weight: float = TURN_WEIGHT,
    max_turns: int = MAX_TURNS,
    budget_ranks: int = BUDGET_RANKS,
) -> list[Pick]:
    """The best `limit` of two rankings, fused. Pure.

    `memories` holds each ranked memory's sources, best first; `turns` each ranked turn's
    source (`<conversation>#<message>`), best first; `echoes`, where given, for each turn the
    source of the turn before it when the turn matched through that one's words only (else
    None); `cuttable`, where given, for each memory whether it may cite only the first of its
    sources to fit the budget (a reflection, its sources best member first); `later`, where
    given, for each turn whether it ranks after the turns that are not (each group keeping
    its order: an assistant's reply to a question about the person); `best_place`: a memory
    earns the better of its own share and the shares of the turns it takes the place of,
    rather than their sum (reciprocal rank fusion's). With no turns the memories keep their
    order (unless the budget moves one).
    """
    earned: dict[tuple[Kind, int], float] = {}
    for i in range(len(memories)):
        earned["memory", i] = 1.0 / (k + i + 1)
    first_citing: dict[str, int] = {}
    for i, sources in enumerate(memories):
        for source in sources:
            first_citing.setdefault(source, i)
    # Each turn's rank in its list: the ones ranked `later` after the others.
    rank_of = {
        j: r
        for r, j in enumerate(
            sorted(range(len(turns)), key=lambda j: (j < len(later) and later[j], j))
        )
    }
    for j, source in enumerate(turns):
        share = turn_weight / (k + rank_of[j] + 1)
        owner = first_citing.get(source)
        echo_of = echoes[j] if j < len(echoes) else None
        if owner is None and echo_of is not None and echo_of in first_citing:
            continue  # its match was a ranked memory's words: listed, it would say them twice
        if owner is not None and best_place:
            earned["memory", owner] = max(earned["memory", owner], share)
        elif owner is not None:
            earned["memory", owner] += share
        else:
            earned["turn", j] = share
    # Ties keep memories first, then each list's own order.
    order = sorted(
        earned,
        key=lambda key: (
            -earned[key],
            key[0] != "memory",
            key[1] if key[0] == "memory" else rank_of[key[1]],
        ),
    )

    def cites(key: tuple[Kind, int]) -> tuple[str, ...]:
        return tuple(memories[key[1]]) if key[0] == "memory" else (turns[key[1]],)

    places = min(budget_ranks, limit, len(order))
    head: list[tuple[Kind, int]] = []
    moved: list[tuple[Kind, int]] = []
    cut: dict[tuple[Kind, int], tuple[str, ...]] = {}
    cited: set[str] = set()
    rest = iter(order)
    for key in rest:
        # Room for one new turn in each place after this one: what keeps the budget whole
        # when the candidates that would still fit run out.
        room = max_turns - (places - len(head) - 1)
        adds = cites(key)
        if adds and cited.issuperset(adds):
            moved.append(key)
            continue
        if len(cited.union(adds)) > room:
            if key[0] == "memory" and key[1] < len(cuttable) and cuttable[key[1]]:
                part = _fitting(adds, cited, room)
                if len(cited.union(part)) > len(cited):
                    cut[key] = part
                    adds = part
            if key not in cut:
                moved.append(key)
                continue
        head.append(key)
        cited.update(adds)
        if len(head) == places:
            break
    fused = head + moved + list(rest)
    return [
        Pick(kind, index, earned[kind, index], cut.get((kind, index)) or cites((kind, index)))
        for kind, index in fused[:limit]
    ]


def _fitting(sources: Sequence[str], cited: set[str], room: int) -> tuple[str, ...]:
    """The longest start of `sources` that, with `cited`, cites at most `room` turns."""
    taken = set(cited)
    part: list[str] = []
    for source in sources:
        if source not in taken:
            if len(taken) == room:
                break
            taken.add(source)
        part.append(source)
    return tuple(part)
