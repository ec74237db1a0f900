#!/usr/bin/env bash
# Builds Spindle's Debian package from the working tree (committed or not):
#   packaging/build-deb.sh [OUT_DIR]      the .deb lands in OUT_DIR (default build/deb)
# dpkg-buildpackage wants debian/ at the top of the source: the tracked and untracked
# (not ignored) files are copied to OUT_DIR/tree/spindle-VERSION with packaging/debian
# as its debian/, and the package is built there with `dpkg-buildpackage -us -uc -b`.
# DEB_BUILD_OPTIONS is passed through (default: parallel=$(nproc)). Needs the
# Build-Depends of packaging/debian/control (scripts/install-deps.sh --tests).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
out=$(realpath -m "${1:-$top/build/deb}")
version=$(sed -n '1s/^spindle (\([^)]*\)).*/\1/p' packaging/debian/changelog)
work="$out/tree"
src="$work/spindle-$version"

rm -rf "$work"
mkdir -p "$src" "$out"
# Every file git knows of or would add, without build trees and ignored files.
git ls-files -z --cached --others --exclude-standard \
  | grep -zv -e '^packaging/debian/' -e '^build/' \
  | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done \
  | tar --null -T - -cf - | tar -xf - -C "$src"
cp -r packaging/debian "$src/debian"

export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-parallel=$(nproc)}"
(cd "$src" && dpkg-buildpackage -us -uc -b)
rm -f "$out"/spindle_*.deb "$out"/spindle-dbgsym_*.deb
mv "$work"/*.deb "$out"/
mv "$work"/*.buildinfo "$work"/*.changes "$out"/ 2>/dev/null || true
rm -rf "$work"
ls -1 "$out"/*.deb
