"""Package layout: one import package, ``sushigo``.

The repository keeps the product's layout (spec/, solver/, checks/ at the top); installed,
they are ``sushigo.spec``, ``sushigo.solver`` and ``sushigo.checks``. Every subpackage below
each root is found here, so a new folder with an ``__init__.py`` can never be left out of the
wheel. Everything else about the distribution is in pyproject.toml.
"""

from setuptools import find_packages, setup

ROOTS = {
    "sushigo": "sushigo",
    "sushigo.spec": "spec",
    "sushigo.solver": "solver",
    "sushigo.checks": "checks",
}

packages = []
for name, folder in ROOTS.items():
    packages.append(name)
    packages.extend(f"{name}.{sub}" for sub in find_packages(folder))

setup(packages=sorted(set(packages)), package_dir=ROOTS)
