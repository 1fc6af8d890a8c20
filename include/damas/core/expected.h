// A value or an error message: how parsers and the engine facade report bad input.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace damas {

struct Error {
  std::string message;
};

template <typename T>
class Expected {
 public:
  Expected(T value) : data_(std::move(value)) {}      // NOLINT: implicit by design
  Expected(Error error) : data_(std::move(error)) {}  // NOLINT: implicit by design

  bool has_value() const { return data_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  const T& value() const& { return std::get<0>(data_); }
  T& value() & { return std::get<0>(data_); }
  T&& value() && { return std::get<0>(std::move(data_)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  const std::string& error() const { return std::get<1>(data_).message; }

 private:
  std::variant<T, Error> data_;
};

// For operations that return nothing on success.
struct Ok {};
using Status = Expected<Ok>;

}  // namespace damas
