"""The public API, one module per command: each ``<command>_outcome`` function does what
``sushigo <command>`` does and returns an :class:`~sushigo.api.base.Outcome` (the JSON document,
the exit code, the values the tables are drawn from); ``sushigo.<command>`` returns just the
document. Import the public names from :mod:`sushigo` (docs/api.md)."""
