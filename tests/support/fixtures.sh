# The fixtures for the shell tests (sourced), as support/FixturePaths.h for the C++ ones.
#
# need_fixtures PATH...: sets $fixtures to $SPINDLE_FIXTURES, else the build's
# $SPINDLE_FIXTURES_DEFAULT, and checks that it and each PATH under it exist. When one is
# missing the test skips (exit 77, ctest's SKIP_RETURN_CODE), or fails naming it when
# SPINDLE_REQUIRE_FIXTURES=1 (tests/run.sh sets it when the fixtures are there).
need_fixtures() {
  fixtures=${SPINDLE_FIXTURES:-${SPINDLE_FIXTURES_DEFAULT:-}}
  local path missing=
  if [ -z "$fixtures" ] || [ ! -d "$fixtures" ]; then
    missing="no fixtures folder ${fixtures:-(SPINDLE_FIXTURES and SPINDLE_FIXTURES_DEFAULT unset)}"
  else
    for path in "$@"; do
      [ -e "$fixtures/$path" ] || { missing="no $fixtures/$path in the fixtures"; break; }
    done
  fi
  [ -z "$missing" ] && return 0
  if [ "${SPINDLE_REQUIRE_FIXTURES:-}" = 1 ]; then
    echo "FAILED: SPINDLE_REQUIRE_FIXTURES=1 but $missing"
    exit 1
  fi
  echo "SKIPPED: $missing (set SPINDLE_FIXTURES)"
  exit 77
}
