#!/usr/bin/env python3
"""The include checker catches what it claims to: on copies of this checkout's src/, gui/
and docs/ARCHITECTURE.md, the untouched copy passes, and each injected fault (an engine
header including io, <mutex> in rt, a stale "until" row, a folder with no row, an include
of a folder no row names) fails with the file, the line and the rule.
"""

import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
CHECKER = os.path.join(HERE, "check_includes.py")


def copy_tree(to):
    for top in ("src", "gui"):
        shutil.copytree(os.path.join(ROOT, top), os.path.join(to, top))
    os.makedirs(os.path.join(to, "docs"))
    shutil.copy(os.path.join(ROOT, "docs", "ARCHITECTURE.md"), os.path.join(to, "docs"))


def append(root, path, line):
    """Appends `line` to root/path; returns the line number it got."""
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    text = open(full).read() if os.path.exists(full) else ""
    if text and not text.endswith("\n"):
        text += "\n"
    with open(full, "w") as f:
        f.write(text + line + "\n")
    return text.count("\n") + 1


def drop(root, path, line):
    full = os.path.join(root, path)
    lines = open(full).read().split("\n")
    assert line in lines, "%s has no line %r" % (path, line)
    with open(full, "w") as f:
        f.write("\n".join(l for l in lines if l != line))


def run_checker(root):
    result = subprocess.run([sys.executable, CHECKER, "--root", root], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    return result.returncode, result.stdout


def case(name, fault, expected_rc, expected_lines):
    """Runs the checker on a fresh copy after `fault(root)`; returns whether it did as expected."""
    with tempfile.TemporaryDirectory(prefix="spindle-includes-") as root:
        copy_tree(root)
        expected = (fault(root) or []) + expected_lines
        rc, out = run_checker(root)
    missing = [e for e in expected if e not in out]
    ok = rc == expected_rc and not missing
    print("%s: %s (exit %d)" % ("ok" if ok else "FAILED", name, rc))
    if not ok:
        print("  expected exit %d and lines containing:" % expected_rc)
        for e in missing:
            print("    " + e)
        print("  output:\n" + "".join("    " + l + "\n" for l in out.splitlines()))
    return ok


def engine_includes_io(root):
    line = append(root, "src/engine/dsp/Filter.h", '#include "io/LiveProcessor.h"')
    return ['src/engine/dsp/Filter.h:%d: #include "io/LiveProcessor.h": src/engine/dsp may not include io, only core '
            "(docs/ARCHITECTURE.md:" % line]


def rt_includes_mutex(root):
    line = append(root, "src/rt/SpscFifo.h", "#include <mutex>")
    return ["src/rt/SpscFifo.h:%d: #include <mutex>: src/rt may not include <mutex>" % line]


def app_includes_gui(root):
    line = append(root, "src/app/Loader.cpp", '#include "gui/GuiSession.h"')
    return ['src/app/Loader.cpp:%d: #include "gui/GuiSession.h": src/app may not include gui' % line]


def loader_includes_loader(root):
    line = append(root, "src/sf2/SoundFont.cpp", '#include "sfz/Parser.h"')
    return ['src/sf2/SoundFont.cpp:%d: #include "sfz/Parser.h": src/sf2 may not include sfz' % line]


def folder_without_row(root):
    append(root, "src/newthing/Thing.h", "#pragma once")
    return ["src/newthing/Thing.h: in a folder that docs/ARCHITECTURE.md's table does not name"]


def unknown_folder(root):
    line = append(root, "src/core/Units.h", '#include "thirdparty/lib.h"')
    return ['src/core/Units.h:%d: #include "thirdparty/lib.h": no folder of docs/ARCHITECTURE.md\'s table' % line]


def main():
    results = [
        case("the checkout as it is", lambda root: None, 0, ["ok: the "]),
        case("src/engine includes io/", engine_includes_io, 1, ["FAILED: 1 include rule(s) broken"]),
        case("src/rt includes <mutex>", rt_includes_mutex, 1, ["FAILED: 1 include rule(s) broken"]),
        case("src/app includes gui/", app_includes_gui, 1, ["FAILED: 1 include rule(s) broken"]),
        case("one loader includes another", loader_includes_loader, 1, ["FAILED: 1 include rule(s) broken"]),
        case("a folder with no row", folder_without_row, 1, []),
        case("an include of a folder no row names", unknown_folder, 1, []),
    ]
    if not all(results):
        print("FAILED: the include checker missed a fault or flagged a sound tree")
        return 1
    print("ok: the include checker passes the checkout and fails each injected fault")
    return 0


if __name__ == "__main__":
    sys.exit(main())
