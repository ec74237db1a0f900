#!/usr/bin/env bash
# The Debian package, end to end: packaging/build-deb.sh builds it, `dpkg -x` unpacks it
# into a scratch root (dpkg -i would change this machine; the executables need no
# LD_LIBRARY_PATH: the GUI module and the instrument are found relative to bin/), the
# installed executables run, every file is where the issue says, and lintian (no errors),
# desktop-file-validate and appstreamcli validate pass. Exit 77 (skip) without the tools.
set -euo pipefail
top=${SPINDLE_SOURCE_DIR:?}
for tool in dpkg-buildpackage dh lintian desktop-file-validate appstreamcli rsvg-convert; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIPPED: $tool not installed (scripts/install-deps.sh --tests)"; exit 77; }
done
scratch=$(mktemp -d /tmp/spindle-package.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAILED: $*"; exit 1; }

start=$SECONDS
"$top/packaging/build-deb.sh" "$scratch/deb" >"$scratch/build.log" 2>&1 || { tail -n 60 "$scratch/build.log"; fail "build-deb.sh"; }
echo "package built in $((SECONDS - start)) s"
deb=$(ls "$scratch"/deb/spindle_*.deb)
root="$scratch/root"
dpkg -x "$deb" "$root"

multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
for f in usr/bin/spindle usr/bin/spindle-render usr/bin/spindle-doctor usr/bin/spindle-latency \
    usr/bin/spindle-diskbench usr/lib/spindle/libspindle-gui.so usr/share/applications/spindle.desktop \
    usr/share/metainfo/org.spindle.Spindle.metainfo.xml usr/share/icons/hicolor/scalable/apps/spindle.svg \
    usr/share/icons/hicolor/48x48/apps/spindle.png usr/share/icons/hicolor/128x128/apps/spindle.png \
    usr/share/icons/hicolor/256x256/apps/spindle.png usr/lib/systemd/user/spindle.service \
    usr/share/spindle/instrument/spindle-ep.sfz usr/share/spindle/instrument/demo.mid; do
  [ -e "$root/$f" ] || fail "$f is not in the package"
done
for tool in spindle spindle-render spindle-doctor spindle-latency spindle-diskbench; do
  [ -e "$root/usr/share/man/man1/$tool.1.gz" ] || fail "no man page for $tool"
  man -l "$root/usr/share/man/man1/$tool.1.gz" >/dev/null 2>&1 </dev/null || fail "man cannot show $tool.1"
done
[ ! -e "$root/usr/lib/$multiarch/spindle" ] || fail "the GUI module must be in usr/lib/spindle (GuiModuleLoader.cpp)"
grep -q "^ExecStart=/usr/bin/spindle --headless$" "$root/usr/lib/systemd/user/spindle.service" || fail "spindle.service"

"$root/usr/bin/spindle" --version | grep -q "^spindle " || fail "spindle --version"
"$root/usr/bin/spindle-render" --help | grep -q "^Usage: spindle-render" || fail "spindle-render --help"
# No --instrument, no server: the installed bundled instrument (next to bin/) is loaded,
# then spindle says no server runs and exits 1.
mkdir -p "$scratch/run" && chmod 700 "$scratch/run"
rc=0
env -u SPINDLE_DATA_DIR -u PIPEWIRE_REMOTE XDG_RUNTIME_DIR="$scratch/run" PIPEWIRE_RUNTIME_DIR="$scratch/run" \
  JACK_DEFAULT_SERVER="spindle-package-$$" timeout 60 "$root/usr/bin/spindle" --headless --osc-port 0 \
  >"$scratch/run.out" 2>"$scratch/run.err" || rc=$?
cat "$scratch/run.out" "$scratch/run.err"
[ $rc -eq 1 ] || fail "spindle with no server exited $rc, not 1"
grep -q "bundled instrument $root/usr/share/spindle/instrument/spindle-ep.sfz" "$scratch/run.out" \
  || fail "the installed spindle did not load the installed bundled instrument"
grep -q "^instrument: " "$scratch/run.out" || fail "the bundled instrument did not load"

lintian --fail-on error "$deb" | tee "$scratch/lintian.txt" || fail "lintian found errors"
desktop-file-validate "$root/usr/share/applications/spindle.desktop" || fail "desktop-file-validate"
appstreamcli validate --no-net "$root/usr/share/metainfo/org.spindle.Spindle.metainfo.xml" || fail "appstreamcli validate"
echo "PASSED in $((SECONDS - start)) s"
