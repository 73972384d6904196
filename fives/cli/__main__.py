"""`python -m fives.cli`: the `fives` command (as `python -m fives`)."""
from fives.cli import main

main(prog_name="fives")
