"""`python -m tota_vault` runs the CLI; `python -m tota_vault merge-driver ...` is what git runs.

The merge driver skips the CLI (and typer) entirely; `search` and `hook` skip typer too
(cli_fast): git starts it once per conflicting note.
"""

import sys

if sys.argv[1:2] == ["merge-driver"]:
    from .gitdriver import main as merge_driver

    sys.exit(merge_driver(sys.argv[2:]))

from .cli_fast import main

main()
