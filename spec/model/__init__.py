"""The rules of Sushi Go! as declarative Z3 constraints.

Every constraint group carries a rule id (``R-MAKI-TIE-FIRST``...), so unsat
cores name the rules involved. Only this package and :mod:`solver` import z3.
"""

