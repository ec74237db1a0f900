#!/usr/bin/env bash
# The Libraries panel for real: `spindle` with its window on Xvfb (1366x768) and a dummy
# jackd, HOME and the XDG folders in a scratch directory whose data folder holds fixture
# libraries (SFZ, a SoundFont, Hydrogen kits, DecentSampler presets) and a broken file.
# The library index finds them at the first start; once the browser lists them the window
# is dumped with xwd and the Libraries panel cut out and converted to PNG (spindle-xwd2png):
# $SPINDLE_SCREENSHOT_DIR/spindle-library-screenshot.png (docs/library-browser.png).
# What the browser lists and does is checked by spindle_gui_tests (LibraryBrowserTests.cpp).
source "$SPINDLE_LIVE_SUPPORT"
source "$(dirname "$0")/../support/fixtures.sh"
need Xvfb xwd xwininfo
: "${SPINDLE_XWD2PNG:?the spindle-xwd2png tool}"
need_fixtures "sf2/TimGM6mb.sf2" "hydrogen/GMRockKit" "hydrogen/TR808EmulationKit" "dim_cabasa/Dim Cabasa.sfz" \
  "realworld/karoryfer-horsepulse" "decentsampler"

home=$LIVE_TMP/home
export HOME=$home XDG_DATA_HOME=$home/.local/share XDG_CACHE_HOME=$home/.cache XDG_CONFIG_HOME=$home/.config
export XDG_DATA_DIRS=$LIVE_TMP/usr/share XDG_RUNTIME_DIR=$LIVE_TMP/run
mkdir -p "$XDG_DATA_DIRS" "$XDG_CACHE_HOME" "$XDG_CONFIG_HOME/spindle" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
# User folders in the settings (indexed with the standard places), as "Add…" keeps them:
# one of links to fixture files and kits and a broken file, and three fixture folders.
library=$home/Instruments
mkdir -p "$library/Hydrogen"
ln -s "$fixtures/sf2/TimGM6mb.sf2" "$library/TimGM6mb.sf2"
ln -s "$fixtures/hydrogen/GMRockKit" "$fixtures/hydrogen/TR808EmulationKit" "$library/Hydrogen/"
printf 'not a SoundFont' >"$library/Broken.sf2"
{
  echo '[library]'
  i=0
  for folder in "$library" "$fixtures/dim_cabasa" "$fixtures/realworld/karoryfer-horsepulse" "$fixtures/decentsampler"; do
    i=$((i + 1))
    printf 'folders\\%d\\path=%s\n' "$i" "$folder"
  done
  echo "folders\\size=$i"
} >"$XDG_CONFIG_HOME/spindle/spindle.conf"

start_jackd spindle-library-shot
display=
for n in $(seq 231 300); do
  [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ] || { display=":$n"; break; }
done
[ -n "$display" ] || fail "no free X display number"
Xvfb "$display" -screen 0 1366x768x24 -nolisten tcp >"$LIVE_TMP/xvfb.out" 2>&1 &
track $!
export DISPLAY=$display
wait_until 15 xwininfo -root || fail "Xvfb did not start on $display"

"$SPINDLE_EXE" --name spindle --backend jack --osc-port 0 >"$LIVE_TMP/spindle.out" 2>"$LIVE_TMP/spindle.err" &
SPINDLE_PID=$!
track "$SPINDLE_PID"
window_id() {  # the largest window titled Spindle (Qt also makes a 1x1 one)
  xwininfo -root -tree | grep '"Spindle"' | while read -r id rest; do
    size=$(grep -o '[0-9]\+x[0-9]\+[+-]' <<<"$rest" | head -n 1)
    width=${size%%x*} height=${size#*x}
    echo "$((width * ${height%[+-]})) $id"
  done | sort -n | tail -n 1 | cut -d' ' -f2
}
has_window() { [ -n "$(window_id)" ] && xwininfo -id "$(window_id)" | grep -q 'Map State: IsViewable'; }
wait_until 60 has_window || fail "no Spindle window appeared"
# The index writes its cache once a scan has ended: then the browser shows it all (its
# timer reads the index within a second).
cache=$XDG_CACHE_HOME/spindle/library.json
wait_until 120 grep -q "Dim Cabasa" "$cache" || fail "the library index wrote no cache with the fixtures in it"
sleep 3

id=$(window_id)
xwd -id "$id" -silent >"$LIVE_TMP/window.xwd" || fail "xwd could not dump window $id"
out_dir=${SPINDLE_SCREENSHOT_DIR:-$PWD}
mkdir -p "$out_dir"
png=$out_dir/spindle-library-screenshot.png
"$SPINDLE_XWD2PNG" --crop=0,30,206,352 "$LIVE_TMP/window.xwd" "$png" || fail "the screenshot is blank or unreadable"
kill -TERM "$SPINDLE_PID"
wait_until 15 bash -c "! kill -0 $SPINDLE_PID" || fail "spindle did not quit on SIGTERM"
echo "screenshot: $png"
