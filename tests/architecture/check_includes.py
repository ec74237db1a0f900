#!/usr/bin/env python3
"""Checks every #include in src/ and gui/ against the rules of docs/ARCHITECTURE.md.

    check_includes.py [--root DIR] [--doc FILE]

The rules are read from the document's tables, never written here:

  | folder | what | threads | may include |     each folder, the folders it may include
  | folders | may not include |                  system headers the audio thread's folders
                                                  may not include (`<Q*>` is a pattern)

A file belongs to the row of the longest folder that holds it; `#include "a/b/c.h"`
names the row whose folder, without its leading src/, is the longest prefix of a/b/c.h
(`#include "Foo.h"` is the file's own folder). Extra backticked names in a folder cell
ending in / (`spindle/`, the generated version header) are include names of that row.

Fails (exit 1), one line per problem, `file:line: what`, when an include breaks a rule,
names a folder the table does not have, or a file lies in a folder the table does not
name. Exit 0 prints a summary.
"""

import argparse
import fnmatch
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".c", ".in")
CHECKED_TOPS = ("src", "gui")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
TICKED = re.compile(r"`([^`]+)`")


class Rules:
    def __init__(self):
        self.folders = {}         # folder path (src/core) -> set of folder paths it may include
        self.include_names = {}   # include prefix (core, spindle, gui/module) -> folder path
        self.forbidden = []       # (folder paths, header patterns, document line)
        self.doc_lines = {}       # folder path -> the table line that states it


def table_rows(lines, header):
    """(line number, cells) of the rows of the table whose header row is `header`."""
    rows, inside = [], False
    for number, line in enumerate(lines, 1):
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.lstrip().startswith("|") else None
        if cells is None:
            inside = False
            continue
        if [c.lower() for c in cells] == header:
            inside = True
            continue
        if inside and not set("".join(cells)) <= set("-: "):
            rows.append((number, cells))
    return rows


def read_rules(doc):
    with open(doc, encoding="utf-8") as f:
        lines = f.read().splitlines()
    rules = Rules()
    rows = table_rows(lines, ["folder", "what", "threads", "may include"])
    if not rows:
        sys.exit("%s: no table | folder | what | threads | may include |" % doc)
    allowed_names = {}
    for number, (folder_cell, _, _, may_cell) in rows:
        names = TICKED.findall(folder_cell)
        folder = names[0].rstrip("/")
        rules.doc_lines[folder] = number
        rules.include_names[include_name(folder)] = folder
        for extra in names[1:]:
            rules.include_names[extra.rstrip("/")] = folder
        allowed_names[folder] = TICKED.findall(may_cell)
    for folder, names in allowed_names.items():
        unknown = [n for n in names if n.rstrip("/") not in rules.include_names]
        if unknown:
            sys.exit("%s:%d: `%s` may include %s, which no row names" % (doc, rules.doc_lines[folder], folder,
                                                                         ", ".join(unknown)))
        rules.folders[folder] = {rules.include_names[n.rstrip("/")] for n in names}
    for number, (folders_cell, headers_cell) in table_rows(lines, ["folders", "may not include"]):
        folders = [f.rstrip("/") for f in TICKED.findall(folders_cell)]
        headers = [h.strip("<>") for h in TICKED.findall(headers_cell)]
        rules.forbidden.append((folders, headers, number))
    return rules


def include_name(folder):
    return folder[len("src/"):] if folder.startswith("src/") else folder


def longest_prefix(path, candidates):
    best = None
    for candidate in candidates:
        if (path == candidate or path.startswith(candidate + "/")) and (best is None or len(candidate) > len(best)):
            best = candidate
    return best


def source_files(root):
    for top in CHECKED_TOPS:
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")


def check(root, doc):
    rules = read_rules(doc)
    doc_name = os.path.relpath(doc, root) if doc.startswith(root) else doc
    problems, checked = [], 0
    for path in source_files(root):
        folder = longest_prefix(os.path.dirname(path), rules.folders)
        if folder is None:
            problems.append("%s: in a folder that %s's table does not name: add its row" % (path, doc_name))
            continue
        checked += 1
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        for number, line in enumerate(lines, 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            kind, target = match.groups()
            where = "%s:%d: #include %s" % (path, number, kind + target + (">" if kind == "<" else '"'))
            if kind == "<":
                for folders, headers, rule_line in rules.forbidden:
                    if folder in folders and any(fnmatch.fnmatchcase(target, h) for h in headers):
                        problems.append("%s: %s may not include <%s> (%s:%d, the audio thread's folders)" %
                                        (where, folder, target, doc_name, rule_line))
                continue
            if "/" not in target:
                continue  # the file's own folder
            name = longest_prefix(target, rules.include_names)
            if name is None:
                problems.append("%s: no folder of %s's table is %s/" % (where, doc_name, target.split("/")[0]))
                continue
            to = rules.include_names[name]
            if to == folder or to in rules.folders[folder]:
                continue
            allowed = ", ".join(sorted(include_name(f) for f in rules.folders[folder])) or "nothing"
            problems.append("%s: %s may not include %s, only %s (%s:%d)" % (
                where, folder, include_name(to), allowed, doc_name, rules.doc_lines[folder]))
    return problems, checked


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=os.path.normpath(os.path.join(HERE, "..", "..")),
                        help="the source tree (default: this checkout)")
    parser.add_argument("--doc", help="the rules (default: ROOT/docs/ARCHITECTURE.md)")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    doc = os.path.abspath(args.doc or os.path.join(root, "docs", "ARCHITECTURE.md"))
    problems, checked = check(root, doc)
    for problem in problems:
        print(problem)
    if problems:
        print("FAILED: %d include rule(s) broken (the rules: %s, section Folders)" % (len(problems), doc))
        return 1
    print("ok: the %d files of %s follow %s" % (checked, " and ".join(CHECKED_TOPS), doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
