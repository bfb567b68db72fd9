#!/usr/bin/env python3
"""cmake/version.cmake on scratch trees whose answers are known: a clean
checkout names its commit, a change to a tracked file adds .dirty (a file
touched but not changed, or an untracked one, does not), a copy with no git
says unknown, and so does a copy inside another repository (whose commit is
not its own); a given description wins, one with other characters is
refused; a `git archive` tarball names its commit through cmake/commit.txt;
the header is rewritten only when the version changes.

Usage: version_script_test.py CMAKE RELEASE   (exit 77: no git, skipped)
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
# What the script needs of the tree: itself, the helper it includes, and
# the file `git archive` fills in with the attribute that says so.
FILES = ["cmake/version.cmake", "cmake/write_if_changed.cmake", "cmake/commit.txt", ".gitattributes"]
# git as a user's, but never theirs: no global or system configuration, no
# repository of the environment.
ENV = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
ENV.update(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
           GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}", file=sys.stderr)


def git(tree, *arguments):
    return subprocess.run(["git", "-C", str(tree), *arguments], env=ENV, check=True, capture_output=True,
                          text=True).stdout.strip()


def version(cmake, tree, *definitions, out=None):
    """The script's answer for `tree`: (exit code, stdout stripped, stderr)."""
    command = [cmake, f"-DSOURCE_DIR={tree}", *definitions]
    if out:
        command.append(f"-DOUT={out}")
    r = subprocess.run([*command, "-P", str(Path(tree) / "cmake" / "version.cmake")], env=ENV, capture_output=True,
                       text=True)
    return r.returncode, r.stdout.strip(), r.stderr


def copy_files(into):
    for name in FILES:
        (into / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPOSITORY / name, into / name)
    (into / "main.cpp").write_text("int main() {}\n")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    cmake, release = sys.argv[1], sys.argv[2]
    if shutil.which("git") is None:
        print("no git: skipped", file=sys.stderr)
        sys.exit(77)
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        tree = scratch / "tree"
        copy_files(tree)
        git(tree, "init", "-q")
        git(tree, "add", ".")
        git(tree, "commit", "-q", "-m", "first")
        head = git(tree, "rev-parse", "HEAD")[:12]
        clean = f"{release}+g{head}"

        code, said, err = version(cmake, tree)
        check(code == 0 and said == clean, f"a clean checkout: {said!r} ({err.strip()}), not {clean!r}")
        (tree / "untracked.txt").write_text("x\n")
        os.utime(tree / "main.cpp", (1, 1))
        code, said, err = version(cmake, tree)
        check(said == clean, f"an untracked file, a file touched: {said!r}, not {clean!r}")
        (tree / "main.cpp").write_text("int main() { return 1; }\n")
        code, said, err = version(cmake, tree)
        check(said == clean + ".dirty", f"a tracked file changed: {said!r}, not {clean + '.dirty'!r}")

        code, said, err = version(cmake, tree, "-DGOBBLET_VERSION_DESCRIPTION=debian1.2")
        check(said == f"{release}+debian1.2", f"a given description: {said!r}")
        for bad in ("with space", "a+b", "a-b", ".a", "a..b"):
            code, said, err = version(cmake, tree, f"-DGOBBLET_VERSION_DESCRIPTION={bad}")
            check(code != 0 and "letters, digits and dots" in err,
                  f"the description {bad!r} was taken: exit {code}, {said!r}, {err.strip()!r}")

        copy = scratch / "copy"
        copy_files(copy)
        code, said, err = version(cmake, copy)
        check(said == f"{release}+unknown", f"a copy with no git: {said!r}")
        inner = tree / "vendored"
        copy_files(inner)
        git(tree, "add", ".")
        git(tree, "commit", "-q", "-m", "vendored")
        code, said, err = version(cmake, inner)
        check(said == f"{release}+unknown", f"a copy inside another repository: {said!r}")

        archive = scratch / "archive.tar"
        git(tree, "archive", "-o", str(archive), "HEAD")
        unpacked = scratch / "unpacked"
        unpacked.mkdir()
        subprocess.run(["tar", "-xf", str(archive), "-C", str(unpacked)], check=True)
        archived = f"{release}+g{git(tree, 'rev-parse', 'HEAD')[:12]}"
        code, said, err = version(cmake, unpacked)
        check(said == archived, f"a git archive tarball: {said!r}, not {archived!r}")

        header = scratch / "out" / "version_text.h"
        code, said, err = version(cmake, tree, out=header)
        check(code == 0 and said == "", f"with OUT: exit {code}, printed {said!r} ({err.strip()})")
        text = header.read_text() if header.exists() else ""
        check(f'#define GOBBLET_VERSION "{archived}"\n' in text, f"the header: {text!r}")
        os.utime(header, (1, 1))
        version(cmake, tree, out=header)
        check(header.stat().st_mtime == 1, "the header was rewritten with the same version")
        (tree / "main.cpp").write_text("int main() { return 2; }\n")
        version(cmake, tree, out=header)
        check(header.read_text() == text.replace(archived, archived + ".dirty"),
              f"the header after a change: {header.read_text()!r}")
    if failures:
        sys.exit(f"{len(failures)} failed")
    print("version_script_test: all passed")


if __name__ == "__main__":
    main()
