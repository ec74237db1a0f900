#!/usr/bin/env python3
"""What a test run skipped, and whether CI expected it.

  skips.py collect SECTION JUNIT.xml LOG.tsv   appends the skipped entries of one ctest
                                                run (--output-junit) to LOG.tsv
  skips.py section SECTION WHY LOG.tsv          records a section left out (SPINDLE_SKIP)
  skips.py report ALLOWED LOG.tsv [--ci]        prints every skip with its reason; with
                                                --ci, exits 1 when one is not in ALLOWED

A skipped ctest entry is one that exited 77 (SKIP_RETURN_CODE). Its reasons are the
"SKIPPED: ..." lines it printed: a shell test prints one before it exits 77, a Catch2 or
Qt Test executable one per case that skipped (tests/support/Skip.h). An entry that
printed none is listed with "(no SKIPPED line)", and is never expected.

ALLOWED (tests/ci-skips.txt) holds one expected skip per line:
  SECTION | TEST | REASON | why this holds on a CI machine
TEST and REASON are shell-style patterns (fnmatch) matched against the ctest name and
the text after "SKIPPED: "; SECTION is one of run.sh's sections.
"""
import fnmatch
import sys
import xml.etree.ElementTree as ET

NO_REASON = "(no SKIPPED line)"


def skipped_entries(junit):
    for case in ET.parse(junit).getroot().iter("testcase"):
        if case.find("skipped") is None and case.get("status") not in ("disabled", "notrun"):
            continue
        out = case.findtext("system-out") or ""
        reasons = [line.split("SKIPPED: ", 1)[1].strip() for line in out.splitlines() if "SKIPPED: " in line]
        yield case.get("name"), reasons or [NO_REASON]


def collect(section, junit, log):
    with open(log, "a", encoding="utf-8") as out:
        for name, reasons in skipped_entries(junit):
            for reason in reasons:
                out.write(f"{section}\t{name}\t{reason}\n")


def read_allowed(path):
    allowed = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [field.strip() for field in line.split(" | ")]
            if len(fields) != 4 or not all(fields):
                sys.exit(f"{path}:{number}: expected 'SECTION | TEST | REASON | why', got: {line}")
            allowed.append((number, *fields))
    return allowed


def read_log(path):
    try:
        with open(path, encoding="utf-8") as f:
            return [tuple(line.rstrip("\n").split("\t", 2)) for line in f if line.strip()]
    except FileNotFoundError:
        return []


def expected_by(row, allowed):
    section, name, reason = row
    for number, a_section, a_test, a_reason, why in allowed:
        if a_section == section and fnmatch.fnmatchcase(name, a_test) and fnmatch.fnmatchcase(reason, a_reason):
            if reason != NO_REASON:
                return number, why
    return None


def report(allowed_path, log, ci):
    allowed = read_allowed(allowed_path)
    rows = read_log(log)
    unexpected = 0
    print(f"Skipped: {len(rows)} (each with the reason it printed; the list CI expects: {allowed_path})")
    for row in rows:
        match = expected_by(row, allowed)
        mark = f"expected ({allowed_path}:{match[0]}: {match[1]})" if match else "NOT EXPECTED"
        unexpected += match is None
        print(f"  [{row[0]}] {row[1]}: {row[2]}\n      -> {mark}")
    if unexpected and ci:
        print(f"{unexpected} skip(s) CI does not expect: a CI run passes only when every test ran, "
              f"or skipped for a reason {allowed_path} gives")
        return 1
    return 0


def main(argv):
    if len(argv) == 5 and argv[1] == "collect":
        collect(argv[2], argv[3], argv[4])
        return 0
    if len(argv) == 5 and argv[1] == "section":
        with open(argv[4], "a", encoding="utf-8") as out:
            out.write(f"{argv[2]}\t(section {argv[2]})\t{argv[3]}\n")
        return 0
    if len(argv) in (4, 5) and argv[1] == "report":
        return report(argv[2], argv[3], argv[4:] == ["--ci"])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
