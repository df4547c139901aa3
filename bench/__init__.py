"""tota's benchmark suite: one entry per figure docs/benchmarks.md reports.

Run from the repository root with the project's interpreter, e.g.
`.venv/bin/python -m bench.recall --size 10000`; `.venv/bin/python -m bench` lists the entries.
Every entry measures tota beside a baseline in the same run, prints its figures with the ratio,
and writes `bench/out/<entry>.json`. Shared machinery is in `bench._kit`. `bench.probes` holds
investigations (one-off profiles), `bench.quality` the evaluation on real conversations: neither
is a speed figure.
"""

from __future__ import annotations

#: The entries, by module name, with the figure each reports (the section of docs/benchmarks.md).
ENTRIES: dict[str, str] = {
    "sync": "cold sync, re-sync, search, --help and peak RSS at 10k and 100k notes",
    "watch": "the daemon: edit-to-searchable, a git checkout, idle CPU and RSS at 100k",
    "observe": "learning throughput: messages per second and the merge look-up",
    "recall": "recall latency and reflect at 10k and 100k",
    "menu": "the memory manager's start and short ids",
    "mcp": "the MCP server's start and a recall through MCP",
    "hook": "Claude Code hooks as whole processes",
    "capped": "what keeping capped-out sources costs a confirmation",
    "llm": "the LLM extractor's own cost against the rules (a stand-in model on 127.0.0.1)",
    "integrity": "doctor's index check: integrity_check against quick_check",
    "doctor_secrets": "what the doctor's scan for stored secrets adds to tota doctor",
    "startup": "`tota search` as a process against a bare sqlite3 process running the same query",
    "maintain": "`tota decay` and `tota reflect` against a no-change sync of the same vault",
    "dryrun": "`tota extract --dry-run` against the real run of the same chat: CPU, outcomes",
    "turns": "conversation turns: size, cost per observe and recall p95 at 100k memories, 1M turns",
}
