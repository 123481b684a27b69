"""The ``sushigo`` command-line program: a thin front over spec, solver and checks."""
