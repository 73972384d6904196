"""`python -m fives.cli`: the `fives` command (as `python -m fives`)."""
from . import main

main(prog_name="fives")
