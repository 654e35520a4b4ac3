// JsonEvents: simdjson's parse delivered as nlohmann SAX events. The dump readers rely on it
// giving exactly the events nlohmann::json::sax_parse gives, and on it refusing (so that the
// caller asks nlohmann for the error) whatever it cannot read the same way.
#include <gtest/gtest.h>

#include <string>

#include "engine/dump/JsonEvents.h"

namespace fathom::dumpread {
namespace {

// Writes every event as one token, so two event streams compare as strings.
class Recorder final : public nlohmann::json_sax<json> {
 public:
  std::string log;
  bool null() override { return add("null"); }
  bool boolean(bool v) override { return add(v ? "true" : "false"); }
  bool number_integer(number_integer_t v) override { return add("i" + std::to_string(v)); }
  bool number_unsigned(number_unsigned_t v) override { return add("u" + std::to_string(v)); }
  bool number_float(number_float_t v, const string_t&) override { return add("f" + json(v).dump()); }
  bool string(string_t& v) override { return add("s" + json(v).dump()); }
  bool binary(binary_t&) override { return add("binary"); }
  bool start_object(std::size_t) override { return add("{"); }
  bool key(string_t& k) override { return add("k" + json(k).dump()); }
  bool end_object() override { return add("}"); }
  bool start_array(std::size_t) override { return add("["); }
  bool end_array() override { return add("]"); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  bool add(const std::string& token) {
    log += token + " ";
    return true;
  }
};

// One parse, one walk / one DOM: what the reader does with a ParsedJson.
bool parseJsonEvents(std::string_view text, int maxDepth, nlohmann::json_sax<json>& handler) {
  return ParsedJson(text, maxDepth).walk(handler);
}
bool buildJsonDom(std::string_view text, int maxDepth, json& out) { return ParsedJson(text, maxDepth).buildDom(out); }

std::string nlohmannEvents(const std::string& text) {
  Recorder r;
  EXPECT_TRUE(json::sax_parse(text, &r)) << text;
  return r.log;
}

TEST(JsonEvents, SameEventsAsNlohmann) {
  for (const std::string& text : {
           R"({"format": "fathom-dump", "version": 1, "graphs": {"g": {"nodes": []}}})",
           R"([0, 1, -1, 9223372036854775807, 9223372036854775808, 18446744073709551615, -9223372036854775808])",
           R"([1.5, -0.0, 1e300, 2.5e-300, 0.1, 3.0, 1E2])",
           R"(["", "a\"b", "\u00e9\u4e2d", "\ud83d\ude00", "tab\tnl\n", "\u0000"])",
           R"({"a": {"b": [[], {}, [null, true, false]]}, "c": null})",
           R"({"dup": 1, "dup": 2})",
           R"("just a string")",
           R"(  42  )",
       }) {
    Recorder r;
    ASSERT_TRUE(parseJsonEvents(text, 64, r)) << text;
    EXPECT_EQ(r.log, nlohmannEvents(text)) << text;
  }
}

TEST(JsonEvents, DomEqualsNlohmannParse) {
  const std::string text = R"({"z": [1, -2, 3.25, "x", {"k": null}], "a": {"b": true}, "dup": 1, "dup": 2})";
  json dom;
  ASSERT_TRUE(buildJsonDom(text, 64, dom));
  EXPECT_EQ(dom, json::parse(text));
  EXPECT_EQ(dom.dump(), json::parse(text).dump());  // key order kept
}

TEST(JsonEvents, RefusesWhatItCannotReadLikeNlohmann) {
  for (const std::string text : {
           std::string(R"({"a": 1,})"),                      // syntax error: nlohmann names line and column
           std::string(R"({"a": 1} {"b": 2})"),              // trailing document
           std::string("[18446744073709551616]"),           // nlohmann reads it as a float
           std::string("[-9223372036854775809]"),
           std::string(R"(["\ud800"])"),                    // a lone surrogate
           std::string("[\"\xff\"]"),                       // not UTF-8
           std::string(""),
       }) {
    Recorder r;
    EXPECT_FALSE(parseJsonEvents(text, 64, r)) << text;
  }
}

TEST(JsonEvents, DepthLimitIsCheckJsonDepths) {
  auto nested = [](int depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  Recorder ok, deep;
  EXPECT_TRUE(parseJsonEvents(nested(64), 64, ok));
  EXPECT_FALSE(parseJsonEvents(nested(65), 64, deep));
  Recorder three;
  EXPECT_FALSE(parseJsonEvents(nested(4), 3, three));
}

TEST(JsonEvents, HandlerThatGivesUpStopsTheWalk) {
  class StopAtKey final : public nlohmann::json_sax<json> {
   public:
    int events = 0;
    bool null() override { return ++events > 0; }
    bool boolean(bool) override { return ++events > 0; }
    bool number_integer(number_integer_t) override { return ++events > 0; }
    bool number_unsigned(number_unsigned_t) override { return ++events > 0; }
    bool number_float(number_float_t, const string_t&) override { return ++events > 0; }
    bool string(string_t&) override { return ++events > 0; }
    bool binary(binary_t&) override { return false; }
    bool start_object(std::size_t) override { return ++events > 0; }
    bool key(string_t& k) override { ++events; return k != "stop"; }
    bool end_object() override { return ++events > 0; }
    bool start_array(std::size_t) override { return ++events > 0; }
    bool end_array() override { return ++events > 0; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
  } h;
  EXPECT_FALSE(parseJsonEvents(R"({"a": 1, "stop": 2, "b": 3})", 64, h));
  EXPECT_EQ(h.events, 4);  // {, "a", 1, "stop"
}

}  // namespace
}  // namespace fathom::dumpread
