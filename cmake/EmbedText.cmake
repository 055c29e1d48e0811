# Wraps a text file into a C++ raw string literal, for files that cannot carry the wrapper lines
# the harness texts use (a vendored file stays byte-identical to its upstream).
#   cmake -DINPUT=<file> -DOUTPUT=<file.inc> -DDELIM=<raw string delimiter> -P EmbedText.cmake
# The output is only rewritten when it changes, so an unchanged input rebuilds nothing.
foreach(var INPUT OUTPUT DELIM)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "EmbedText.cmake: -D${var}=... is required")
  endif()
endforeach()
file(READ "${INPUT}" content)
string(FIND "${content}" ")${DELIM}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "EmbedText.cmake: ${INPUT} contains the delimiter )${DELIM}\" at ${clash}; choose another DELIM")
endif()
file(WRITE "${OUTPUT}.tmp" "// Generated from ${INPUT} by cmake/EmbedText.cmake; do not edit.\nR\"${DELIM}(${content})${DELIM}\"\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
