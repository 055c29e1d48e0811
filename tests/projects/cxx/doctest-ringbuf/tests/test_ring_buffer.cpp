#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "ringbuf/ring_buffer.hpp"

using ringbuf::RingBuffer;

TEST_SUITE("ring_buffer") {
  TEST_CASE("a new buffer is empty") {
    RingBuffer<int> rb(3);
    CHECK(rb.empty());
    CHECK(rb.size() == 0);
    CHECK(rb.capacity() == 3);
    CHECK_FALSE(rb.full());
  }

  TEST_CASE("zero capacity is rejected") { CHECK_THROWS_AS(RingBuffer<int>(0), std::invalid_argument); }

  TEST_CASE("push and pop keep FIFO order") {
    RingBuffer<int> rb(4);
    for (int i = 1; i <= 3; ++i) rb.push(i * 10);
    REQUIRE(rb.size() == 3);

    SUBCASE("pop returns the oldest first") {
      CHECK(rb.pop() == 10);
      CHECK(rb.pop() == 20);
      CHECK(rb.size() == 1);
    }
    SUBCASE("indexing starts at the oldest") {
      CHECK(rb[0] == 10);
      CHECK(rb[2] == 30);
      CHECK(rb.front() == 10);
      CHECK(rb.back() == 30);
    }
    SUBCASE("popping everything empties it") {
      rb.pop();
      rb.pop();
      rb.pop();
      CHECK(rb.empty());
      CHECK_THROWS_AS(rb.pop(), std::out_of_range);
    }
  }

  TEST_CASE("a full buffer overwrites its oldest element") {
    RingBuffer<std::string> rb(2);
    rb.push("a");
    rb.push("b");
    REQUIRE(rb.full());
    rb.push("c");
    CHECK(rb.size() == 2);
    CHECK(rb.to_vector() == std::vector<std::string>{"b", "c"});

    SUBCASE("and keeps wrapping around") {
      rb.push("d");
      rb.push("e");
      CHECK(rb.front() == "d");
      CHECK(rb.back() == "e");
    }
  }

  TEST_CASE("indexing past the end throws in checked builds") {
    RingBuffer<int> rb(2);
    rb.push(1);
    CHECK_THROWS_AS(rb[1], std::out_of_range);
  }

  TEST_CASE("clear forgets the elements" * doctest::description("capacity stays")) {
    RingBuffer<int> rb(2);
    rb.push(1);
    rb.clear();
    CHECK(rb.empty());
    rb.push(5);
    CHECK(rb.front() == 5);
  }

  TEST_CASE_TEMPLATE("works with several element types", T, int, double, std::string) {
    RingBuffer<T> rb(1);
    rb.push(T{});
    rb.push(T{});
    CHECK(rb.size() == 1);
  }

  TEST_CASE("benchmark: ten million pushes" * doctest::skip()) {
    RingBuffer<int> rb(1024);
    for (int i = 0; i < 10000000; ++i) rb.push(i);
    CHECK(rb.back() == 9999999);
  }
}
