// A value or an error message: how parsers and the engine facade report bad input.
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace damas {

struct Error {
  std::string message;
};

// E is the error's type: Error (a message) unless a caller needs more, such as the web API's kind.
template <typename T, typename E = Error>
class Expected {
 public:
  Expected(T value) : data_(std::move(value)) {}  // NOLINT: implicit by design
  Expected(E error) : data_(std::move(error)) {}  // NOLINT: implicit by design

  bool has_value() const { return data_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  const T& value() const& { return std::get<0>(data_); }
  T& value() & { return std::get<0>(data_); }
  T&& value() && { return std::get<0>(std::move(data_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }
  // The message of an Error; the whole error of another type.
  const auto& error() const {
    if constexpr (std::is_same_v<E, Error>) return std::get<1>(data_).message;
    else return std::get<1>(data_);
  }

 private:
  std::variant<T, E> data_;
};

// For operations that return nothing on success.
struct Ok {};
using Status = Expected<Ok>;

}  // namespace damas
