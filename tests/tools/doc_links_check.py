#!/usr/bin/env python3
"""Every relative link of the Markdown files given leads to a file that is there.

    doc_links_check.py [--paths ROOT] FILE_OR_FOLDER...

Reads each .md file (a folder: every .md file under it), skips fenced code
blocks and inline code, and checks each link `[text](target)` whose target
is not a URL (scheme:) or an anchor of the same page: the target's path,
relative to the file, must exist; a `#section` after it must name one of
the target page's headings (as GitHub makes anchors: lower case, spaces to
'-', punctuation dropped).

With --paths ROOT (the source tree), a path of the tree named as inline
code, such as `tests/match/fake_engine.cpp` or `server/`, must also exist
under ROOT: it is a path when it begins with one of the tree's top-level
folders and ends in a file name with an extension or in '/' (a pattern
with '*' or '<' is not checked). Exits 1 listing the broken ones."""

import re
import sys
from pathlib import Path

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def unfenced_lines(text):
    """(number, line) of the lines outside fenced code blocks."""
    inside = False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            inside = not inside
        elif not inside:
            yield number, line


def prose_lines(text, keep_code=False):
    """The lines outside fenced code blocks, inline code removed (kept, as
    text, with keep_code)."""
    for number, line in unfenced_lines(text):
        yield number, line.replace("`", "") if keep_code else re.sub(r"`[^`]*`", "", line)


def anchor_of(heading):
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path):
    return {anchor_of(line.lstrip("#")) for _, line in prose_lines(path.read_text(errors="replace"), keep_code=True)
            if line.startswith("#")}


def broken_links(path):
    for number, line in prose_lines(path.read_text(errors="replace")):
        for target in LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
                continue  # a URL
            file_part, _, section = target.partition("#")
            destination = (path.parent / file_part).resolve() if file_part else path
            if not destination.exists():
                yield f"{path}:{number}: {target}: no such file"
            elif section and destination.suffix == ".md" and section not in anchors(destination):
                yield f"{path}:{number}: {target}: no heading #{section} in {destination.name}"


SOURCE_FOLDERS = ("engine", "search", "protocol", "server", "tablebase", "match", "tools", "tests", "web",
                  "python", "examples", "cmake", "docs")
INLINE_CODE = re.compile(r"`([^`\s]+)`")
SOURCE_PATH = re.compile(r"^(?:" + "|".join(SOURCE_FOLDERS) + r")/(?:[\w.+-]+/)*(?:[\w+-]+(?:\.[\w]+)+)?$")


def source_paths(text):
    """(line, path) of each path of the source tree named as inline code."""
    for number, line in unfenced_lines(text):
        for code in INLINE_CODE.findall(line):
            if SOURCE_PATH.match(code) and not code.endswith("/..."):
                yield number, code


def missing_paths(path, root):
    for number, code in source_paths(path.read_text(errors="replace")):
        if not (root / code).exists():
            yield f"{path}:{number}: `{code}`: no such path in the source tree"


def self_test():
    assert anchor_of(" The 3x3 tablebase") == "the-3x3-tablebase"
    assert anchor_of("Search, bench and strength") == "search-bench-and-strength"
    assert anchor_of(next(line for _, line in prose_lines("## The builder (`tb::solve`)", keep_code=True))
                     .lstrip("#")) == "the-builder-tbsolve"
    lines = dict(prose_lines("a [x](y.md)\n```\n[z](w.md)\n```\n`[q](r.md)` [s](t.md)\n"))
    assert LINK.findall(lines[1]) == ["y.md"] and 3 not in lines and LINK.findall(lines[5]) == ["t.md"]
    named = [code for _, code in source_paths(
        "`tests/match/fake_engine.cpp` `server/` `tests/match_*_test.cpp` `go depth 4` `a/b.c`\n"
        "```\n`tests/x.cpp`\n```\n`tools/gobblet-tb` `docs/cpp.md`")]
    assert named == ["tests/match/fake_engine.cpp", "server/", "docs/cpp.md"], named


def main():
    self_test()
    arguments = sys.argv[1:]
    root = None
    if arguments[:1] == ["--paths"]:
        if len(arguments) < 2:
            sys.exit("doc_links_check.py: --paths needs the source tree's folder")
        root = Path(arguments[1])
        arguments = arguments[2:]
    files = []
    for argument in arguments:
        path = Path(argument)
        files += sorted(path.rglob("*.md")) if path.is_dir() else [path]
    if not files:
        sys.exit("doc_links_check.py: no Markdown files given")
    problems = [problem for path in files for problem in broken_links(path)]
    if root:
        problems += [problem for path in files for problem in missing_paths(path, root)]
    for problem in problems:
        print(problem)
    print(f"{len(files)} Markdown files, {len(problems)} broken links" + (" or paths" if root else ""))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
