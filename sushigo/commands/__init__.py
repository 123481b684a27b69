"""One module per ``sushigo`` sub-command; each defines ``register(subparsers)``.

Modules are discovered automatically (:func:`sushigo.cli.build_parser`); a
module-level ``ORDER`` integer sets its place in ``sushigo --help``.
"""
