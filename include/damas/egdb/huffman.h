// Canonical Huffman coding of the slice files' tokens: a code (0..255) or a run token repeating
// the last code kRunLengths[k] times (symbol 256 + k).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace damas::egdb {

inline constexpr std::array<std::uint32_t, 5> kRunLengths = {4, 16, 64, 256, 1024};
inline constexpr int kSymbols = 256 + static_cast<int>(kRunLengths.size());
inline constexpr int kMaxCodeLength = 30;

// Code lengths (0 = unused) for the given symbol frequencies, at most kMaxCodeLength.
inline std::vector<std::uint8_t> huffman_lengths(std::vector<std::uint64_t> freq) {
  std::vector<std::uint8_t> len(freq.size(), 0);
  while (true) {
    struct Node {
      std::uint64_t weight;
      int left, right;
    };
    std::vector<Node> nodes;
    using Item = std::pair<std::uint64_t, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    for (std::size_t s = 0; s < freq.size(); ++s)
      if (freq[s]) {
        nodes.push_back(Node{freq[s], -1, static_cast<int>(s)});
        queue.push({freq[s], static_cast<int>(nodes.size()) - 1});
      }
    if (nodes.empty()) return len;
    if (nodes.size() == 1) {
      len[static_cast<std::size_t>(nodes[0].right)] = 1;
      return len;
    }
    while (queue.size() > 1) {
      const Item a = queue.top();
      queue.pop();
      const Item b = queue.top();
      queue.pop();
      nodes.push_back(Node{a.first + b.first, a.second, b.second});
      queue.push({a.first + b.first, static_cast<int>(nodes.size()) - 1});
    }
    // Depths by walking down from the root.
    std::vector<std::pair<int, int>> stack = {{queue.top().second, 0}};
    int deepest = 0;
    while (!stack.empty()) {
      const auto [n, depth] = stack.back();
      stack.pop_back();
      const Node& node = nodes[static_cast<std::size_t>(n)];
      if (node.left < 0) {
        len[static_cast<std::size_t>(node.right)] = static_cast<std::uint8_t>(depth);
        deepest = std::max(deepest, depth);
      } else {
        stack.push_back({node.left, depth + 1});
        stack.push_back({node.right, depth + 1});
      }
    }
    if (deepest <= kMaxCodeLength) return len;
    for (std::uint64_t& f : freq)
      if (f) f = f / 2 + 1;  // flatten and try again
  }
}

// The canonical code: symbols ordered by (length, symbol) get consecutive codes.
class CanonicalCode {
 public:
  CanonicalCode() = default;
  explicit CanonicalCode(const std::vector<std::uint8_t>& lengths) : lengths_(lengths) {
    codes_.assign(lengths.size(), 0);
    for (std::size_t s = 0; s < lengths.size(); ++s)
      if (lengths[s]) sorted_.push_back(static_cast<int>(s));
    std::stable_sort(sorted_.begin(), sorted_.end(), [&](int a, int b) {
      return lengths[static_cast<std::size_t>(a)] < lengths[static_cast<std::size_t>(b)];
    });
    std::uint32_t code = 0;
    int len = 0;
    std::size_t i = 0;
    for (int l = 1; l <= kMaxCodeLength; ++l) {
      code <<= 1;
      first_code_[static_cast<std::size_t>(l)] = code;
      first_index_[static_cast<std::size_t>(l)] = static_cast<std::uint32_t>(i);
      while (i < sorted_.size() && lengths[static_cast<std::size_t>(sorted_[i])] == l) {
        codes_[static_cast<std::size_t>(sorted_[i])] = code++;
        ++i;
      }
      count_[static_cast<std::size_t>(l)] =
          static_cast<std::uint32_t>(i) - first_index_[static_cast<std::size_t>(l)];
      len = l;
    }
    (void)len;
    fill_table();
  }
  std::uint32_t code(int s) const { return codes_[static_cast<std::size_t>(s)]; }
  int length(int s) const { return lengths_[static_cast<std::size_t>(s)]; }
  struct Decoded {
    int symbol = -1;  // -1: the bits begin no code
    int length = 0;
  };
  // The symbol whose code begins `window` (the next kMaxCodeLength bits, the first one highest):
  // one table look-up for the codes of up to kLookupBits bits (nearly all), then length by length.
  Decoded decode(std::uint32_t window) const {
    const Decoded& quick = table_[window >> (kMaxCodeLength - kLookupBits)];
    if (quick.symbol >= 0) return quick;
    for (std::size_t l = kLookupBits + 1; l <= kMaxCodeLength; ++l) {
      const std::uint32_t code = window >> (kMaxCodeLength - l);
      if (code - first_code_[l] < count_[l])
        return {sorted_[first_index_[l] + code - first_code_[l]], static_cast<int>(l)};
    }
    return {};
  }

 private:
  static constexpr int kLookupBits = 10;
  void fill_table() {
    table_.assign(std::size_t{1} << kLookupBits, Decoded{});
    for (const int s : sorted_) {
      const int l = length(s);
      if (l > kLookupBits) break;  // sorted_ is by length
      const std::uint32_t first = code(s) << (kLookupBits - l);
      for (std::uint32_t i = 0; i < (1u << (kLookupBits - l)); ++i) table_[first + i] = Decoded{s, l};
    }
  }
  std::vector<std::uint8_t> lengths_;
  std::vector<std::uint32_t> codes_;
  std::vector<int> sorted_;
  std::array<std::uint32_t, kMaxCodeLength + 1> first_code_{}, first_index_{}, count_{};
  std::vector<Decoded> table_ = std::vector<Decoded>(std::size_t{1} << kLookupBits);
};

}  // namespace damas::egdb
