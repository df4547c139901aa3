"""What the doctor's secret scan adds to `tota doctor`, on a generated vault.

    .venv/bin/python -m bench.doctor_secrets --size 10000 --runs 5

The vault is synced first (untimed). Then, interleaved run by run so both see the same machine
load: `diagnose` as a whole (the secret scan included), and `find_stored_secrets` alone. The
figures are medians in milliseconds, and the scan's share of the whole doctor run.
"""

from __future__ import annotations

import time

from bench import _kit
from tota_vault import Vault
from tota_vault.doctor import diagnose, find_stored_secrets


def main(argv: list[str] | None = None) -> int:
    parser = _kit.parser(__doc__)
    _kit.add_vaults(parser)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    (source,) = _kit.vaults(args)[:1]
    work = _kit.copy_vault(source, args.work / f"doctor-secrets-{source.name}")
    with Vault.open(work) as vault:
        vault.sync()
        index = vault.open_index()
        whole: list[float] = []
        scan: list[float] = []
        found = 0
        for _ in range(args.runs):
            started = time.perf_counter()
            diagnose(vault.root, index)
            whole.append(time.perf_counter() - started)
            started = time.perf_counter()
            found = len(find_stored_secrets(index))
            scan.append(time.perf_counter() - started)
        notes = _kit.index_sql(vault).execute("SELECT count(*) FROM notes").fetchone()[0]
    whole_ms = _kit.median(whole) * 1000
    scan_ms = _kit.median(scan) * 1000
    print(f"{notes:,} notes, {found} holding a secret")
    print("| run | median ms |\n| --- | --- |")
    print(f"| diagnose (whole doctor) | {whole_ms:.0f} |")
    print(f"| find_stored_secrets | {scan_ms:.0f} ({scan_ms / whole_ms:.0%} of the whole) |")
    _kit.write_result(
        args.out,
        "doctor_secrets",
        {"notes": notes, "found": found, "doctor_ms": whole_ms, "scan_ms": scan_ms},
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
