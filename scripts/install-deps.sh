#!/usr/bin/env bash
# Installs everything pap_release needs on a fresh Debian 12 machine (run as root or with sudo available).
# Idempotent: a second run installs nothing new.
set -euo pipefail

packages=(
  build-essential make g++ clang-14 llvm-14   # PGXS builds LLVM bitcode with clang-14 on Debian's PostgreSQL 15
  postgresql-15 postgresql-server-dev-15 postgresql-client-15 postgresql-common postgresql-contrib
  libpq-dev
  libboost-random-dev libboost-dev            # Boost.Random (URBG distributions), Boost headers
  libgtest-dev                                # GoogleTest for the PostgreSQL-free core
  libclang-rt-14-dev                          # libFuzzer and sanitizer runtimes for clang-14 (make fuzz)
  clang-format-14 clang-tidy-14               # make format-check (in the tests) and make tidy
  gnuplot-nox                                 # PNG plots of eval/ (pngcairo terminal)
  gzip ca-certificates
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "install-deps: run as root or install sudo" >&2; exit 1; }
  SUDO="sudo"
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  # Debian's postgresql-15 package would otherwise create and start a 'main' cluster; we only need the binaries.
  # The setting is for this install only (marked, and taken out after it): later PostgreSQL packages on the host
  # create their main cluster as usual.
  conf=/etc/postgresql-common/createcluster.conf
  marker="# pap_release install-deps: no main cluster for this install (removed after it)"
  added=no
  if printf '%s\n' "${missing[@]}" | grep -qx 'postgresql-15' && ! grep -qs '^create_main_cluster *= *false' "$conf"; then
    $SUDO mkdir -p /etc/postgresql-common
    printf '%s\ncreate_main_cluster = false\n' "$marker" | $SUDO tee -a "$conf" >/dev/null
    added=yes
  fi
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
  if [ "$added" = yes ]; then
    $SUDO sed -i "\|^$marker\$|,+1d" "$conf"
  fi
else
  echo "install-deps: all packages present"
fi
