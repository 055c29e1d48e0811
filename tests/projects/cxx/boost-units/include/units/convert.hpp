// Unit conversions for a recipe scaler: lengths in millimetres, temperatures in degrees.
#pragma once

#include <stdexcept>
#include <string>

namespace units {

inline double inches_to_mm(double in) { return in * 25.4; }

inline double feet_to_mm(double ft) { return inches_to_mm(ft * 12.0); }

// "3in", "2ft", "15mm" -> millimetres; throws std::invalid_argument on an unknown unit.
inline double parse_length(const std::string& text) {
  std::size_t used = 0;
  const double value = std::stod(text, &used);
  const std::string unit = text.substr(used);
  if (unit == "mm") return value;
  if (unit == "in") return inches_to_mm(value);
  if (unit == "ft") return feet_to_mm(value);
  throw std::invalid_argument("unknown unit: " + unit);
}

inline double celsius_to_fahrenheit(double c) { return c * 9.0 / 5.0 + 32.0; }

inline double fahrenheit_to_celsius(double f) { return (f - 32.0) * 5.0 / 9.0; }

// Gas mark (British ovens) for a temperature in Celsius: 1 at 140 °C, one step per 14 °C.
inline int gas_mark(double celsius) {
  if (celsius < 135) return 0;
  return static_cast<int>((celsius - 140) / 14.0 + 0.5) + 1;
}

}  // namespace units
