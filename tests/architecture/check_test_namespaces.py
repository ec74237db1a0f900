#!/usr/bin/env python3
"""Every Catch2 test file keeps what it declares in a namespace named after it.

The tests compile in batches of eight files (SPINDLE_UNITY_BUILD_TESTS), where two files'
file-scope names meet. So in each tests/**/*.cpp holding a TEST_CASE (the GUI's QTest files
aside), the first code after the includes opens `namespace NAME {`, NAME being the file's
name in snake case (SoundFontMappingTests.cpp: sound_font_mapping_tests), and the file ends
with `}  // namespace NAME`.

Usage: check_test_namespaces.py --root SOURCE_DIR   (prints FILE:LINE: what is wrong)
       check_test_namespaces.py --self-test         (the check against files made wrong)
"""
import argparse
import pathlib
import re
import sys
import tempfile


def namespace_name(stem):
    words = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", stem)
    return re.sub(r"(?<=[A-Z])([A-Z][a-z])", r"_\1", words).lower()


def first_code_line(lines):
    """Index of the first line that is not blank, a comment or a preprocessor line."""
    in_block = False
    for i, line in enumerate(lines):
        s = line.strip()
        if in_block:
            in_block = "*/" not in s
        elif s.startswith("/*"):
            in_block = "*/" not in s
        elif s and not s.startswith("//") and not s.startswith("#"):
            return i
    return None


def problems_in(path, shown):
    lines = path.read_text(encoding="utf-8").split("\n")
    name = namespace_name(path.stem)
    first = first_code_line(lines)
    if first is None:
        return [f"{shown}:1: no code"]
    found = []
    if lines[first] != f"namespace {name} {{":
        found.append(f"{shown}:{first + 1}: the first code is not `namespace {name} {{`")
    last = max(i for i, line in enumerate(lines) if line.strip())
    if lines[last] != f"}}  // namespace {name}":
        found.append(f"{shown}:{last + 1}: the file does not end with `}}  // namespace {name}`")
    return found


def check(root):
    tests = root / "tests"
    found = []
    for path in sorted(tests.rglob("*.cpp")):
        if path.relative_to(tests).parts[0] == "gui" or "TEST_CASE" not in path.read_text(encoding="utf-8"):
            continue
        found += problems_in(path, path.relative_to(root))
    return found


def self_test():
    cases = {
        "GoodTests.cpp": "// about\n#include \"catch.h\"\n\nnamespace good_tests {\n\nTEST_CASE(\"x\") {}\n\n"
                         "}  // namespace good_tests\n",
        "NoNamespaceTests.cpp": "#include \"catch.h\"\n\nTEST_CASE(\"x\") {}\n",
        "WrongNameTests.cpp": "#include \"catch.h\"\nnamespace wrong_tests {\nTEST_CASE(\"x\") {}\n"
                              "}  // namespace wrong_tests\n",
        "CodeFirstTests.cpp": "#include \"catch.h\"\nusing namespace std;\nnamespace code_first_tests {\n"
                              "TEST_CASE(\"x\") {}\n}  // namespace code_first_tests\n",
        "OpenEndTests.cpp": "#include \"catch.h\"\nnamespace open_end_tests {\nTEST_CASE(\"x\") {}\n}\n"
                            "int after;\n",
        "Helper.cpp": "int helper() { return 1; }\n",
    }
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / "tests" / "lib").mkdir(parents=True)
        for name, text in cases.items():
            (root / "tests" / "lib" / name).write_text(text, encoding="utf-8")
        found = check(root)
    flagged = sorted({line.split(":")[0].split("/")[-1] for line in found})
    expected = ["CodeFirstTests.cpp", "NoNamespaceTests.cpp", "OpenEndTests.cpp", "WrongNameTests.cpp"]
    print("\n".join(found))
    if flagged != expected or len(found) != 6:
        print(f"FAILED: flagged {flagged} ({len(found)} problems), expected {expected} (6)")
        return 1
    print("the check flags each file made wrong (6 problems in 4 files), and not the good one")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=pathlib.Path)
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    found = check(args.root)
    print("\n".join(found) if found else "every test file keeps its declarations in its own namespace")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
