#!/usr/bin/env bash
# The Debian package, end to end and installed for real: packaging/build-deb.sh builds it,
# `dpkg -i` installs it on this machine, and the installed files are checked where they
# are: /usr/bin/spindle --version, /usr/bin/spindle-render --help, every file the issue
# names and every file `dpkg -L spindle` lists, the man pages, the libraries of every
# executable, spindle with no server loading /usr/share/spindle/instrument/spindle-ep.sfz
# and exiting 1, lintian (no errors), desktop-file-validate and appstreamcli validate.
# Then `dpkg --purge spindle` (from the EXIT trap too, so a failure removes it as well),
# and nothing of the package is left.
#
# Installing changes the machine, so this needs root (CI runs as root) and skips (77) when
# not root, when a spindle package is installed that this script did not install, or when
# a file of the package is on / already (dpkg -i would overwrite it, the purge delete it);
# also without the tools. Runs of this script take turns for the install (flock), and a
# run killed before its purge leaves a marker, so the next run removes what it installed.
set -euo pipefail
top=${SPINDLE_SOURCE_DIR:?}
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAILED: $*"; exit 1; }
for tool in dpkg-buildpackage dh dpkg-checkbuilddeps lintian desktop-file-validate appstreamcli rsvg-convert man flock lv2ls lv2info; do
  command -v "$tool" >/dev/null 2>&1 || skip "$tool not installed (scripts/install-deps.sh --tests)"
done
[ "$(id -u)" -eq 0 ] || skip "installs the package with dpkg -i, which needs root (CI runs as root)"
lock=/run/lock/spindle-package-install.lock
marker=/var/tmp/spindle-package-install.installed
# A spindle package this script did not install (no marker) is someone's: leave it alone.
foreign_package() { dpkg -s spindle >/dev/null 2>&1 && [ ! -e "$marker" ]; }
if foreign_package; then
  skip "spindle $(dpkg-query -W -f='${Version} (${Status})' spindle) is installed, not by this test;" \
    "remove it (dpkg --purge spindle) to run the test"
fi

scratch=$(mktemp -d /tmp/spindle-package.XXXXXX)
installed=0
# Purges the package and checks that nothing of it is left; says what is, and returns 1.
# --purge, not -r: the package has a postrm (dh_installsystemduser's), and after `dpkg -r`
# dpkg keeps a package with one as config-files (dpkg -s still finds it) until the purge.
remove_package() {
  installed=0
  local f left=
  if ! dpkg --purge spindle >"$scratch/purge.log" 2>&1; then
    cat "$scratch/purge.log"
    echo "FAILED: dpkg --purge spindle"
    return 1
  fi
  rm -f "$marker"
  dpkg -s spindle >/dev/null 2>&1 && left=" the package (dpkg -s spindle finds it)"
  [ -e /usr/bin/spindle ] && left+=" /usr/bin/spindle"
  while IFS= read -r f; do
    [ -d "$f" ] || [ ! -e "$f" ] || left+=" $f"
  done <"$scratch/files.txt"
  [ -z "$left" ] || { echo "FAILED: after dpkg --purge spindle, still there:$left"; return 1; }
  echo "purged: dpkg -s spindle finds no package, /usr/bin/spindle is gone"
}
on_exit() {
  local rc=$?
  if [ "$installed" -eq 1 ]; then remove_package || rc=1; fi
  rm -rf "$scratch"
  exit "$rc"
}
trap on_exit EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# Built unoptimised and without debug info (noopt, -g stripped from dpkg-buildflags):
# this checks the packaging, and the optimised build is the ci section's; it takes about
# half the time. SPINDLE_DEB_BUILD_OPTIONS overrides it (e.g. "parallel=2" for the
# Release build users get).
start=$SECONDS
DEB_BUILD_OPTIONS=${SPINDLE_DEB_BUILD_OPTIONS:-noopt parallel=$(nproc)} DEB_CFLAGS_STRIP=-g DEB_CXXFLAGS_STRIP=-g \
  "$top/packaging/build-deb.sh" "$scratch/deb" >"$scratch/build.log" 2>&1 || { tail -n 60 "$scratch/build.log"; fail "build-deb.sh"; }
