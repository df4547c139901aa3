"""What the recall quality entries share: the two rankings `Vault.recall` fuses, kept per
question so the fusion's constants can be weighed without observing the data again, and the
development / untouched split of each data set.

`rankings` replicates `Vault.recall`'s look-ups (the memory ranking, the turns FTS5 ranks,
less the turns a memory decided against); `check_replica` holds it to `Vault.recall` itself,
question by question, so a figure computed from the kept rankings is the product's figure.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from tota_vault import Vault
from tota_vault.fusion import MEMORY_DEPTH, TURN_DEPTH, fuse
from tota_vault.recall import QueryPlan, build_query, turns_later
from tota_vault.recall import recall as recall_memories
from tota_vault.text import StemFinder

#: How deep the rankings are kept: the deepest setting `fusion_grid` weighs, whatever the
#: code ships (`fused` cuts them to a setting's depths, as `Vault.recall` reads them).
KEPT_MEMORIES, KEPT_TURNS = 60, 30


def rankings(vault: Vault, question: str, now: datetime | None) -> dict[str, Any]:
    """The memory ranking (each memory's sources) and the turn ranking (each turn's source,
    before the turns a memory decided against are taken out: those are `settled`) that
    `Vault.recall` fuses for `question`, kept deeper than it reads them."""
    # As `Vault.recall` ranks them for the fusion (the vaults the entries open keep turns).
    memories = recall_memories(
        vault.open_index(), question, limit=KEPT_MEMORIES, now=now, members_stay=True
    )
    whole = recall_memories(
        vault.open_index(), question, limit=KEPT_MEMORIES, now=now, cite_members=False,
        members_stay=True,
    )  # fmt: skip
    store = vault.open_index().turns()
    plan = build_query(question)
    hits = store.search(plan.searched, limit=KEPT_TURNS)
    return {
        "memories": [list(m.sources) for m in memories],
        # Each memory's type, and every source a reflection has (not only its members' that
        # the question reached): what the variants of the fusion weigh.
        "types": [m.type for m in memories],
        "whole": [list(m.sources) for m in whole],
        # The memory ranking as a recall without turns returns it (members moved down).
        "alone": [
            list(m.sources)
            for m in recall_memories(vault.open_index(), question, limit=KEPT_MEMORIES, now=now)
        ],
        "turns": [h.source for h in hits],
        # Each turn's bm25 (negative-better, as FTS5 gives it) and speaker: what a re-ranking
        # of the turns by recall's own formula weighs.
        "turn_scores": [h.score for h in hits],
        "speakers": [h.speaker for h in hits],
        "echoes": [h.echo_source for h in hits],
        # Whose each turn is, and whether the question is about the person: the assistant's
        # turns then rank after the person's (`fuse(later=...)`).
        "roles": [h.role for h in hits],
        "personal": plan.personal,
        # Which turns rank after the others (`recall.turns_later`: the assistant's for a
        # question about the person, the speakers not named for a question naming one).
        "later": turns_later(
            plan, [h.matched_role for h in hits], [h.matched_speaker for h in hits]
        ),
        "settled": sorted(store.settled([h.source for h in hits])),
        # The question's terms each result holds: what a coverage-aware order would weigh.
        "matched": [[t for t in m.matched if not t.startswith("topic/")] for m in memories],
        "turn_matched": [sorted(matched_terms(plan, h.text)) for h in hits],
    }


def matched_terms(plan: QueryPlan, text: str) -> set[str]:
    """The terms of `plan` that `text` holds (an alternate covering its term), as recall
    counts a memory's coverage."""
    stems = plan.covering_stems()
    return {stems[s] for s in StemFinder(stems).find(text)}


def fused(
    ranked: dict[str, Any],
    limit: int,
    *,
    memory_depth: int = MEMORY_DEPTH,
    turn_depth: int = TURN_DEPTH,
    **params: Any,
) -> list[list[str]]:
    """The sources of the fused top `limit`, as `Vault.recall` returns them: each list read
    to its depth (the turns before the settled ones are taken out, as it searches them)."""
    memories = ranked["memories"][: max(limit, memory_depth)]
    settled = set(ranked.get("settled", ()))
    turns_read = ranked["turns"][:turn_depth]
    echoes = ranked.get("echoes") or [None] * len(ranked["turns"])  # kept before echoes were
    roles = ranked.get("roles") or ["user"] * len(ranked["turns"])  # kept before roles were
    personal = bool(ranked.get("personal"))
    # Kept before `later` was: the assistant's turns only, as the product ranked them then.
    later = ranked.get("later") or [personal and r == "assistant" for r in roles]
    kept = [
        (t, e, lt) for t, e, lt in zip(turns_read, echoes, later, strict=False) if t not in settled
    ]
    turns = [t for t, _, _ in kept]
    types = ranked.get("types") or []
    picks = fuse(
        memories, turns, limit=limit, echoes=[e for _, e, _ in kept],
        cuttable=[t == "reflection" for t in types],
        later=[lt for _, _, lt in kept],
        **{"best_place": True, **params},
    )  # fmt: skip
    return [list(p.sources) for p in picks]


def memories_only(ranked: dict[str, Any], limit: int) -> list[list[str]]:
    """What recall returns without turns: the memory ranking alone (kept as `alone`; rows
    kept before it was are the fused ranking's)."""
    return [list(s) for s in ranked.get("alone", ranked["memories"])[:limit]]


def turns_only(ranked: dict[str, Any], limit: int) -> list[list[str]]:
    """Raw turns alone (bm25 over the kept turns, as the raw-turn baselines)."""
    return [[s] for s in ranked["turns"][:limit]]


def check_replica(vault: Vault, question: str, now: datetime | None, ranked: dict, limit: int):
    """Raise when the kept rankings do not give what `Vault.recall` returns."""
    product = [list(r.sources) for r in vault.recall(question, limit, now=now)]
    if product != fused(ranked, limit):
        raise AssertionError(f"the fusion replica differs from Vault.recall for {question!r}")


def split_of(key: str) -> str:
    """`tune` or `held` for a question or conversation id: a hash, fixed before any tuning,
    so the untouched part is decided by no one's choice (about half of each)."""
    return "tune" if hashlib.sha256(key.encode("utf-8")).digest()[0] % 2 == 0 else "held"


def write_rankings(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    """One JSON line per question: id, category, split, and the two rankings."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row) + "\n")


def read_rankings(path: Path) -> list[dict[str, Any]]:
    """The rows `write_rankings` wrote."""
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def run_lines(
    rows: Sequence[dict[str, Any]], results: Sequence[list[list[str]]], short: Any
) -> dict[str, list[dict[str, Any]]]:
    """A run file's content ({question id: results}) as the evaluation kit scores it;
    `short` turns a source (`<conversation>#<message>`) into the kit's short turn id."""
    return {
        row["question_id"]: [{"source_turns": [short(s) for s in r]} for r in ranked]
        for row, ranked in zip(rows, results, strict=True)
    }
