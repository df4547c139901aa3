"""What the MCP face costs: `tota mcp`'s start, and a recall through MCP against the library call.

    python -m bench.mcp --size 10000

The vault (`--size N`, generated if missing, or `--vault PATH`) is copied, so the original stays
as generated, and synced, untimed.

- Start: spawning `tota mcp` with the SDK's stdio client until the protocol handshake is done,
  against the baseline every command pays, `tota path` as a process; and the import alone,
  `import tota_vault.cli` (what other commands import) against `import tota_vault.mcp_server`,
  each in a fresh interpreter. Median of `--starts` (5), interleaved with the baseline.
- A call: the same messages as bench.recall (`_kit.requests`), each recalled by `Vault.recall`
  (the baseline), by `call_tool("recall")` on an in-process server, and on a spawned stdio
  server; p50 and p95 over the messages, and the ratio of the p50s to the baseline's.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from bench import _kit
from tota_vault import Vault
from tota_vault.mcp_server import create_server


def _stdio(vault: Path) -> StdioServerParameters:
    env = {"TOTA_VAULT": str(vault), "TOTA_HOME": str(vault.parent / "home")}
    return StdioServerParameters(command=_kit.tota_command(), args=["mcp"], env=env)


async def _handshake(vault: Path) -> None:
    async with Client(_stdio(vault)) as client:
        assert client.protocol_version


async def _through(server: object, asks: list[str]) -> list[float]:
    """Seconds of each recall through an MCP client (after one untimed warm-up call)."""
    async with Client(server) as client:  # type: ignore[arg-type]
        await client.call_tool("recall", {"message": "warm up", "limit": 10})
        out = []
        for message in asks:
            started = time.perf_counter()
            result = await client.call_tool("recall", {"message": message, "limit": 10})
            out.append(time.perf_counter() - started)
            if result.is_error:
                raise RuntimeError(f"recall through MCP failed: {result.content}")
        return out


def _timed(fn: Any) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def bench(source: Path, work: Path, count: int, starts: int) -> dict[str, Any]:
    """The start and per-call figures over one vault's copy."""
    target = _kit.copy_vault(source, work / "mcp" / source.name)
    with Vault.open(target) as vault:
        vault.sync()
        asks = _kit.requests(_kit.index_sql(vault), count)
        direct = [_kit.time_call(lambda m=m: vault.recall(m, 10)) for m in asks]
    env = {**os.environ, "TOTA_VAULT": str(target)}
    python, tota = sys.executable, _kit.tota_command()
    start = _kit.interleave(starts, {
        "tota path (baseline)": lambda: _kit.time_process([tota, "path"], env=env)[0],
        "tota mcp handshake": lambda: _timed(lambda: asyncio.run(_handshake(target))),
        "import tota_vault.cli (baseline)":
            lambda: _kit.time_process([python, "-c", "import tota_vault.cli"], env=env)[0],
        "import tota_vault.mcp_server":
            lambda: _kit.time_process([python, "-c", "import tota_vault.mcp_server"], env=env)[0],
    })  # fmt: skip
    in_process = asyncio.run(_through(create_server(target), asks))
    stdio = asyncio.run(_through(_stdio(target), asks))
    calls = {
        "Vault.recall (baseline)": _kit.summary(direct, scale=1000, digits=2),
        "in-process server (Client(server))": _kit.summary(in_process, scale=1000, digits=2),
        "spawned tota mcp over stdio": _kit.summary(stdio, scale=1000, digits=2),
    }
    base = calls["Vault.recall (baseline)"]["p50"]
    for figures in calls.values():
        figures["ratio_p50"] = _kit.ratio(figures["p50"], base)
    starts_s = {name: round(_kit.median(values), 3) for name, values in start.items()}
    return {
        "messages": len(asks),
        "recall_ms": calls,
        "start_s": starts_s,
        "start_ratio": _kit.ratio(starts_s["tota mcp handshake"], starts_s["tota path (baseline)"]),
        "import_ratio": _kit.ratio(
            starts_s["import tota_vault.mcp_server"], starts_s["import tota_vault.cli (baseline)"]
        ),
    }


def report(data: dict[str, Any]) -> str:
    """The two tables docs/benchmarks.md quotes."""
    calls = _kit.table(
        ("recall", "p50", "p95", "ratio to the baseline (p50)"),
        ((name, f"{r['p50']} ms", f"{r['p95']} ms", f"{r['ratio_p50']:.2f}")
         for name, r in data["recall_ms"].items()),
    )  # fmt: skip
    s = data["start_s"]
    start = _kit.table(
        ("start (median)", "seconds"),
        [
            ("`tota path` as a process (baseline)", s["tota path (baseline)"]),
            ("`tota mcp` until the handshake", f"{s['tota mcp handshake']} "
             f"({data['start_ratio']:.1f}×)"),
            ("`import tota_vault.cli` (baseline)", s["import tota_vault.cli (baseline)"]),
            ("`import tota_vault.mcp_server`", f"{s['import tota_vault.mcp_server']} "
             f"({data['import_ratio']:.1f}×)"),
        ],
    )  # fmt: skip
    return f"{calls}\n\n{start}"


def main(argv: list[str] | None = None) -> int:
    parser = _kit.parser(__doc__)
    _kit.add_vaults(parser, default=(10_000,))
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--starts", type=int, default=5, help="timed starts of each kind")
    args = parser.parse_args(argv)
    results = {}
    for vault in _kit.vaults(args):
        _kit.log(f"MCP over {vault}")
        results[str(vault)] = bench(vault, args.work, args.messages, args.starts)
        print(report(results[str(vault)]))
    _kit.write_result(args.out, "mcp", {"vaults": results})
    return 0


if __name__ == "__main__":
    sys.exit(main())
