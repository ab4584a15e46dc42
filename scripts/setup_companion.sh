#!/usr/bin/env bash
# Installs what the companion page and its tests need on Debian, as root:
#   - Chromium and its driver from Debian's packages (the browser tests never download one),
#   - Node's npm (only when missing) and axe-core from the npm registry, for the accessibility
#     audit (into scripts/companion_e2e/node_modules, which is not committed),
# Idempotent: skips whatever is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/apt_missing.sh

PACKAGES=(chromium chromium-driver fonts-dejavu-core)
command -v npm >/dev/null 2>&1 || PACKAGES+=(nodejs npm)
apt_install_missing "for the companion page" "${PACKAGES[@]}"

E2E=scripts/companion_e2e
if [ ! -f "$E2E/node_modules/axe-core/axe.min.js" ]; then
  echo "Installing axe-core (npm) for the companion page's accessibility audit"
  (cd "$E2E" && npm ci --no-audit --no-fund --loglevel=error)
fi

echo "The companion page's tools are installed (chromium, chromedriver, axe-core)."
