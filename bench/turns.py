"""The conversation turns kept beside the memories: their size, what keeping them costs an
observe, and recall's latency over them, at 100k memories and 1M turns.

    python -m bench.turns                                   # 100k memories, 1M turns
    python -m bench.turns --size 10000 --turns 100000       # smaller

The generated vault (`--size N` notes) is copied and synced, untimed; then `--turns` turns are
kept through `TurnStore.add`, 10,000 a transaction, made from the vault's own statements in a
chat's phrasing (so their words, and how often each occurs, are the vault's), half `user` and
half `assistant`, in conversations of 20. Then, each against its baseline in the same run:

- **size**: the index file before and after the turns (bytes per turn), and per table where
  SQLite's `dbstat` is compiled in;
- **observe**: `Vault.observe` of a 10-message conversation (new each time, statements of the
  vault) with `[recall] turns` on and off, interleaved (`_kit.interleave`), the difference
  being what keeping its turns costs at this size;
- **recall**: `Vault.recall(message, 10)` fusing memories and turns, against a plain FTS5
  query over the turns (the message's words ORed, `ORDER BY rank LIMIT 10`: no ranking of
  memories, no fusion) and against recall with turns off, on the same messages
  (`_kit.requests`), each the median of `--repeat` calls; p50 and p95 over the messages.
  Recall with turns on and off are paired on each message; the plain query is timed in a
  loop of its own after them (`recall_latency`). The turn query alone (`TurnStore.search`
  of the message's terms, as recall calls it) is timed beside them: the part of recall
  the turns cost.

`--reuse --keep-turns` skips the filling when the reused copy already holds `--turns`
synthetic turns (a previous run's, the same seed): the latencies are measured again in
seconds instead of twelve minutes; the size and keeping figures are then those of the run
that filled it, and are left out.
"""

from __future__ import annotations

import random
import re
import sys
import time
from pathlib import Path
from typing import Any

from bench import _kit
from tota_vault import Vault
from tota_vault.fusion import TURN_DEPTH
from tota_vault.recall import build_query
from tota_vault.text import fts_any
from tota_vault.turns import TurnRecord

#: The house target for recall's p95, in-process.
TARGET_P95_MS = 20.0
#: Turns per transaction while filling.
CHUNK = 10_000
#: Turns per synthetic conversation.
PER_CONVERSATION = 20
#: How a chat says a statement: the user tells, the assistant answers about it.
USER_FRAMES = ("So, {}.", "I wanted to tell you: {}.", "{}, just so you know.", "Well, {}!")
ASSISTANT_FRAMES = (
    "Got it. {} sounds important; want me to plan around it?",
    "Thanks for sharing. Since {}, maybe start small this week.",
    "Noted: {}. I can suggest a few options if you like.",
)
#: A plain FTS5 query over the turns, the baseline for recall's latency.
PLAIN = "SELECT rowid FROM turns_fts WHERE turns_fts MATCH ? ORDER BY rank LIMIT 10"
TABLE_SIZES = "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"
#: The turns `fill` made (the observes add their own conversations beside them).
SYNTHETIC = "SELECT count(*) FROM turns WHERE conversation LIKE 'synthetic-%'"
#: What a previous run's observes kept, taken out so a kept fill starts as a fresh one does.
NOT_SYNTHETIC = "DELETE FROM turns WHERE conversation NOT LIKE 'synthetic-%'"


def statements(conn) -> list[str]:
    """The vault's own statements, lower-cased at the start, to phrase as chat."""
    rows = conn.execute(_kit.NOTE_TEXTS).fetchall()
    out = [" ".join(r[0].split()).rstrip(".!?") for r in rows if r[0] and len(r[0]) < 400]
    return [s[:1].lower() + s[1:] for s in out if s]


def synthetic_turns(texts: list[str], count: int, seed: int, start: int = 0) -> list[TurnRecord]:
    """Turns `start` to `start + count` made from `texts`, deterministic for a seed."""
    rng = random.Random(seed + start)
    out = []
    for n in range(start, start + count):
        user = n % 2 == 0
        frame = rng.choice(USER_FRAMES if user else ASSISTANT_FRAMES)
        conversation = f"synthetic-{n // PER_CONVERSATION:07d}"
        out.append(TurnRecord(
            conversation, str(n % PER_CONVERSATION + 1), "user" if user else "assistant",
            "user" if user else "assistant", None, frame.format(rng.choice(texts)),
        ))  # fmt: skip
    return out


