#include "engine/dump/JsonEvents.h"

#include <simdjson.h>

#include <string>

namespace fathom::dumpread {
namespace {

using Handler = nlohmann::json_sax<json>;

// Depth is bounded by the parser's maxDepth, so recursion is safe.
bool walkElement(simdjson::dom::element e, Handler& h) {
  using T = simdjson::dom::element_type;
  switch (e.type()) {
    case T::ARRAY: {
      const simdjson::dom::array a = e.get_array().value_unsafe();
      if (!h.start_array(a.size())) return false;
      for (simdjson::dom::element child : a)
        if (!walkElement(child, h)) return false;
      return h.end_array();
    }
    case T::OBJECT: {
      const simdjson::dom::object o = e.get_object().value_unsafe();
      if (!h.start_object(o.size())) return false;
      std::string key;
      for (simdjson::dom::key_value_pair kv : o) {
        key.assign(kv.key);
        if (!h.key(key) || !walkElement(kv.value, h)) return false;
      }
      return h.end_object();
    }
    case T::INT64: {
      const int64_t v = e.get_int64().value_unsafe();
      // nlohmann's lexer calls every integer without a minus sign unsigned.
      return v >= 0 ? h.number_unsigned(static_cast<uint64_t>(v)) : h.number_integer(v);
    }
    case T::UINT64: return h.number_unsigned(e.get_uint64().value_unsafe());
    case T::DOUBLE: {
      static const std::string noText;  // no handler here reads the number's text
      return h.number_float(e.get_double().value_unsafe(), noText);
    }
    case T::STRING: {
      std::string s(e.get_string().value_unsafe());
      return h.string(s);
    }
    case T::BOOL: return h.boolean(e.get_bool().value_unsafe());
    case T::NULL_VALUE: return h.null();
  }
  return false;
}

// nlohmann's own DOM builder behind the virtual SAX interface.
class DomBuilder final : public Handler {
 public:
  explicit DomBuilder(json& out) : dom_(out, /*allow_exceptions=*/false) {}
  bool null() override { return dom_.null(); }
  bool boolean(bool v) override { return dom_.boolean(v); }
  bool number_integer(number_integer_t v) override { return dom_.number_integer(v); }
  bool number_unsigned(number_unsigned_t v) override { return dom_.number_unsigned(v); }
  bool number_float(number_float_t v, const string_t& s) override { return dom_.number_float(v, s); }
  bool string(string_t& v) override { return dom_.string(v); }
  bool binary(binary_t& v) override { return dom_.binary(v); }
  bool start_object(std::size_t n) override { return dom_.start_object(n); }
  bool key(string_t& k) override { return dom_.key(k); }
  bool end_object() override { return dom_.end_object(); }
  bool start_array(std::size_t n) override { return dom_.start_array(n); }
  bool end_array() override { return dom_.end_array(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  nlohmann::detail::json_sax_dom_parser<json> dom_;
};

}  // namespace

struct ParsedJson::Impl {
  simdjson::padded_string padded;  // simdjson reads up to 64 bytes past the end
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  bool ok = false;
};

ParsedJson::ParsedJson(std::string_view text, int maxDepth) : impl_(std::make_unique<Impl>()) {
  impl_->padded = simdjson::padded_string(text);
  // simdjson's limit is checkJsonDepth's: maxDepth levels pass, one more fails.
  impl_->ok = maxDepth >= 1 &&
              impl_->parser.allocate(text.size(), static_cast<size_t>(maxDepth)) == simdjson::SUCCESS &&
              impl_->parser.parse(impl_->padded).get(impl_->root) == simdjson::SUCCESS;
}

ParsedJson::~ParsedJson() = default;

bool ParsedJson::ok() const { return impl_->ok; }

bool ParsedJson::walk(Handler& handler) const {
  if (!impl_->ok) return false;
  try {
    return walkElement(impl_->root, handler);
  } catch (...) {
    return false;  // a handler that throws gives up like one that returns false
  }
}

bool ParsedJson::buildDom(json& out) const {
  DomBuilder builder(out);
  return walk(builder);
}

}  // namespace fathom::dumpread
