# Where cmake --install and the Debian packages put things (GNUInstallDirs),
# with one change: the libraries, their CMake package and their pkg-config
# files go to Debian's multiarch folder, lib/<triplet> (lib/x86_64-linux-gnu
# on amd64), whatever the prefix. GNUInstallDirs picks that folder only when
# the prefix is /usr at configure time, but cpack installs under /usr with a
# build configured for /usr/local; without this the packages would ship
# /usr/lib/pkgconfig, where a cross-compiling pkg-config does not look.
# CMake's find_package and Debian's pkg-config search lib/<triplet> under
# every prefix. Set CMAKE_INSTALL_LIBDIR to choose another folder.
if(NOT DEFINED CMAKE_INSTALL_LIBDIR AND CMAKE_LIBRARY_ARCHITECTURE)
  set(CMAKE_INSTALL_LIBDIR lib/${CMAKE_LIBRARY_ARCHITECTURE} CACHE PATH "Object code libraries (lib/<multiarch triplet>)")
endif()
include(GNUInstallDirs)
