"""``python -m sim`` is the ``cavesim`` command."""

from sim.cli import main

raise SystemExit(main())
