"""`python -m fives`: the `fives` command."""
from .cli import main

main(prog_name="fives")
