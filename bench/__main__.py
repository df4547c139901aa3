"""`python -m bench` lists the entries; `python -m bench ENTRY [options]` runs one."""

from __future__ import annotations

import importlib
import sys

from bench import ENTRIES


def main(argv: list[str] | None = None) -> int:
    """List the suite's entries, or run the one named first with the remaining arguments."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python -m bench ENTRY [options]   (python -m bench ENTRY --help)\n")
        for name, figure in ENTRIES.items():
            print(f"  {name:8} {figure}")
        print(
            "\nprobes (investigations, not reported figures): bench.probes.search, "
            "bench.probes.profile_sync\nquality on real conversations: bench.quality.locomo"
        )
        return 0
    name, rest = argv[0], argv[1:]
    if name not in ENTRIES:
        print(f"bench: no entry {name!r}; one of {', '.join(ENTRIES)}", file=sys.stderr)
        return 2
    module = importlib.import_module(f"bench.{name}")
    sys.argv = [f"bench.{name}", *rest]
    return module.main(rest)


if __name__ == "__main__":
    sys.exit(main())
