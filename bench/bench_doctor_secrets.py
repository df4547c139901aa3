"""What the doctor's secret scan adds to `tota doctor`, on a generated vault.

    python bench/gen_vault.py 10000 /tmp/tota-bench/vault-10000 --seed 7
    python bench/bench_doctor_secrets.py /tmp/tota-bench/vault-10000 --runs 5

The vault is synced first (untimed). Then, interleaved run by run so both see the same machine
load: `diagnose` as a whole (the secret scan included), and `find_stored_secrets` alone. The
figures are medians in milliseconds, and the scan's share of the whole doctor run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from tota_vault import Vault
from tota_vault.doctor import diagnose, find_stored_secrets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("vault", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with Vault.open(args.vault) as vault:
        vault.sync()
        whole: list[float] = []
        scan: list[float] = []
        found = 0
        for _ in range(args.runs):
            started = time.perf_counter()
            diagnose(vault.root, vault.index)
            whole.append(time.perf_counter() - started)
            started = time.perf_counter()
            found = len(find_stored_secrets(vault.index))
            scan.append(time.perf_counter() - started)
        notes = vault.index.conn.execute("SELECT count(*) FROM notes").fetchone()[0]
    whole_ms = statistics.median(whole) * 1000
    scan_ms = statistics.median(scan) * 1000
    print(f"{notes:,} notes, {found} holding a secret")
    print("| run | median ms |\n| --- | --- |")
    print(f"| diagnose (whole doctor) | {whole_ms:.0f} |")
    print(f"| find_stored_secrets | {scan_ms:.0f} ({scan_ms / whole_ms:.0%} of the whole) |")


if __name__ == "__main__":
    main()
