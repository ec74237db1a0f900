#!/usr/bin/env python3
"""Reads back what Spindle's plugin saved in an Ardour session's snapshot.

  state.py SESSION_DIR SNAPSHOT INSTRUMENT LEVEL_DB

Ardour keeps each plugin's LV2 state in SESSION_DIR/plugins/<processor id>/<state-dir>/
state.ttl, the state-dir named in the snapshot's XML. The plugin saves the instrument
through the host's map_path (Ardour links the file into the state folder) and part 0's
level: the link must lead to INSTRUMENT and the level must be LEVEL_DB. Exits 1 if not.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET


def main(session, snapshot, instrument, level):
    root = ET.parse(os.path.join(session, snapshot + ".ardour")).getroot()
    spindle = [p for p in root.iter("Processor") if p.get("unique-id") == "urn:spindle:lv2"]
    if len(spindle) != 1:
        return fail(f"{snapshot}.ardour holds {len(spindle)} Spindle plugins, not 1")
    lv2 = spindle[0].find("lv2")
    if lv2 is None or not lv2.get("state-dir"):
        return fail(f"{snapshot}.ardour names no state folder for the plugin")
    folder = os.path.join(session, "plugins", spindle[0].get("id"), lv2.get("state-dir"))
    text = open(os.path.join(folder, "state.ttl")).read()
    saved_instrument = re.search(r"<urn:spindle:lv2#instrument>\s+<([^>]*)>", text)
    saved_level = re.search(r'<urn:spindle:lv2#level>\s+"([^"]*)"', text)
    if not saved_instrument or not saved_level:
        return fail(f"the state in {folder} lacks the instrument or the level:\n{text}")
    path = os.path.join(folder, saved_instrument.group(1))
    print(f"state {folder}: instrument {saved_instrument.group(1)} -> {os.path.realpath(path)}, "
          f"level {saved_level.group(1)} dB")
    if os.path.realpath(path) != os.path.realpath(instrument):
        return fail(f"the saved instrument is not {instrument}")
    if abs(float(saved_level.group(1)) - level) > 1e-4:
        return fail(f"the saved level is not {level} dB")
    return 0


def fail(message):
    print(f"FAILED: {message}")
    return 1


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])))
