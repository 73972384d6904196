"""Never answers the targeted request (sleeps forever)."""
from _base import hang, log, serve


def sabotage(msg, answer, args):
    log(f"hang.py: hanging on {msg['id']}")
    hang()


serve(sabotage)
