"""What `tota doctor`'s index check costs: `PRAGMA integrity_check` against `quick_check`.

    .venv/bin/python -m bench.integrity --size 10000 --size 100000

For each size it takes the generated vault (`bench._kit.generated_vault`), syncs it into a
fresh index, and times both pragmas, doctor's query for a repeated path and a whole
`Vault.doctor()` (best of `--repeat` runs, warm cache), printing the seconds and
integrity_check's cost as a ratio to quick_check's measured in the same run. doctor runs
integrity_check because quick_check does not compare an index with its table: a damaged
path index passes quick_check (see docs/benchmarks.md).
"""

from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path

from bench import _kit
from tota_vault import Vault
from tota_vault.index import REPEATED_PATHS
from tota_vault.paths import index_path


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


def measure(source: Path, folder: Path, repeat: int) -> dict[str, float]:
    vault_dir = _kit.copy_vault(source, folder / f"integrity-{source.name}")
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
    parser = _kit.parser(__doc__)
    _kit.add_vaults(parser, default=(10_000, 100_000))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    results = {}
    print("vault    quick_check  integrity_check  ratio  repeated paths  whole doctor")
    for source in _kit.vaults(args):
        r = measure(source, args.work, args.repeat)
        ratio = r["integrity_check"] / r["quick_check"]
        results[source.name] = {**r, "ratio": ratio}
        print(
            f"{source.name:>12}  {r['quick_check']:>9.3f} s  {r['integrity_check']:>13.3f} s  "
            f"{ratio:>4.1f}x  {r['repeated_paths']:>12.3f} s  {r['doctor']:>10.3f} s"
        )
    _kit.write_result(args.out, "integrity", {"vaults": results})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
