"""What the MCP face costs: `tota mcp`'s start, and a recall through MCP against the library call.

    python bench/bench_mcp.py --vault /tmp/tota-bench/vault-10000

The vault is copied (the original stays as generated) and synced, untimed.

- Start: spawning `tota mcp` with the SDK's stdio client until the protocol handshake is done
  (median of 5), against the baseline every command pays, `tota path` as a process (median of
  5). And the import alone: `import tota_vault.cli` (what other commands import) against
  `import tota_vault.mcp_server` (median of 5, each in a fresh interpreter).
- A call: the same messages as bench_recall.py (drawn from the vault's notes, phrased as
  requests), each recalled by `Vault.recall` (the baseline), by `call_tool("recall")` on an
  in-process server, and on a spawned stdio server; p50 and p95 over the messages.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_recall import messages, percentile  # noqa: E402
from mcp import Client, StdioServerParameters  # noqa: E402

from tota_vault import Vault  # noqa: E402
from tota_vault.mcp_server import create_server  # noqa: E402

TOTA = str(Path(sys.executable).parent / "tota")


def _median_seconds(fn, repeat: int = 5) -> float:  # type: ignore[no-untyped-def]
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs)


def _stdio(vault: Path) -> StdioServerParameters:
    env = {"TOTA_VAULT": str(vault), "TOTA_HOME": str(vault.parent / "home")}
    return StdioServerParameters(command=TOTA, args=["mcp"], env=env)


async def _handshake(vault: Path) -> None:
    async with Client(_stdio(vault)) as client:
        assert client.protocol_version


async def _calls(client: Client, asks: list[str]) -> list[float]:
    out = []
    for message in asks:
        t0 = time.perf_counter()
        result = await client.call_tool("recall", {"message": message, "limit": 10})
        out.append(1000 * (time.perf_counter() - t0))
        assert not result.is_error, result.content
    return out


async def _through(server: object, asks: list[str]) -> list[float]:
    async with Client(server) as client:  # type: ignore[arg-type]
        await client.call_tool("recall", {"message": "warm up", "limit": 10})
        return await _calls(client, asks)


def _summary(values: list[float]) -> dict[str, float]:
    return {"p50": round(statistics.median(values), 2), "p95": round(percentile(values, 0.95), 2)}


def bench(source: Path, work: Path, count: int) -> dict[str, object]:
    target = work / source.name
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(".tota"))
    with Vault.open(target) as vault:
        vault.sync()
        asks = messages(vault, count)
        direct = []
        for message in asks:
            t0 = time.perf_counter()
            vault.recall(message, 10)
            direct.append(1000 * (time.perf_counter() - t0))
    env = {**os.environ, "TOTA_VAULT": str(target)}

    def run(*argv: str) -> None:
        subprocess.run(argv, env=env, check=True, capture_output=True)

    start = _median_seconds(lambda: asyncio.run(_handshake(target)))
    cli = _median_seconds(lambda: run(TOTA, "path"))
    import_cli = _median_seconds(lambda: run(sys.executable, "-c", "import tota_vault.cli"))
    import_mcp = _median_seconds(lambda: run(sys.executable, "-c", "import tota_vault.mcp_server"))
    in_process = asyncio.run(_through(create_server(target), asks))
    stdio = asyncio.run(_through(_stdio(target), asks))
    return {
        "messages": len(asks),
        "start_mcp_s": round(start, 3),
        "start_cli_path_s": round(cli, 3),
        "import_cli_s": round(import_cli, 3),
        "import_mcp_server_s": round(import_mcp, 3),
        "recall_direct_ms": _summary(direct),
        "recall_mcp_in_process_ms": _summary(in_process),
        "recall_mcp_stdio_ms": _summary(stdio),
        "ratio_stdio_to_direct_p50": round(statistics.median(stdio) / statistics.median(direct), 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vault", type=Path, action="append", required=True)
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--work", type=Path, default=Path("/tmp/tota-bench/mcp"))
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "mcp.json")
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    results = {str(v): bench(v, args.work, args.messages) for v in args.vault}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1))
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
