#!/usr/bin/env bash
# Installs what Decision Studio needs on a fresh Debian 12 machine. Idempotent: packages
# already present are skipped, and `apt-get update` runs at most once per boot of this script.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git ca-certificates
  qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools
  qt6-l10n-tools qt6-qpa-plugins libgl-dev libxkbcommon-dev
  qtkeychain-qt6-dev nlohmann-json3-dev libopenblas-dev libyaml-cpp-dev
  libcpp-httplib-dev libssl-dev zlib1g-dev
  python3 python3-torch python3-numpy
  gnome-keyring dbus dbus-x11 libsecret-tools xvfb xauth
  clang-14 libclang-rt-14-dev clang-format
  qt6-svg-dev poppler-utils fonts-dejavu-core
  qt6-charts-dev libqt6opengl6-dev
  desktop-file-utils appstream lintian dpkg-dev file
  qt6-translations-l10n fonts-ipafont-gothic
  prometheus
  openssl tinyproxy
)

missing=()
# Node.js: any install that provides node and npm will do (some machines carry a vendor build
# whose nodejs package conflicts with Debian's separate npm package).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${#missing[@]} Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all Debian packages present"
fi
