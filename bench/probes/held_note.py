"""A note vim holds open under a running `tota watch -v`: what the daemon logs and costs while
it waits, and what `tota doctor` says, for each of several checkouts of tota, interleaved.

    .venv/bin/python -m bench.probes.held_note before=/tmp/base after=. --seconds 33 --rounds 2

An investigation for a review fix (docs/watch.md, "Review fixes"). Each checkout runs as its
own `python -m tota_vault` process with the checkout as its working folder (so its own
package is imported), on a fresh copy of the sample vault: a sync, then `tota watch -v` with
its default timing; once it watches, a swap file is put beside one note (as vim opening it)
and the note is edited (as vim's `:w`). For `--seconds` after the edit the probe counts the
daemon's `updated <note>` and `held by an editor` lines and the CPU time (user + sys, from
/proc) the daemon spent, then runs `tota doctor` and stops the daemon. Linux only (/proc).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

NOTE = "habit/Runs four mornings a week.md"
SAMPLE = Path(__file__).resolve().parents[2] / "sample-vault"


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (/proc/<pid>/stat, fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_once(checkout: Path, seconds: float, work: Path) -> dict[str, Any]:
    """One checkout, one held note: the daemon's lines and CPU while it waits, doctor's word."""
    vault = work / "vault"
    shutil.copytree(SAMPLE, vault)
    env = {**os.environ, "TOTA_HOME": str(work / "home"), "TOTA_VAULT": str(vault)}
    tota = [sys.executable, "-m", "tota_vault"]
    subprocess.run([*tota, "sync"], cwd=checkout, env=env, check=True, capture_output=True)
    log = work / "watch.log"
    with log.open("wb") as out:
        daemon = subprocess.Popen([*tota, "watch", "-v"], cwd=checkout, env=env, stderr=out,
                                  stdout=subprocess.DEVNULL)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while b"watching" not in log.read_bytes():
            if time.monotonic() > deadline or daemon.poll() is not None:
                raise RuntimeError(f"{checkout}: the daemon did not start: {log.read_text()}")
            time.sleep(0.05)
        path = vault / NOTE
        (path.parent / f".{path.name}.swp").write_bytes(b"b0VIM 9.0")  # vim opened it
        start_cpu, started = cpu_seconds(daemon.pid), time.monotonic()
        path.write_text(path.read_text("utf-8").replace("four", "five"), "utf-8")  # `:w`
        time.sleep(max(0.0, started + seconds - time.monotonic()))
        cpu = cpu_seconds(daemon.pid) - start_cpu
        lines = log.read_text("utf-8", errors="replace").splitlines()
        doctor = subprocess.run([*tota, "doctor"], cwd=checkout, env=env, capture_output=True,
                                text=True)  # fmt: skip
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=30)
    return {
        "updated_lines": sum(f"updated {NOTE}" in line for line in lines),
        "held_lines": sum(f"held by an editor: {NOTE}" in line for line in lines),
        "cpu_s": round(cpu, 3),
        "doctor_exit": doctor.returncode,
        "doctor_line": next((x for x in doctor.stdout.splitlines() if NOTE in x), ""),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+", help="label=path of a tota checkout")
    parser.add_argument("--seconds", type=float, default=33.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--out", type=Path, help="also write the results here as JSON")
    args = parser.parse_args(argv)
    checkouts = [(label, Path(path).resolve()) for label, _, path in
                 (c.partition("=") for c in args.checkouts)]  # fmt: skip
    results: list[dict[str, Any]] = []
    for round_ in range(args.rounds):
        for label, checkout in checkouts:  # interleaved: before, after, before, after, ...
            with tempfile.TemporaryDirectory(prefix="tota-held-") as work:
                found = run_once(checkout, args.seconds, Path(work))
            found = {"round": round_ + 1, "checkout": label, **found}
            results.append(found)
            print(json.dumps(found), flush=True)
    if args.out is not None:
        args.out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
