#!/usr/bin/env bash
# The gate's French, German and Spanish -> English dictionaries (chsr.dictionary): Debian's FreeDict packages
# (dictd format, GPL; about 17 MB download, 30 MB installed under /usr/share/dictd). Without them the gate still
# answers, by the query's own words. apt waits up to 10 min for the dpkg lock (the engines install beside it).
# Usage: scripts/install_dictionaries.sh
set -euo pipefail
PACKAGES=(dict-freedict-fra-eng dict-freedict-deu-eng dict-freedict-spa-eng)
missing=0
for name in fra deu spa; do [ -f "/usr/share/dictd/freedict-$name-eng.index" ] || missing=1; done
if [ "$missing" = 1 ] && command -v apt-get >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${PACKAGES[@]}" >/dev/null || {
    $SUDO apt-get -o DPkg::Lock::Timeout=600 update >/dev/null && $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${PACKAGES[@]}" >/dev/null; }
fi
ls /usr/share/dictd/freedict-*-eng.index
