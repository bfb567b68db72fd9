#!/usr/bin/env python3
"""docs/cpp.md's table of libraries names every header cmake --install installs, and no other.

    cpp_doc_headers_check.py CPP_MD FOLDER/HEADER...

The headers given are those the build installs (the INSTALLED lists of
gobblet_public_headers, cmake/public_headers.cmake). A row of the table
begins with a target (| `gobblet::...` |); its second cell lists headers as
inline code, the first with its folder (`engine/variant.h`) and the others
by name in that folder (`board.h`). Exits 1 listing the headers installed
but not in the table, and those in the table but not installed (of the
folders this build installs: one without Boost has no server/)."""

import re
import sys
from pathlib import Path

CODE = re.compile(r"`([^`]+)`")


def documented_headers(text):
    """The headers of the table's rows, each as folder/name."""
    headers = set()
    for line in text.splitlines():
        if not line.startswith("| `gobblet::"):
            continue
        cells = line.split("|")
        folder = None
        for name in CODE.findall(cells[2]):
            if "/" in name:
                folder, name = name.rsplit("/", 1)
            headers.add(f"{folder}/{name}")
    return headers


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    documented = documented_headers(Path(sys.argv[1]).read_text(encoding="utf-8"))
    installed = set(sys.argv[2:])
    problems = [f"installed, not in the table: {h}" for h in sorted(installed - documented)]
    folders = {h.split("/")[0] for h in installed}
    stale = {h for h in documented - installed if h.split("/")[0] in folders}
    problems += [f"in the table, not installed: {h}" for h in sorted(stale)]
    for problem in problems:
        print(f"{sys.argv[1]}: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
