"""What keeping capped-out sources in `.tota-sources/` costs a confirmation (capped.py).

    .venv/bin/python -m bench.capped --lines 0 10000 100000 --runs 20

For each size N, a fresh vault holds three memories: two confirmed 30 times (their notes are
capped: every further confirmation drops one source from the list and appends it to the
memory's file in `.tota-sources/`) and one confirmed once (never capped during the run).
Then `.tota-sources/` gets N lines of other memories, 1,000 to a file (what a vault with many
hot facts accumulates), and N more in the file of one of the two capped memories (a fact
confirmed N times), and is synced untimed. Then, interleaved run by run so all see the same
machine load:

- **baseline**: `Vault.observe` of a new message confirming the uncapped memory (a merge);
- **capped**: the same for the capped memory with a small file (a merge whose cap drops one
  source: the append, an atomic rewrite of that memory's file, comes on top);
- **capped, N own**: the same for the capped memory whose own file holds N lines;
- **re-read**: observing a message whose source the cap dropped long ago (the "already
  observed" check through the index's copy of the files: a skip, nothing written).

Median and p95 wall time per `observe` call (`time.perf_counter`), and each median's ratio to
the baseline's. Results go to stdout as a Markdown table and to bench/out/capped.json.
"""

from __future__ import annotations

import platform
import shutil
import sqlite3
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from bench import _kit
from tota_vault import Vault
from tota_vault.capped import CAPPED_DIR, HEADER
from tota_vault.extract.messages import Message
from tota_vault.model import new_id

HOT = "I prefer Neovim over VS Code."
BIG = "I am allergic to peanuts."
COLD = "I usually go for a run every morning."


def say(text: str) -> list[Message]:
    return [Message(role="user", content=text, id="1", timestamp=datetime(2024, 3, 1, 9))]


def timed(vault: Vault, text: str, conversation: str, expected: str) -> float:
    started = time.perf_counter()
    report = vault.observe(say(text), conversation_id=conversation)
    seconds = time.perf_counter() - started
    actions = [o.action for o in report.outcomes]
    assert actions == [expected], (conversation, actions)
    return seconds


def stats(samples: list[float]) -> dict[str, float]:
    return {
        "median_ms": _kit.median(samples) * 1000,
        "p95_ms": _kit.percentile(samples, 0.95) * 1000,
    }


def run(lines: int, runs: int, work: Path) -> dict[str, Any]:
    root = work / f"capped-{lines}"
    shutil.rmtree(root, ignore_errors=True)
    Vault(root).init()
    with Vault.open(root) as vault:
        for i in range(30):
            vault.observe(say(HOT), conversation_id=f"hot{i}")
            big = vault.observe(say(BIG), conversation_id=f"big{i}").outcomes[0].path
        vault.observe(say(COLD), conversation_id="cold0")
        assert big is not None
        big_id = vault.open_index().get(path=big)[0].memory_id
    folder = root / CAPPED_DIR
    # Other memories' capped-out sources, as a vault with many hot facts accumulates them.
    for start in range(0, lines, 1000):
        lines_of = (f"chat-{i:07}#{i % 40}\n" for i in range(start, min(start + 1000, lines)))
        (folder / new_id()).write_text(HEADER + "".join(lines_of), "utf-8")
    with (folder / big_id).open("a", encoding="utf-8") as handle:
        handle.write("".join(f"old-{i:07}#1\n" for i in range(lines)))
    labels = ("baseline", "capped", f"capped, {lines:,} own", "re-read")
    samples: dict[str, list[float]] = {name: [] for name in labels}
    with Vault.open(root) as vault:
        vault.sync()  # loads the files into the index, untimed
        for r in range(runs):
            samples[labels[0]].append(timed(vault, COLD, f"cold-run{r}", "merge"))
            samples[labels[1]].append(timed(vault, HOT, f"hot-run{r}", "merge"))
            samples[labels[2]].append(timed(vault, BIG, f"big-run{r}", "merge"))
            samples[labels[3]].append(timed(vault, HOT, f"hot{5 + r % 5}", "skip"))
    size = sum(p.stat().st_size for p in folder.iterdir())
    out = {name: stats(s) for name, s in samples.items()}
    base = out["baseline"]["median_ms"]
    for name in out:
        out[name]["ratio"] = out[name]["median_ms"] / base
    return {"lines": lines, "file_bytes": size, "runs": runs, "results": out}


def main(argv: list[str] | None = None) -> int:
    parser = _kit.parser(__doc__)
    parser.add_argument("--lines", type=int, nargs="+", default=[0, 10_000, 100_000])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args(argv)
    if args.runs > 24:
        parser.error("--runs at most 24: the baseline memory must stay under the cap")
    args.work.mkdir(parents=True, exist_ok=True)
    report = {
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "when": datetime.now().isoformat(timespec="seconds"),
        "sizes": [run(n, args.runs, args.work) for n in args.lines],
    }
    print("| N (bytes in .tota-sources/) | observe | median ms | p95 ms | x baseline |")
    print("| --- | --- | ---: | ---: | ---: |")
    for size in report["sizes"]:
        for name, figures in size["results"].items():
            print(
                f"| {size['lines']:,} ({size['file_bytes']:,}) | {name} | "
                f"{figures['median_ms']:.2f} | {figures['p95_ms']:.2f} | {figures['ratio']:.2f} |"
            )
    _kit.write_result(args.out, "capped", report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
