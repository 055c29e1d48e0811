// A fixed-capacity FIFO that overwrites its oldest element when full.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <vector>

namespace ringbuf {

template <typename T>
class RingBuffer {
 public:
  explicit RingBuffer(std::size_t capacity) : data_(capacity) {
    if (capacity == 0) throw std::invalid_argument("RingBuffer capacity must be positive");
  }

  std::size_t capacity() const { return data_.size(); }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == data_.size(); }

  // Appends `value`; when full, the oldest element is dropped to make room.
  void push(const T& value) {
    data_[(head_ + size_) % data_.size()] = value;
    if (full()) {
      head_ = (head_ + 1) % data_.size();
    } else {
      ++size_;
    }
  }

  // Removes and returns the oldest element.
  T pop() {
    if (empty()) throw std::out_of_range("pop from an empty RingBuffer");
    T value = data_[head_];
    head_ = (head_ + 1) % data_.size();
    --size_;
    return value;
  }

  // i = 0 is the oldest element.
  const T& operator[](std::size_t i) const {
#if RINGBUF_CHECKED
    if (i >= size_) throw std::out_of_range("RingBuffer index out of range");
#endif
    return data_[(head_ + i) % data_.size()];
  }

  const T& front() const { return (*this)[0]; }
  const T& back() const { return (*this)[size_ - 1]; }

  std::vector<T> to_vector() const {
    std::vector<T> out;
    out.reserve(size_);
    for (std::size_t i = 0; i < size_; ++i) out.push_back((*this)[i]);
    return out;
  }

  void clear() {
    head_ = 0;
    size_ = 0;
  }

 private:
  std::vector<T> data_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace ringbuf
