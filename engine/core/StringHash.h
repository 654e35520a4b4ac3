// Hashing for string-keyed unordered containers that are looked up by std::string_view:
//   std::unordered_map<std::string, V, StringHash, std::equal_to<>> m;  m.find(view);
// finds without building a std::string (an allocation per lookup for names over 15 bytes, which
// showed in the load profile of large dumps: one op lookup and one name lookup per node).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace fathom {

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

template <typename V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

}  // namespace fathom
