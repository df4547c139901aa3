"""What `tota doctor`'s index check costs: `PRAGMA integrity_check` against `quick_check`.

    python bench/bench_integrity.py 10000 100000 --dir /tmp/tota-bench

For each size it generates a vault (`gen_vault.py`, reused when present), syncs it into a
fresh index, and times both pragmas, doctor's query for a repeated path and a whole
`Vault.doctor()` (best of `--repeat` runs, warm cache), printing the seconds and
integrity_check's cost as a ratio to quick_check's measured in the same run. doctor runs
integrity_check because quick_check does not compare an index with its table: a damaged
path index passes quick_check (see docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tota_vault import Vault  # noqa: E402
from tota_vault.index import REPEATED_PATHS  # noqa: E402
from tota_vault.paths import index_path  # noqa: E402


def best(seconds: list[float]) -> float:
    return min(seconds)


def timed(conn: sqlite3.Connection, pragma: str, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = conn.execute(f"PRAGMA {pragma}").fetchall()
        runs.append(time.perf_counter() - start)
        assert result == [("ok",)], result
    return best(runs)


def measure(n: int, folder: Path, repeat: int) -> dict[str, float]:
    vault_dir = folder / f"vault-{n}"
    if not vault_dir.exists():
        gen = Path(__file__).with_name("gen_vault.py")
        subprocess.run([sys.executable, str(gen), str(n), str(vault_dir)], check=True)
    shutil.rmtree(vault_dir / ".tota", ignore_errors=True)
    with Vault.open(vault_dir) as vault:
        vault.sync()
    conn = sqlite3.connect(index_path(vault_dir))
    quick = timed(conn, "quick_check", repeat)
    full = timed(conn, "integrity_check", repeat)
    repeated = []
    for _ in range(repeat):
        start = time.perf_counter()
        assert conn.execute(REPEATED_PATHS).fetchall() == []
        repeated.append(time.perf_counter() - start)
    conn.close()
    doctor = []
    with Vault.open(vault_dir) as vault:
        for _ in range(repeat):
            start = time.perf_counter()
            vault.doctor()
            doctor.append(time.perf_counter() - start)
    return {
        "quick_check": quick,
        "integrity_check": full,
        "repeated_paths": best(repeated),
        "doctor": best(doctor),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes", type=int, nargs="+", help="numbers of notes")
    parser.add_argument("--dir", type=Path, default=Path("/tmp/tota-bench"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print("notes    quick_check  integrity_check  ratio  repeated paths  whole doctor")
    for n in args.sizes:
        r = measure(n, args.dir, args.repeat)
        ratio = r["integrity_check"] / r["quick_check"]
        print(
            f"{n:>7}  {r['quick_check']:>9.3f} s  {r['integrity_check']:>13.3f} s  "
            f"{ratio:>4.1f}x  {r['repeated_paths']:>12.3f} s  {r['doctor']:>10.3f} s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