echo "package built in $((SECONDS - start)) s"
deb=$(ls "$scratch"/deb/spindle_*.deb)
version=$(dpkg-deb -f "$deb" Version)

# dpkg -i, not `apt-get install ./spindle_*.deb`: apt would fetch what is missing from the
# network and leave it installed after the purge, and it would hide a gap in
# scripts/install-deps.sh, which must install everything the package Depends on (this run
# is its check). dpkg-checkbuilddeps -d checks any dependency list against the installed
# packages (alternatives, versions, Provides); checked before dpkg -i, which would leave
# the package unpacked but unconfigured, it names what is missing.
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
unmet=$(dpkg-checkbuilddeps -d "$depends" -c '' "$top/packaging/debian/control" 2>&1) \
  || fail "the package Depends on what is not installed: ${unmet##*dependencies: } (add it to scripts/install-deps.sh)"

exec 9>"$lock"
flock -w 600 9 || fail "another package_install.sh has held $lock for 10 minutes"
if [ -e "$marker" ]; then
  if dpkg -s spindle >/dev/null 2>&1; then
    echo "purging the spindle package an interrupted run of this test left ($(cat "$marker"))"
    dpkg --purge spindle >/dev/null || fail "dpkg --purge spindle (left by an interrupted run)"
  fi
  rm -f "$marker"
fi
foreign_package && skip "a spindle package was installed while the package was built"
dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./|/|; /\/$/d' >"$scratch/files.txt"
while IFS= read -r f; do
  [ ! -e "$f" ] && [ ! -L "$f" ] && continue
  owner=$(dpkg -S "$f" 2>/dev/null | cut -d: -f1) || owner="no package"
  skip "$f is on / already (owned by $owner): dpkg -i would overwrite it and the purge delete it"
done <"$scratch/files.txt"

echo "$$ $(date -u +%FT%TZ) $deb" >"$marker"
installed=1
dpkg -i "$deb" >"$scratch/install.log" 2>&1 || { cat "$scratch/install.log"; fail "dpkg -i $(basename "$deb")"; }
dpkg-query -W -f='${Status} ${Version}\n' spindle | grep -qx "install ok installed $version" \
  || fail "dpkg -i left spindle as: $(dpkg-query -W -f='${Status} ${Version}' spindle)"
echo "installed spindle $version with dpkg -i"

# Every file the package lists is on /, and every file the issue names is among them.
dpkg -L spindle >"$scratch/listed.txt"
while IFS= read -r f; do
  [ -e "$f" ] || fail "dpkg -L spindle lists $f, which is not on /"
done <"$scratch/listed.txt"
for f in /usr/bin/spindle /usr/bin/spindle-render /usr/bin/spindle-doctor /usr/bin/spindle-latency \
    /usr/bin/spindle-diskbench /usr/bin/spindle-osc /usr/lib/spindle/libspindle-gui.so /usr/share/applications/spindle.desktop \
    /usr/share/metainfo/org.spindle.Spindle.metainfo.xml /usr/share/icons/hicolor/scalable/apps/spindle.svg \
    /usr/share/icons/hicolor/48x48/apps/spindle.png /usr/share/icons/hicolor/128x128/apps/spindle.png \
    /usr/share/icons/hicolor/256x256/apps/spindle.png /usr/lib/systemd/user/spindle.service \
    /usr/share/spindle/instrument/spindle-ep.sfz /usr/share/spindle/instrument/demo.mid \
    /usr/lib/lv2/spindle.lv2/manifest.ttl /usr/lib/lv2/spindle.lv2/spindle.ttl /usr/lib/lv2/spindle.lv2/spindle.so \
    /usr/lib/clap/spindle.clap; do
  grep -qxF "$f" "$scratch/listed.txt" || fail "$f is not in the package"
  [ -e "$f" ] || fail "$f is not installed"
