# Debian packages (cpack -G DEB in a build configured with
# -DCMAKE_INSTALL_PREFIX=/usr), one per install component:
#   fts          tools      fts-index, fts-search, fts-bench, fts-serve (and
#                           the MPI companions fts-*-mpi, built with MPI)
#   libfts0      library    libfts.so.0 (the SONAME's major version is in the name)
#   fts-dev      dev        include/fts, libfts.so, the CMake package, fts.pc;
#                           depends on exactly this version of libfts0
#   python3-fts  python     import fts, for the python3 it was built with
# dpkg-shlibdeps (dpkg-dev) finds the Debian libraries each package links.
# The tools link the engine statically, so fts does not need libfts0.
set(FTS_PACKAGE_MAINTAINER "fts maintainers <fts-maintainers@example.org>" CACHE STRING
  "Maintainer field of the Debian packages (name <email>)")
set(FTS_PACKAGE_LICENSE "none chosen yet" CACHE STRING
  "License of the Debian packages (their /usr/share/doc/PACKAGE/copyright)")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME fts)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${FTS_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)  # the debug info stays in the build tree
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/packaging_check.cmake)
set(CPACK_FTS_CONFIGURED_PREFIX "${CMAKE_INSTALL_PREFIX}")  # for packaging_check.cmake

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # NAME_VERSION_ARCH.deb
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# dpkg-shlibdeps looks for libfts.so.0, which python3-fts links, in the build
# tree; the dependency on libfts0 is written below.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR})
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)  # CPACK_COMPONENT_X_DEPENDS -> Depends: pkg (= version)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

set(CPACK_COMPONENTS_ALL tools library dev)
# A Debian description: the summary line, then the long text (CPack indents it).
function(fts_package component name section summary)
  string(TOUPPER ${component} upper)
  list(JOIN ARGN "\n" details)
  set(CPACK_DEBIAN_${upper}_PACKAGE_NAME ${name} PARENT_SCOPE)
  set(CPACK_DEBIAN_${upper}_PACKAGE_SECTION ${section} PARENT_SCOPE)
  set(CPACK_COMPONENT_${upper}_DESCRIPTION "full-text search engine: ${summary}
fts indexes dumps in the Wikipedia abstract format into memory-mapped
segments and answers boolean, phrase and field queries ranked by BM25.

${details}" PARENT_SCOPE)
endfunction()

fts_package(tools fts utils "command-line tools and HTTP server"
  "This package has fts-index (builds and updates indexes), fts-search,"
  "fts-bench (query latency) and fts-serve (a JSON search API and page),"
  "and where built with MPI their companions for --distributed (fts-*-mpi).")
fts_package(library libfts${PROJECT_VERSION_MAJOR} libs "shared library"
  "This package has libfts.so.${PROJECT_VERSION_MAJOR}, which programs embedding fts load.")
fts_package(dev fts-dev libdevel "development files"
  "This package has the C++ headers (fts/fts.h), the libfts.so link and the"
  "CMake (find_package(fts), fts::fts) and pkg-config (fts) files.")
set(CPACK_COMPONENT_DEV_DEPENDS library)
# libfts0's DEBIAN/shlibs, what a package linked with libfts.so.0 depends on
# (dpkg-shlibdeps reads it), written here: CPack's would also look for a
# SONAME in the Python module. Its triggers run ldconfig once per dpkg run.
set(control ${PROJECT_BINARY_DIR}/libfts-control)
file(WRITE ${control}/shlibs "libfts ${PROJECT_VERSION_MAJOR} libfts${PROJECT_VERSION_MAJOR} (>= ${PROJECT_VERSION})\n")
file(WRITE ${control}/triggers "activate-noawait ldconfig\n")
set(CPACK_DEBIAN_LIBRARY_PACKAGE_CONTROL_EXTRA ${control}/shlibs ${control}/triggers)

if(TARGET fts_python)
  list(APPEND CPACK_COMPONENTS_ALL python)
  fts_package(python python3-fts python "Python module"
    "This package has import fts (Index, IndexWriter, the fts.Error"
    "exceptions) over libfts, for python${FTS_PYTHON_VERSION}.")
  set(CPACK_COMPONENT_PYTHON_DEPENDS library)
  # The module is built for one interpreter version (fts.cpython-3XY-*.so).
  string(REPLACE "." ";" version ${FTS_PYTHON_VERSION})
  list(GET version 0 major)
  list(GET version 1 minor)
  math(EXPR next_minor "${minor} + 1")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS "python3 (>= ${major}.${minor}~), python3 (<< ${major}.${next_minor})")
endif()

# Debian wants /usr/share/doc/PACKAGE/copyright and changelog.gz in every
# package; they are installed only with their package's component
# (EXCLUDE_FROM_ALL), not by a plain cmake --install.
set(doc ${PROJECT_BINARY_DIR}/debian-doc)
configure_file(${CMAKE_CURRENT_LIST_DIR}/copyright.in ${doc}/copyright @ONLY)
string(TIMESTAMP FTS_PACKAGE_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)  # SOURCE_DATE_EPOCH if set
configure_file(${CMAKE_CURRENT_LIST_DIR}/changelog.in ${doc}/changelog @ONLY)
execute_process(COMMAND gzip -9nc ${doc}/changelog OUTPUT_FILE ${doc}/changelog.gz COMMAND_ERROR_IS_FATAL ANY)
foreach(component ${CPACK_COMPONENTS_ALL})
  string(TOUPPER ${component} upper)
  install(FILES ${doc}/copyright ${doc}/changelog.gz
    DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${CPACK_DEBIAN_${upper}_PACKAGE_NAME} COMPONENT ${component} EXCLUDE_FROM_ALL)
endforeach()

include(CPack)
