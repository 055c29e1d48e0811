#include "geom/polygon.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace geom {

double signed_area2(const std::vector<Point>& p) {
  double sum = 0;
  for (std::size_t i = 0; i < p.size(); ++i) sum += cross(p[i], p[(i + 1) % p.size()]);
  return sum;
}

double area(const std::vector<Point>& p) { return std::fabs(signed_area2(p)) / 2; }

double perimeter(const std::vector<Point>& p) {
  double sum = 0;
  for (std::size_t i = 0; i < p.size(); ++i) sum += length(sub(p[(i + 1) % p.size()], p[i]));
  return sum;
}

Box bounding_box(const std::vector<Point>& p) {
  if (p.empty()) throw std::invalid_argument("bounding_box: empty polygon");
  Box b{p[0], p[0]};
  for (const auto& q : p) {
    b.min.x = std::min(b.min.x, q.x);
    b.min.y = std::min(b.min.y, q.y);
    b.max.x = std::max(b.max.x, q.x);
    b.max.y = std::max(b.max.y, q.y);
  }
  return b;
}

}  // namespace geom