def fill(vault: Vault, texts: list[str], count: int, seed: int) -> float:
    """Keep `count` synthetic turns; return the seconds it took."""
    store = vault.open_index().turns()
    started = time.perf_counter()
    for start in range(0, count, CHUNK):
        store.add(synthetic_turns(texts, min(CHUNK, count - start), seed, start))
    store.optimize()
    return time.perf_counter() - started


def table_sizes(vault: Vault) -> dict[str, int]:
    """Bytes per table and index, when SQLite has `dbstat` (empty otherwise)."""
    try:
        return {name: int(size) for name, size in _kit.index_sql(vault).execute(TABLE_SIZES)}
    except Exception:  # noqa: BLE001 - dbstat is an optional compile-time module
        return {}


def observe_costs(vault: Vault, texts: list[str], runs: int) -> dict[str, list[float]]:
    """Seconds per 10-message observe, turns on against turns off, interleaved."""
    rng = random.Random(11)
    config = vault.root / "tota.toml"
    counter = iter(range(10**9))

    def observe(turns_on: bool) -> float:
        config.write_text(f"[recall]\nturns = {'true' if turns_on else 'false'}\n")
        n = next(counter)
        messages = [
            {"role": "user" if i % 2 == 0 else "assistant", "id": str(i + 1),
             "content": ("I " if i % 2 == 0 else "You said ") + rng.choice(texts) + "."}
            for i in range(10)
        ]  # fmt: skip
        started = time.perf_counter()
        vault.observe(messages, conversation_id=f"bench-observe-{n}")
        return time.perf_counter() - started

    try:
        return _kit.interleave(
            runs, {"turns off": lambda: observe(False), "turns on": lambda: observe(True)}
        )
    finally:
        config.unlink()


def recall_latency(vault: Vault, asks: list[str], repeat: int) -> dict[str, list[float]]:
    """Per message, the median seconds of recall with turns, the turn query alone, recall
    with turns off, and the plain FTS5 query over the turns.

    Recall with turns on and off are timed one right after the other on each message, so the
    pair shares the machine's moment and caches; the plain query, 1.5 s a message at a
    million turns, runs in a loop of its own afterwards: timed between them, it left the
    next recall a cold cache (recall with turns read 18.4 ms at p50 there, 15.6 ms alone)."""
    conn = _kit.index_sql(vault)
    config = vault.root / "tota.toml"
    store = vault.open_index().turns()
    out: dict[str, list[float]] = {"recall with turns": [], "turn query alone": [],
                                   "plain FTS5 query": [], "recall, turns off": []}  # fmt: skip
    try:
        for message in asks:
            terms = build_query(message).terms
            out["recall with turns"].append(
                _kit.time_call(lambda m=message: vault.recall(m, 10), repeat)
            )
            out["turn query alone"].append(
                _kit.time_call(lambda t=terms: store.search(t, limit=TURN_DEPTH), repeat)
            )
            config.write_text("[recall]\nturns = false\n")
            out["recall, turns off"].append(
                _kit.time_call(lambda m=message: vault.recall(m, 10), repeat)
            )
            config.unlink()
    finally:
        config.unlink(missing_ok=True)
    for message in asks:
        words = [w.lower() for w in re.findall(r"[A-Za-z][\w'-]+", message) if len(w) > 3]
        query = fts_any(words or ["note"])
        out["plain FTS5 query"].append(
            _kit.time_call(lambda q=query: conn.execute(PLAIN, (q,)).fetchall(), repeat)
        )
    return out