done
for tool in spindle spindle-render spindle-doctor spindle-latency spindle-diskbench spindle-osc; do
  page=/usr/share/man/man1/$tool.1.gz
  grep -qxF "$page" "$scratch/listed.txt" && [ -e "$page" ] || fail "no man page for $tool"
  man -l "$page" >/dev/null 2>&1 </dev/null || fail "man cannot show $tool.1"
  [ "$(env -u MANPATH man -w "$tool" 2>/dev/null)" = "$page" ] || fail "man $tool does not find $page"
done
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
[ ! -e "/usr/lib/$multiarch/spindle" ] || fail "the GUI module must be in /usr/lib/spindle (GuiModuleLoader.cpp)"
grep -q "^ExecStart=/usr/bin/spindle --headless$" /usr/lib/systemd/user/spindle.service || fail "spindle.service"
# The user unit is started by hand (systemctl --user start spindle), not enabled for every
# user who logs in (packaging/debian/rules: dh_installsystemduser --no-enable).
wants=/etc/systemd/user/default.target.wants/spindle.service
[ ! -e "$wants" ] && [ ! -L "$wants" ] || fail "dpkg -i enabled spindle.service for every user ($wants)"
# The Depends cover every library the executables and the GUI module load.
for f in /usr/bin/spindle /usr/bin/spindle-render /usr/bin/spindle-doctor /usr/bin/spindle-latency \
    /usr/bin/spindle-diskbench /usr/bin/spindle-osc /usr/lib/spindle/libspindle-gui.so /usr/lib/lv2/spindle.lv2/spindle.so \
    /usr/lib/clap/spindle.clap; do
  ! ldd "$f" | grep "not found" || fail "$f needs a library that is not installed"
done

/usr/bin/spindle --version | grep -q "^spindle " || fail "spindle --version"
/usr/bin/spindle-render --help | grep -q "^Usage: spindle-render" || fail "spindle-render --help"
# LV2 hosts find the plugin where they look by default (no LV2_PATH).
# (Their output is read whole first: grep -q stopping early would end the tool with
# SIGPIPE, a failure under pipefail.)
plugins=$(env -u LV2_PATH lv2ls) || fail "lv2ls failed"
grep -qx "urn:spindle:lv2" <<<"$plugins" || fail "lv2ls does not list urn:spindle:lv2"
described=$(env -u LV2_PATH lv2info urn:spindle:lv2) || fail "lv2info urn:spindle:lv2 failed"
grep -q "Bundle: *file:///usr/lib/lv2/spindle.lv2/" <<<"$described" \
  || fail "lv2info does not find spindle.lv2 in /usr/lib/lv2"
# No --instrument, no server: the installed bundled instrument is loaded (found next to
# /usr/bin), then spindle says no server runs and exits 1.
mkdir -p "$scratch/run" && chmod 700 "$scratch/run"
rc=0
env -u SPINDLE_DATA_DIR -u PIPEWIRE_REMOTE XDG_RUNTIME_DIR="$scratch/run" PIPEWIRE_RUNTIME_DIR="$scratch/run" \
  JACK_DEFAULT_SERVER="spindle-package-$$" timeout 60 /usr/bin/spindle --headless --osc-port 0 \
  >"$scratch/run.out" 2>"$scratch/run.err" || rc=$?
cat "$scratch/run.out" "$scratch/run.err"
[ $rc -eq 1 ] || fail "spindle with no server exited $rc, not 1"
grep -q "bundled instrument /usr/share/spindle/instrument/spindle-ep.sfz" "$scratch/run.out" \
  || fail "the installed spindle did not load the installed bundled instrument"
grep -q "^instrument: " "$scratch/run.out" || fail "the bundled instrument did not load"

lintian --fail-on error "$deb" | tee "$scratch/lintian.txt" || fail "lintian found errors"
desktop-file-validate /usr/share/applications/spindle.desktop || fail "desktop-file-validate"
appstreamcli validate --no-net /usr/share/metainfo/org.spindle.Spindle.metainfo.xml || fail "appstreamcli validate"

remove_package || exit 1
echo "PASSED in $((SECONDS - start)) s"
