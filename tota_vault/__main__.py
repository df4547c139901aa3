"""`python -m tota_vault` runs the CLI."""

from .cli import main

main()
