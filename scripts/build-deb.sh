#!/usr/bin/env bash
# Builds the Debian package postgresql-15-pap-release (debian/, apt.postgresql.org layout) with dpkg-buildpackage
# from a copy of the tree, installs it and checks it in a throwaway PostgreSQL 15 cluster.
# Usage: bash scripts/build-deb.sh [output directory for the .deb, default build/deb in the tree]
# Run as root or with sudo available. The package installs into the same system directories as `make install`.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
# Not a fixed name under /tmp: root installs the package, and another local user could have made that directory
# first and swapped the .deb (or planted a symlink) between the copy and the install. The package is installed
# from the private build directory below and only copied here afterwards; an existing directory must be the
# caller's and writable by no one else.
out="${1:-$root/build/deb}"
if [ -e "$out" ]; then
  if [ ! -d "$out" ] || [ -L "$out" ] || [ "$(stat -c %u "$out")" != "$(id -u)" ] ||
    [ -n "$(find "$out" -maxdepth 0 -perm /022)" ]; then
    echo "build-deb: $out must be a directory of $(id -un) that no one else may write to" >&2
    exit 1
  fi
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "build-deb: run as root or install sudo" >&2; exit 1; }
  SUDO="sudo"
fi

# Build dependencies: what the extension needs, plus the Debian packaging tools (pg_buildext, dh).
bash "$root/scripts/install-deps.sh"
missing=()
for p in debhelper dpkg-dev postgresql-server-dev-all; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "build-deb: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/pap-release-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# A copy of the sources (tracked and new files, no build products) so the work tree stays clean.
version="$(dpkg-parsechangelog -l "$root/debian/changelog" -S Version)"
src="$work/pap-release-$version"
mkdir -p "$src"
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # Tracked files deleted in the work tree are skipped.
  (cd "$root" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do if [ -e "$f" ]; then printf '%s\0' "$f"; fi; done |
    tar --null -T - -cf -) | tar -C "$src" -xf -
else
  cp -a "$root/." "$src/"
fi

echo "build-deb: building in $src"
(cd "$src" && dpkg-checkbuilddeps && DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-parallel=$(nproc)}" \
  dpkg-buildpackage -us -uc -b)

arch="$(dpkg --print-architecture)"
deb="$work/postgresql-15-pap-release_${version}_${arch}.deb"
[ -f "$deb" ] || { echo "build-deb: $deb was not built" >&2; exit 1; }
echo "build-deb: contents of $(basename "$deb")"
contents="$(dpkg-deb --contents "$deb" | awk '{ print $NF }')"
# The current version's script is built (Makefile DATA_built); the frozen and upgrade scripts are in the tree.
extversion="$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$root/pap_release.control")"
expected=(./usr/lib/postgresql/15/lib/pap_release.so ./usr/share/postgresql/15/extension/pap_release.control
  "./usr/share/postgresql/15/extension/pap_release--$extversion.sql")
for sql in "$root"/extension/pap_release--*.sql; do
  expected+=("./usr/share/postgresql/15/extension/$(basename "$sql")")
done
for f in "${expected[@]}"; do
  grep -qxF "$f" <<<"$contents" || { echo "build-deb: $f is missing from the package" >&2; exit 1; }
  echo "  $f"
done
echo "  Depends: $(dpkg-deb --field "$deb" Depends)"

# apt-get resolves the package's dependencies; a local path needs the ./ or / prefix.
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --reinstall "$deb"
dpkg-query -W -f='build-deb: installed ${Package} ${Version}\n' postgresql-15-pap-release

so="$(dpkg -L postgresql-15-pap-release | grep '/pap_release\.so$')"
if ldd "$so" | grep -q 'not found'; then
  echo "build-deb: $so has unresolved libraries:" >&2
  ldd "$so" >&2
  exit 1
fi

# The installed library in a throwaway cluster: the extension's version, then one tiny seeded release.
check="$work/check.out"
pg_virtualenv -t -v 15 psql -X -At -v ON_ERROR_STOP=1 \
  -c "CREATE EXTENSION pap_release" \
  -c "SELECT extversion FROM pg_extension WHERE extname = 'pap_release'" \
  -c "CREATE TABLE priv AS SELECT (i % 100)::float8 AS x FROM generate_series(1, 2000) i WHERE i % 10 <> 0" \
  -c "CREATE TABLE pub AS SELECT (i % 100)::float8 AS x FROM generate_series(1, 2000) i WHERE i % 10 = 0" \
  -c "SELECT pap.set_budget('priv', 1.0)" \
  -c "SELECT pap.define_release('x_cdf', 'priv', 'pub', 'thresholds(x)')" \
  -c "SET pap_release.test_seed = 42" \
  -c "CALL pap.run_release('x_cdf', 0.5)" \
  -c "SELECT 'answer=' || pap.answer('x_cdf', 'x <= 49')" | tee "$check"

grep -qxF "$extversion" "$check" || { echo "build-deb: extversion is not $extversion" >&2; exit 1; }
answer="$(sed -n 's/^answer=//p' "$check")"
# 50 of the 100 values: the noisy fraction must be a number in [0, 1] (the test seed makes it reproducible).
awk -v a="$answer" 'BEGIN { exit !(a != "" && a + 0 >= 0 && a + 0 <= 1) }' \
  || { echo "build-deb: pap.answer returned '$answer', not a fraction" >&2; exit 1; }

echo "build-deb: OK, installed package works (extversion $extversion, pap.answer('x_cdf', 'x <= 49') = $answer)"
(umask 022 && mkdir -p "$out")
cp "$deb" "$out/"
echo "build-deb: $out/$(basename "$deb") ($(stat -c %s "$deb") bytes)"
