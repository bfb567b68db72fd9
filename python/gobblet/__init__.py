"""Gobblet from Python: the gobblet engine's rules, search, tablebases and prover.

    >>> import gobblet
    >>> game = gobblet.Game("gobblers")
    >>> game.play("L@b2")
    >>> result = gobblet.Engine().search(game, depth=6)

See docs/python.md for the whole interface.
"""

import functools as _functools
import os as _os

from gobblet import _core
from gobblet._core import (
    Draw,
    Engine,
    Evaluation,
    Game,
    GameOverError,
    IllegalMoveError,
    Line,
    NotLost,
    Option,
    PgnGame,
    PositionError,
    Probe,
    Proof,
    ProofDatabase,
    Puzzle,
    RankedMove,
    Score,
    SearchResult,
    TableCounts,
    Tablebase,
    TablebaseError,
    Variant,
    VariantError,
    __version__,
    build_tablebase,
    check_certificate,
    default_tablebase_path,
    perft,
    prove,
    prove_draw,
    prove_not_lost,
    read_pgn,
    read_pgn_file,
    variant_names,
    write_pgn,
)

__all__ = [
    "Draw",
    "Engine",
    "Evaluation",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "Line",
    "NotLost",
    "Option",
    "PgnGame",
    "PositionError",
    "Probe",
    "Proof",
    "ProofDatabase",
    "Puzzle",
    "RankedMove",
    "Score",
    "SearchResult",
    "TableCounts",
    "Tablebase",
    "TablebaseError",
    "Variant",
    "VariantError",
    "__version__",
    "build_tablebase",
    "check_certificate",
    "check_puzzle",
    "check_puzzles",
    "default_tablebase_path",
    "perft",
    "prove",
    "prove_draw",
    "prove_not_lost",
    "puzzles",
    "read_pgn",
    "read_pgn_file",
    "variant_names",
    "write_pgn",
]

# The package's copy of the repository's puzzles/ (docs/puzzles.md).
_PUZZLES_FOLDER = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "puzzles")


def _puzzle_folder(path):
    """The folder of a puzzle set: `path` itself, the folder of a puzzles.txt, or the package's."""
    if path is None:
        return _PUZZLES_FOLDER
    path = _os.fspath(path)
    return _os.path.dirname(path) or "." if _os.path.isfile(path) else path


def puzzles(path=None):
    """The puzzles with proofs, as a list of Puzzle in the file's order: easiest grades first.

    `path`: a folder holding puzzles.txt and proofs.bin, or a puzzles.txt; None, the set shipped
    with the package. A line that does not read raises ValueError naming its line; a missing file
    FileNotFoundError."""
    return _core._read_puzzles(_puzzle_folder(path))


def check_puzzle(puzzle, path=None):
    """Checks one puzzle's proofs by the rules alone: the solution wins, every other move loses.

    Returns a dict: "accepted", "reason" (why not), "alternatives" (the other moves proved lost)
    and "nodes" (certificate nodes checked). `path` as for puzzles()."""
    return _core._check_puzzle(puzzle, _puzzle_folder(path))


def check_puzzles(path=None):
    """Checks every puzzle of a set, as `gobblet-puzzles check` does.

    Returns a dict: "accepted" (every puzzle), "reason" (the first problem), "puzzles",
    "accepted_puzzles", "alternatives", "nodes" and "rejections" (one line per rejected puzzle)."""
    return _core._check_puzzles(_puzzle_folder(path))


def _parameter_names(function):
    """The parameter names of a compiled function, from the signature line that
    starts its docstring ("search(self: gobblet.Engine, game: ..., *, depth: ...)"),
    without self."""
    line = (function.__doc__ or "").split("\n", 1)[0]
    if "(" not in line:
        return []
    names, part, depth = [], "", 0
    for char in line[line.index("(") + 1:]:
        if depth == 0 and char in ",)":
            name = part.split(":")[0].split("=")[0].strip()
            if name not in ("", "self", "*", "/"):
                names.append(name)
            part = ""
            if char == ")":
                break
            continue
        depth += 1 if char in "[(" else -1 if char in "])" else 0
        part += char
    return names


def _naming_bad_keywords(function, label):
    """`function` raising, for an unknown keyword, a TypeError that names it and the
    accepted ones instead of the compiled module's list of signatures."""
    accepted = _parameter_names(function)

    @_functools.wraps(function)
    def call(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except TypeError as error:
            unknown = [name for name in kwargs if name not in accepted]
            if not unknown or "incompatible" not in str(error):
                raise
            raise TypeError(f"{label}() got an unexpected keyword argument {unknown[0]!r}; "
                            f"it takes: {', '.join(accepted)}") from None

    return call


def _name_bad_keywords():
    """Wraps every function and method of the module that takes arguments
    (see _naming_bad_keywords); the call is the compiled one."""
    for name in __all__:
        item = globals()[name]
        if isinstance(item, type) and not issubclass(item, BaseException):
            for attribute, method in list(vars(item).items()):
                if (attribute == "__init__" or not attribute.startswith("_")) and callable(method) \
                        and _parameter_names(method):
                    label = item.__name__ if attribute == "__init__" else f"{item.__name__}.{attribute}"
                    setattr(item, attribute, _naming_bad_keywords(method, label))
        elif callable(item) and not isinstance(item, type) and _parameter_names(item):
            wrapped = _naming_bad_keywords(item, name)
            globals()[name] = wrapped
            setattr(_core, name, wrapped)


_name_bad_keywords()
