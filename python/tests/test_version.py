"""gobblet.__version__: the engine's version, which names the commit built
(cmake/version.cmake), and the version pip installed it under."""

import importlib.metadata
import re
from pathlib import Path

import pytest

import gobblet


def test_the_version_is_the_release_and_what_was_built():
    assert re.fullmatch(r"\d+\.\d+\.\d+\+[0-9A-Za-z]+(\.[0-9A-Za-z]+)*", gobblet.__version__), gobblet.__version__


def test_pip_installed_the_module_under_its_version():
    try:
        distribution = importlib.metadata.distribution("gobblet")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("gobblet is not installed by pip (imported from a build folder)")
    if Path(distribution.locate_file("gobblet/__init__.py")).resolve() != Path(gobblet.__file__).resolve():
        pytest.skip(f"the gobblet pip installed is not the one imported ({gobblet.__file__})")
    # (pip's metadata holds the version as PEP 440 normalises it: lower case, 01 as 1.)
    try:
        from packaging.version import Version as normalised
    except ImportError:
        normalised = str.lower
    assert normalised(distribution.version) == normalised(gobblet.__version__)
