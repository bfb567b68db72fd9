"""Builds gobblet._core with CMake (the repository's CMakeLists.txt with
GOBBLET_PYTHON=ON) and puts it in the package beside gobblet/__init__.py.

The metadata is in pyproject.toml; this file says how the extension is
compiled, and the version, which is the engine's (gobblet.__version__):
the release and the commit built, from cmake/version.cmake. Environment:
GOBBLET_CMAKE_ARGS adds CMake arguments (e.g. "-DGOBBLET_ARCH=native"; a
-DGOBBLET_VERSION_DESCRIPTION=... there names the version too);
CMAKE_BUILD_PARALLEL_LEVEL the jobs (default 2).
"""

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

REPOSITORY = Path(__file__).resolve().parent  # the CMake project


def cmake_program() -> str:
    cmake = shutil.which("cmake")
    if cmake is None:
        raise RuntimeError("building gobblet needs cmake (Debian: apt install cmake)")
    return cmake


def cmake_arguments() -> list:
    """The CMake arguments the builder adds (GOBBLET_CMAKE_ARGS)."""
    return shlex.split(os.environ.get("GOBBLET_CMAKE_ARGS", ""))


def version() -> str:
    """The version the extension reports, as cmake/version.cmake describes
    this tree: "0.1.0+g<commit>", a valid PEP 440 local version."""
    given = [a for a in cmake_arguments() if a.startswith("-DGOBBLET_VERSION_DESCRIPTION")]
    described = subprocess.run(
        [cmake_program(), f"-DSOURCE_DIR={REPOSITORY}", *given, "-P", str(REPOSITORY / "cmake" / "version.cmake")],
        capture_output=True, text=True)
    if described.returncode != 0:
        raise RuntimeError(f"cmake/version.cmake failed: {described.stderr.strip()}")
    return described.stdout.strip()


class CMakeExtension(Extension):
    """An extension CMake builds (no sources for setuptools to compile)."""

    def __init__(self, name: str, target: str):
        super().__init__(name, sources=[])
        self.target = target


class CMakeBuild(build_ext):
    """Configures the repository with CMake and builds the module's target only."""

    def build_extension(self, ext: CMakeExtension) -> None:
        cmake = cmake_program()
        if not (REPOSITORY / "CMakeLists.txt").is_file():
            raise RuntimeError(f"{REPOSITORY} is not the gobblet repository: build from a clone")
        package_dir = Path(self.get_ext_fullpath(ext.name)).resolve().parent
        build_dir = Path(self.build_temp).resolve() / "cmake"
        build_dir.mkdir(parents=True, exist_ok=True)
        import pybind11  # the build requirement (Debian: python3-pybind11)

        configure = [
            cmake, "-S", str(REPOSITORY), "-B", str(build_dir),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DBUILD_TESTING=OFF",
            "-DGOBBLET_PYTHON=ON",
            f"-DGOBBLET_PYTHON_PACKAGE_DIR={package_dir}",
            f"-Dpybind11_DIR={pybind11.get_cmake_dir()}",
            f"-DPython_EXECUTABLE={sys.executable}",
        ]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        configure += cmake_arguments()
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.run(configure, check=True)
        subprocess.run([cmake, "--build", str(build_dir), "--target", ext.target, "-j", jobs], check=True)


setup(
    version=version(),
    ext_modules=[CMakeExtension("gobblet._core", target="gobblet_python")],
    cmdclass={"build_ext": CMakeBuild},
)
