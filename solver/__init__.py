"""Questions answered with the Z3 model of :mod:`spec`."""
