#!/usr/bin/env bash
# Installs what Spindle needs to build, run and test on Debian 12. Run as root.
# Usage: scripts/install-deps.sh [--tests]
set -euo pipefail

# qt6-base-dev: the GUI (without it the build leaves the window out; --headless works).
# lv2-dev: the LV2 plugin (without it the build leaves spindle.lv2 out).
# These -dev packages bring the libraries the Debian package Depends on (libsndfile1,
# libflac12, libfftw3-single3, libjack-jackd2-0, libpipewire-0.3-0, libasound2, liblo7, libssl3, libqt6widgets6, ...);
# tests/package/package_install.sh checks the built package's Depends are met.
runtime_build=(build-essential cmake ninja-build pkg-config libsndfile1-dev libflac-dev libfftw3-dev libjack-jackd2-dev libpipewire-0.3-dev libspa-0.2-dev libasound2-dev liblo-dev qt6-base-dev
  libpugixml-dev libarchive-dev lv2-dev libssl-dev)
# xvfb, x11-apps (xwd), x11-utils (xwininfo): the GUI screenshot test (tests/gui).
# fluidsynth: the SoundFont comparison test (tests/sf2/fluidsynth_compare.py).
# liblilv-dev, lilv-utils (lv2ls, lv2info), sordi (sord_validate), jalv: the LV2 plugin's tests (tests/lv2).
# ardour (ardour7-lua, ardour7-export): the plugin in a headless Ardour session (tests/lv2/ardour_session.sh).
# qtractor: spindle.clap in a real CLAP host (tests/live/qtractor_clap.sh, on Xvfb).
# debhelper ... man-db: the Debian package test (tests/package; librsvg2-bin renders the PNG icons).
test_only=(catch2 clang-22 libclang-rt-22-dev python3 jackd2 pipewire pipewire-jack pipewire-bin liblo-tools
  fluidsynth liblilv-dev lilv-utils sordi jalv ardour qtractor
  xvfb x11-apps x11-utils
  debhelper dpkg-dev fakeroot lintian desktop-file-utils appstream librsvg2-bin man-db)

packages=("${runtime_build[@]}")
[ "${1:-}" = "--tests" ] && packages+=("${test_only[@]}")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run as root (sudo $0 $*) or install them with apt-get" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}"
