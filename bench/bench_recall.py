"""Recall speed: `Vault.recall` latency at 10k and 100k memories, and `reflect` over 100k.

    python bench/bench_recall.py --vault /tmp/tota-bench/vault-10000 \
        --vault /tmp/tota-bench/vault-100000

Each vault is copied (the original stays as generated) and synced, untimed. The messages are
drawn deterministically from the vault's own notes: a sentence of a random note, rewritten as a
question or a request the way a person would ask ("Can you remind me about ...?"), so the
words are realistic and most messages have matches. Each of 200 messages is recalled 3 times
and its median counts; p50 and p95 are over the messages. Baseline in the same run: a plain
`tota search` of the same words (one FTS5 query, no re-ranking), so the ratio is what the
ranking costs. Then `tota reflect` over the whole vault, timed once (first run, and a second
run that should find nothing to change).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tota_vault import QueryError, Vault  # noqa: E402

FRAMES = [
    "Can you remind me about {}?",
    "What do you know about {}?",
    "I was thinking about {} again.",
    "Help me plan something around {}.",
    "{}?",
]


def messages(vault: Vault, count: int, seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    rows = vault.index.conn.execute(
        "SELECT text FROM notes WHERE error IS NULL AND type IS NOT NULL ORDER BY id"
    ).fetchall()
    out = []
    for _ in range(count):
        text = rng.choice(rows)[0]
        words = re.findall(r"[A-Za-z][\w'-]+", text)
        if len(words) < 3:
            continue
        start = rng.randrange(0, max(1, len(words) - 4))
        phrase = " ".join(words[start : start + rng.randint(2, 5)])
        out.append(rng.choice(FRAMES).format(phrase))
    return out


def timed(fn, repeat: int = 3) -> float:  # type: ignore[no-untyped-def]
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bench(source: Path, work: Path, count: int) -> dict[str, object]:
    target = work / source.name
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(".tota"))
    with Vault.open(target) as vault:
        vault.sync()
        memories = vault.stats()["memories"]
        asks = messages(vault, count)
        recall_ms, search_ms = [], []
        for message in asks:
            recall_ms.append(1000 * timed(lambda m=message: vault.recall(m, 10)))
            words = " ".join(w for w in re.findall(r"[\w'-]+", message) if len(w) > 3) or "note"

            def search(w: str = words) -> None:
                try:
                    vault.search(w.replace(" ", " OR "), raw=True, limit=10)
                except QueryError:
                    pass

            search_ms.append(1000 * timed(search))
        t0 = time.perf_counter()
        first = vault.reflect()
        reflect_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        second = vault.reflect()
        again_s = time.perf_counter() - t0
    return {
        "memories": memories,
        "messages": len(asks),
        "recall_p50_ms": round(statistics.median(recall_ms), 2),
        "recall_p95_ms": round(percentile(recall_ms, 0.95), 2),
        "search_p50_ms": round(statistics.median(search_ms), 2),
        "search_p95_ms": round(percentile(search_ms, 0.95), 2),
        "reflect_seconds": round(reflect_s, 2),
        "reflections_written": len(first.created),
        "reflect_again_seconds": round(again_s, 2),
        "reflect_again_changes": len(second.created) + len(second.updated),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vault", type=Path, action="append", required=True)
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--work", type=Path, default=Path("/tmp/tota-bench/recall"))
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "recall.json")
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    results = {str(v): bench(v, args.work, args.messages) for v in args.vault}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1))
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
