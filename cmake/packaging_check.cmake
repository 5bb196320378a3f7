# Read by cpack (CPACK_PROJECT_CONFIG_FILE). The packages install under /usr,
# but the library and Python directories were chosen when the build was
# configured (GNUInstallDirs' multiarch lib/x86_64-linux-gnu and
# lib/python3/dist-packages only for the /usr prefix): refuse another prefix.
if(CPACK_GENERATOR STREQUAL "DEB" AND NOT "${CPACK_FTS_CONFIGURED_PREFIX}" STREQUAL "/usr")
  message(FATAL_ERROR "fts: the Debian packages need a build configured with -DCMAKE_INSTALL_PREFIX=/usr "
    "(this one has ${CPACK_FTS_CONFIGURED_PREFIX})")
endif()
