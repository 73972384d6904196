"""`python -m fives`: the `fives` command."""
from fives.cli import main

main(prog_name="fives")
