#pragma once

#include <vector>

#include "geom/vec.hpp"

namespace geom {

using Point = Vec2<double>;

struct Box {
  Point min, max;
};

// Twice the signed area (shoelace formula): positive when counter-clockwise.
double signed_area2(const std::vector<Point>& polygon);
double area(const std::vector<Point>& polygon);
double perimeter(const std::vector<Point>& polygon);
// The smallest axis-aligned box holding every point; an empty polygon has none (throws).
Box bounding_box(const std::vector<Point>& polygon);

}  // namespace geom
