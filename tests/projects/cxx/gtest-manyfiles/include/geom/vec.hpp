// geom: 2-D vectors (header-only templates) and polygons (src/polygon.cpp).
#pragma once

#include <cmath>

namespace geom {

template <typename T>
struct Vec2 {
  T x{}, y{};
  friend bool operator==(const Vec2& a, const Vec2& b) { return a.x == b.x && a.y == b.y; }
};

template <typename T>
Vec2<T> add(Vec2<T> a, Vec2<T> b) {
  return {a.x + b.x, a.y + b.y};
}

template <typename T>
Vec2<T> sub(Vec2<T> a, Vec2<T> b) {
  return {a.x - b.x, a.y - b.y};
}

template <typename T>
Vec2<T> scale(Vec2<T> v, T k) {
  return {v.x * k, v.y * k};
}

template <typename T>
T dot(Vec2<T> a, Vec2<T> b) {
  return a.x * b.x + a.y * b.y;
}

template <typename T>
T cross(Vec2<T> a, Vec2<T> b) {
  return a.x * b.y - a.y * b.x;
}

template <typename T>
double length(Vec2<T> v) {
  return std::sqrt(static_cast<double>(dot(v, v)));
}

}  // namespace geom
