// The original self-check: a plain program, no framework. Exit code 0 = pass.
#include <cstdio>

#include "ringbuf/moving_stats.hpp"
#include "ringbuf/ring_buffer.hpp"

#define EXPECT(cond)                                                          \
  do {                                                                        \
    if (!(cond)) {                                                            \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      return 1;                                                               \
    }                                                                         \
  } while (0)

int main() {
  ringbuf::RingBuffer<int> rb(2);
  rb.push(1);
  rb.push(2);
  rb.push(3);
  EXPECT(rb.size() == 2);
  EXPECT(rb.front() == 2);
  ringbuf::MovingStats s(2);
  s.add(4);
  s.add(8);
  s.add(6);
  EXPECT(*s.average() == 7.0);
  std::puts("selfcheck ok");
  return 0;
}
