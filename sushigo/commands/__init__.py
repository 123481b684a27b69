"""One module per ``sushigo`` sub-command, named as the command; each defines ``HELP`` (its line
in ``sushigo --help``), ``register(subparsers)`` and the ``run(args)`` that ``register`` sets.

Modules are discovered automatically (:func:`sushigo.cli.build_parser`); a module-level
``ORDER`` integer sets its place in ``sushigo --help``. Running a command imports only its
module; the top-level help imports them all for their ``HELP``, so at the top a module imports
nothing heavier than argparse, :mod:`sushigo.common` and its light :mod:`sushigo.api` module
(start-up time, tests/test_startup.py); the library is imported inside ``register`` and ``run``.
"""
