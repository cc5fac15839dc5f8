#!/bin/sh
# Installs Debian's chromium for the browser tests of `baton ui` (test/ui/*.browser.test.ts drive it
# with playwright-core, which downloads no browser). Does nothing when it is already there.
set -eu
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium
/usr/bin/chromium --version
