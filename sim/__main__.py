"""``python -m sim`` is the ``cavesim`` command."""

from sim.cli import main

if __name__ == "__main__":  # not when a worker process (spawn) imports this module again
    raise SystemExit(main())
