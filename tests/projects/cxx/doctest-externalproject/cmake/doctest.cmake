# doctest, downloaded at build time into the build tree. Its include directory is named by path,
# not asked of ExternalProject (ExternalProject_Get_Property): a shape real projects use.
set(DOCTEST_VERSION "2.4.9")
ExternalProject_Add(doctest_ep
  PREFIX external/doctest
  URL "https://github.com/doctest/doctest/archive/refs/tags/v${DOCTEST_VERSION}.tar.gz"
  BUILD_IN_SOURCE 1
  CONFIGURE_COMMAND ""
  BUILD_COMMAND ""
  INSTALL_COMMAND ""
)
set(DOCTEST_INCLUDE_DIR "${CMAKE_CURRENT_BINARY_DIR}/external/doctest/src/doctest_ep/doctest")
