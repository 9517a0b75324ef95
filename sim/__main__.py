"""``python -m sim`` is the ``cavesim`` command."""

import sys

try:
    from sim.cli import main  # in the try: Ctrl-C during the import itself is one line too
except KeyboardInterrupt:  # Ctrl-C while Python is still importing: one line, exit 130
    print("cavesim: interrupted", file=sys.stderr)
    raise SystemExit(130) from None

if __name__ == "__main__":  # not when a worker process (spawn) imports this module again
    raise SystemExit(main())
