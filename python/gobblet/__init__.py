"""Gobblet from Python: the gobblet engine's rules, search, tablebases and prover.

    >>> import gobblet
    >>> game = gobblet.Game("gobblers")
    >>> game.play("L@b2")
    >>> result = gobblet.Engine().search(game, depth=6)

See docs/python.md for the whole interface.
"""

from gobblet._core import (
    Engine,
    Evaluation,
    Game,
    GameOverError,
    IllegalMoveError,
    Line,
    PositionError,
    Probe,
    Proof,
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
    variant_names,
)

__all__ = [
    "Engine",
    "Evaluation",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "Line",
    "PositionError",
    "Probe",
    "Proof",
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
    "default_tablebase_path",
    "perft",
    "prove",
    "variant_names",
]
