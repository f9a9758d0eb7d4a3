#!/usr/bin/env bash
# Create the peer's own virtual environment (TVM TIRx from PyPI) under bench/.venv-tirx.
# Idempotent: does nothing when the venv already imports tvm_tirx at the pinned version.
# Usage: bash bench/peer_env.sh            (prints the venv's python path on the last line)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="${TIRX_VENV:-$HERE/.venv-tirx}"
PY="${PYTHON:-python3}"
PIN="apache-tvm-tirx==0.1.0a4"

# keep the venv out of git without touching .gitignore
EXCL="$(git -C "$HERE" rev-parse --path-format=absolute --git-path info/exclude 2>/dev/null || true)"
if [ -n "$EXCL" ] && ! grep -qx '/bench/.venv-tirx/' "$EXCL" 2>/dev/null; then
  mkdir -p "$(dirname "$EXCL")" && echo '/bench/.venv-tirx/' >> "$EXCL"
fi

if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(m.version("apache-tvm-tirx") != "0.1.0a4")' 2>/dev/null; then
  echo "$VENV/bin/python"; exit 0
fi
"$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip >&2
"$VENV/bin/python" -m pip install -q "$PIN" >&2
"$VENV/bin/python" -c 'import tvm_tirx, importlib.metadata as m; print("tirx", m.version("apache-tvm-tirx"))' >&2
echo "$VENV/bin/python"
