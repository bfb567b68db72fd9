"""Builds gobblet._core with CMake (the repository's CMakeLists.txt with
GOBBLET_PYTHON=ON) and puts it in the package beside gobblet/__init__.py.

The version and metadata are in pyproject.toml; this file only says how the
extension is compiled. Environment: GOBBLET_CMAKE_ARGS adds CMake arguments
(e.g. "-DGOBBLET_ARCH=native"); CMAKE_BUILD_PARALLEL_LEVEL the jobs (default 2).
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


class CMakeExtension(Extension):
    """An extension CMake builds (no sources for setuptools to compile)."""

    def __init__(self, name: str, target: str):
        super().__init__(name, sources=[])
        self.target = target


class CMakeBuild(build_ext):
    """Configures the repository with CMake and builds the module's target only."""

    def build_extension(self, ext: CMakeExtension) -> None:
        cmake = shutil.which("cmake")
        if cmake is None:
            raise RuntimeError("building gobblet needs cmake (Debian: apt install cmake)")
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
        configure += shlex.split(os.environ.get("GOBBLET_CMAKE_ARGS", ""))
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.run(configure, check=True)
        subprocess.run([cmake, "--build", str(build_dir), "--target", ext.target, "-j", jobs], check=True)


setup(
    ext_modules=[CMakeExtension("gobblet._core", target="gobblet_python")],
    cmdclass={"build_ext": CMakeBuild},
)