def bench(source: Path, work: Path, args: Any) -> dict[str, Any]:
    """Everything above over one copy of a generated vault."""
    target = work / "turns" / source.name
    if not (args.reuse and (target / ".tota").exists()):
        _kit.copy_vault(source, target)
    with Vault.open(target) as vault:
        vault.sync()
        conn = _kit.index_sql(vault)
        kept_fill = args.keep_turns and conn.execute(SYNTHETIC).fetchone()[0] == args.turns
        fill_s: float | None = None
        before = after = 0
        sizes: dict[str, int] = {}
        memories = vault.stats()["memories"]
        texts = statements(conn)
        if kept_fill:
            _kit.log(f"keeping the {args.turns:,} turns a previous run filled")
            with vault.open_index().write() as write:
                write.execute(NOT_SYNTHETIC)
        else:
            index = vault.open_index()
            index.turns().clear()  # a reused copy starts with no turns
            index.vacuum()
            index.checkpoint()
            before = vault.index_path.stat().st_size
            _kit.log(f"keeping {args.turns:,} turns beside {memories:,} memories")
            fill_s = fill(vault, texts, args.turns, args.seed)
            vault.open_index().checkpoint()
            after = vault.index_path.stat().st_size
            sizes = {k: v for k, v in table_sizes(vault).items() if k.startswith("turns")}
        _kit.log("observe, turns on and off")
        observe_s = observe_costs(vault, texts, args.observes)
        asks = _kit.requests(_kit.index_sql(vault), args.messages)
        _kit.log(f"recall over {len(asks)} messages")
        latency = recall_latency(vault, asks, args.repeat)
        kept = vault.open_index().turns().counts()["turns"]
    per = max(1, args.turns)
    on = _kit.summary(observe_s["turns on"], scale=1000, digits=2)
    off = _kit.summary(observe_s["turns off"], scale=1000, digits=2)
    timed = {name: _kit.summary(v, scale=1000, digits=2) for name, v in latency.items()}
    return {
        "memories": memories,
        "turns": kept,
        "fill_seconds": None if fill_s is None else round(fill_s, 1),
        "index_bytes_before": before,
        "index_bytes_after": after,
        "bytes_per_turn": None if fill_s is None else round((after - before) / per, 1),
        "table_bytes": sizes,
        "observe_ms": {"turns on": on, "turns off": off},
        "observe_cost_ms_p50": round(on["p50"] - off["p50"], 2),
        "recall_ms": timed,
        "ratio_p95_to_plain": _kit.ratio(
            timed["recall with turns"]["p95"], timed["plain FTS5 query"]["p95"]
        ),  # fmt: skip
        "target_p95_met": timed["recall with turns"]["p95"] < TARGET_P95_MS,
    }


def report(r: dict[str, Any]) -> str:
    """The tables docs/benchmarks.md quotes."""
    mb = 1024 * 1024
    if r["fill_seconds"] is None:
        size = f"{r['memories']:,} memories, {r['turns']:,} turns (kept from a previous run)"
    else:
        size = _kit.table(
            ("memories", "turns", "index before", "index after", "per turn", "keeping them"),
            [(f"{r['memories']:,}", f"{r['turns']:,}", f"{r['index_bytes_before'] / mb:.0f} MB",
              f"{r['index_bytes_after'] / mb:.0f} MB", f"{r['bytes_per_turn']:.0f} B",
              f"{r['fill_seconds']} s")],
        )  # fmt: skip
    obs = r["observe_ms"]
    observe = _kit.table(
        ("observe (10 messages)", "p50", "p95"),
        [(name, f"{v['p50']} ms", f"{v['p95']} ms") for name, v in obs.items()],
    )
    recall = _kit.table(
        ("query", "p50", "p95"),
        [(name, f"{v['p50']} ms", f"{v['p95']} ms") for name, v in r["recall_ms"].items()],
    )
    met = "met" if r["target_p95_met"] else "NOT met"
    return (
        f"{size}\n\n{observe}\n\nkeeping a 10-message conversation's turns: "
        f"{r['observe_cost_ms_p50']} ms at p50\n\n{recall}\n\nrecall p95 / plain FTS5 p95: "
        f"{r['ratio_p95_to_plain']:.2f}×; p95 < {TARGET_P95_MS:.0f} ms: {met}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = _kit.parser(__doc__)
    _kit.add_vaults(parser, default=(100_000,))
    parser.add_argument("--turns", type=int, default=1_000_000)
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3, help="calls per message (median)")
    parser.add_argument("--observes", type=int, default=20, help="observes each, on and off")
    parser.add_argument("--seed", type=int, default=_kit.SEED)
    parser.add_argument(
        "--reuse", action="store_true",
        help="use the synced copy a previous run left in --work (its turns are cleared first)",
    )  # fmt: skip
    parser.add_argument(
        "--keep-turns", action="store_true",
        help="with --reuse: keep the copy's turns when it holds --turns synthetic ones (no fill)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    results = {}
    for vault in _kit.vaults(args):
        _kit.log(f"turns over {vault}")
        results[str(vault)] = bench(vault, args.work, args)
        print(report(results[str(vault)]))
    _kit.write_result(args.out, "turns", {"vaults": results})
    return 0


if __name__ == "__main__":
    sys.exit(main())
