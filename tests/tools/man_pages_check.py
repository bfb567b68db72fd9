#!/usr/bin/env python3
"""Every option and command a program's --help lists is in its man page.

    man_pages_check.py --man-dir docs/man PROGRAM...

For each PROGRAM (a path), runs `PROGRAM --help` and reads
<man-dir>/<name>.6: each `--option` word of the help must appear in the page
(roff writes it \\-\\-option), and for a program with commands (gobblet-tb),
each command's own options too (`PROGRAM COMMAND --help`). Exits 1 naming
what is missing."""

import argparse
import re
import subprocess
import sys
from pathlib import Path

OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def help_text(*argv):
    done = subprocess.run(list(argv) + ["--help"], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} --help exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def commands_of(text):
    """The command words of a help text's "commands:" section, if any: the
    lines indented by two spaces (the wrapped help is indented further)."""
    words, inside = [], False
    for line in text.splitlines():
        if line.strip().lower().startswith("commands"):
            inside = True
        elif inside and line.strip() and not line.startswith(" "):
            inside = False
        elif inside:
            match = re.match(r"^  ([a-z][a-z-]*)(\s{2,}|$)", line)
            if match:
                words.append(match.group(1))
    return words


def missing_options(program, page):
    text = help_text(program)
    helps = [text] + [help_text(program, command) for command in commands_of(text)]
    roff = page.replace("\\-", "-").replace("\\fB", "").replace("\\fR", "").replace("\\fI", "").replace("\\fP", "")
    found = set(OPTION.findall(roff))
    wanted = set()
    for h in helps:
        wanted.update(OPTION.findall(h))
    wanted -= {"--help", "--version"}
    return sorted(wanted - found)


def self_test():
    assert OPTION.findall("  --ranks N  ranks; --memory-per-rank MiB, not a-b--c") == ["--ranks", "--memory-per-rank"]
    assert commands_of("usage: x\ncommands:\n  build  solve and\n         spread\n  info   show\n\noptions:\n  --x\n") == [
        "build", "info"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--man-dir", required=True, type=Path)
    parser.add_argument("programs", nargs="+")
    args = parser.parse_args()
    self_test()
    failed = False
    for program in args.programs:
        name = Path(program).name
        page_path = args.man_dir / f"{name}.6"
        if not page_path.is_file():
            print(f"{name}: no man page {page_path}")
            failed = True
            continue
        missing = missing_options(program, page_path.read_text())
        if missing:
            print(f"{name}: --help lists {', '.join(missing)}, which {page_path} does not mention")
            failed = True
        else:
            print(f"{name}: every option of --help is in {page_path.name}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
