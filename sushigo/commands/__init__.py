"""One module per ``sushigo`` sub-command, named as the command; each defines ``HELP`` (its line
in ``sushigo --help``), ``register(subparsers)`` and the ``run(args)`` that ``register`` sets.

Modules are discovered automatically (:func:`sushigo.cli.build_parser`); a module-level
``ORDER`` integer sets its place in ``sushigo --help``. Running a command imports only its
module; the top-level help imports none, reading every name and ``HELP`` from the table in
:mod:`sushigo.commands._index` (a new command or a changed ``HELP`` goes there too;
tests/test_startup.py fails until it does). At the top a module imports nothing heavier than
argparse, :mod:`sushigo.common` and its light :mod:`sushigo.api` module (start-up time); the
library is imported inside ``register`` and ``run``.
"""
