#!/usr/bin/env bash
# Type-check the package as it installs: mypy -p sushigo with the settings in pyproject.toml, over
# a temporary tree of symlinks shaped like the installed package (setup.py's ROOTS put spec/,
# solver/ and checks/ inside sushigo/; mypy reads a package from folders, not from setup.py).
# Exits non-zero on any error. Arguments go to mypy.
#
# PYTHON names an interpreter with mypy, the [dev] extra and numpy (spec/batch.py is checked
# against numpy's types) and the package's dependencies; default python3. The optional extras
# (plot, dask, pettingzoo, openspiel) are left out: pyproject reads their modules as Any.
#   PYTHON=/path/to/venv/bin/python tools/typecheck.sh
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
if [[ "$python" == */* ]]; then  # a relative path must survive the cd below (kept unresolved: a venv)
    python="$(cd "$(dirname "$python")" && pwd)/$(basename "$python")"
fi
tree="$(mktemp -d "${TMPDIR:-/tmp}/sushigo-types.XXXXXX")"
trap 'rm -rf "$tree"' EXIT

"$python" - "$repo" "$tree" <<'EOF'
import ast
import os
import sys

repo, tree = sys.argv[1:]
with open(os.path.join(repo, "setup.py")) as fh:
    module = ast.parse(fh.read())
roots = next(
    ast.literal_eval(node.value)
    for node in module.body
    if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "ROOTS" for t in node.targets)
)
for name in sorted(roots, key=lambda n: n.count(".")):
    folder = os.path.join(repo, roots[name])
    dest = os.path.join(tree, *name.split("."))
    if any(other.startswith(name + ".") for other in roots):
        # other roots go inside this one: a real folder holding a link per entry
        os.makedirs(dest)
        for entry in os.listdir(folder):
            if entry != "__pycache__":
                os.symlink(os.path.join(folder, entry), os.path.join(dest, entry))
    else:
        os.symlink(folder, dest)  # FileExistsError if the folder above has an entry of this name
EOF

cd "$tree"
"$python" -m mypy --version
"$python" -m mypy --config-file "$repo/pyproject.toml" --cache-dir "$tree/.mypy_cache" -p sushigo "$@"
