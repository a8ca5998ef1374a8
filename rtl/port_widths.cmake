# gsched: writes gs_rtl_ports.hpp, the bit width of every gs_top port, from the Verilated
# Vgs_top.h. Run as a build step (rtl/CMakeLists.txt), after Verilator has (re)generated the
# header, so the widths follow a port change in the same build:
#   cmake -DVHEADER=<Vgs_top.h> -DOUT=<gs_rtl_ports.hpp> -P rtl/port_widths.cmake
# VL_IN8(&name,msb,lsb) / VL_OUTW(&name,msb,lsb,words): width = msb - lsb + 1.
if(NOT EXISTS "${VHEADER}")
  message(FATAL_ERROR "port_widths.cmake: ${VHEADER} does not exist (Verilator has not run)")
endif()
file(STRINGS "${VHEADER}" lines REGEX "VL_(IN|OUT)")
set(body "")
foreach(line IN LISTS lines)
  if(line MATCHES "VL_(IN|OUT)[0-9W]*\\(&([A-Za-z0-9_]+),([0-9]+),([0-9]+)")
    math(EXPR w "${CMAKE_MATCH_3} - ${CMAKE_MATCH_4} + 1")
    string(APPEND body "inline constexpr unsigned ${CMAKE_MATCH_2} = ${w};\n")
  endif()
endforeach()
file(WRITE "${OUT}.tmp"
"// GENERATED at build time by rtl/port_widths.cmake from the Verilated Vgs_top.h -- do not edit.
// Bit width of every gs_top port (gs::rtl::port_width::<port name>).
#pragma once
namespace gs::rtl::port_width {
${body}}  // namespace gs::rtl::port_width
")
# only a changed file touches the dependents
execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${OUT}.tmp" "${OUT}")
file(REMOVE "${OUT}.tmp")
