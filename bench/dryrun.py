"""`tota extract --dry-run` against the real run of the same transcript: CPU and outcomes.

    .venv/bin/python -m bench.dryrun --messages 4000 [--messages 12000]

A dry run predicts what a real run would do, merges within the conversation included, so it
decides each candidate against what it imagined so far (tota_vault/overlay.py). Each size is a
synthetic chat (`bench.observe.message_stream`: user facts, repeats, questions and replies)
learned into a fresh vault twice: once with `dry_run=True`, once for real, each timed by CPU
(`time.process_time`). The real run is the baseline: a dry run writes nothing, so it should
cost less, and its cost should grow with the messages, not with their square. The outcomes of
the two runs must be the same, candidate for candidate (the entry fails otherwise).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from bench import _kit
from bench.observe import message_stream
from tota_vault import Vault


def _learn(messages: list, *, dry_run: bool) -> tuple[float, list[tuple[str, str, str | None]]]:
    """CPU seconds of one `observe` over `messages` in a fresh vault, and its outcomes."""
    root = Path(tempfile.mkdtemp(prefix="tota-dryrun-")) / "vault"
    try:
        with Vault.open(root) as vault:
            vault.open_index()
            start = time.process_time()
            report = vault.observe(iter(messages), conversation_id="bench", dry_run=dry_run)
            cpu = time.process_time() - start
    finally:
        shutil.rmtree(root.parent, ignore_errors=True)
    return cpu, [(o.action, o.text, o.path) for o in report.outcomes]


def bench(sizes: list[int]) -> dict[str, dict[str, float | int]]:
    figures: dict[str, dict[str, float | int]] = {}
    for size in sizes:
        messages = message_stream(size)
        dry_cpu, dry = _learn(messages, dry_run=True)
        real_cpu, real = _learn(messages, dry_run=False)
        if dry != real:
            raise SystemExit(f"bench.dryrun: the dry run of {size} messages predicted otherwise")
        figures[str(size)] = {
            "messages": size,
            "outcomes": len(real),
            "dry_cpu_s": round(dry_cpu, 3),
            "real_cpu_s": round(real_cpu, 3),
            "ratio": _kit.ratio(dry_cpu, real_cpu),
        }
        _kit.log(f"{size} messages: dry {dry_cpu:.2f} s, real {real_cpu:.2f} s of CPU")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = _kit.parser(__doc__)
    parser.add_argument("--messages", type=int, action="append", help="repeatable; 4000 by default")
    args = parser.parse_args(argv)
    figures = bench(args.messages or [4000])
    print(_kit.table(
        ["messages", "outcomes", "dry run CPU", "real run CPU", "dry / real"],
        [[f["messages"], f["outcomes"], _kit.fmt_seconds(float(f["dry_cpu_s"])),
          _kit.fmt_seconds(float(f["real_cpu_s"])), f"{f['ratio']}×"] for f in figures.values()],
    ))  # fmt: skip
    _kit.write_result(args.out, "dryrun", {"sizes": figures})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
