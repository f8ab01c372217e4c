#!/usr/bin/env bash
# Typesetter for the ingest benchmark's document generator (tools/docgen) and the ingest tests' PDFs.
# Typst comes as a prebuilt wheel from PyPI (typst-py, Apache-2.0; ~30 MB download, 81 MB installed, no
# compilation); CJK pages need one Debian font (fonts-wqy-microhei: 1.6 MB download, 5 MB installed).
# Measured here: pip ~10 s, apt ~3 s (after apt-get update); apt waits up to 10 min for the dpkg lock (the engines install beside it). Usage: scripts/install_docgen.sh [PYTHON]
set -euo pipefail
PY="${1:-.venv/bin/python}"
"$PY" -m pip install --quiet "typst>=0.15,<0.16" "pypdf>=5"
if command -v apt-get >/dev/null 2>&1 && ! fc-list 2>/dev/null | grep -i "WenQuanYi Micro Hei" >/dev/null; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends fonts-wqy-microhei >/dev/null || {
    $SUDO apt-get -o DPkg::Lock::Timeout=600 update >/dev/null && $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends fonts-wqy-microhei >/dev/null; }
fi
"$PY" -c "import typst; print('typst', typst.__version__ if hasattr(typst, '__version__') else 'ok')"
