// A `fathom check --json` report laid over its dump (InterpSession::showReport): marks and the
// table without running anything, the same as a live run's; a report of another dump is refused.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/aot/CheckStep.h"
#include "engine/dump/MismatchJson.h"
#include "engine/interp/ExampleInputs.h"
#include "tests/viz/VizTestDumps.h"
#include "viz/model/InterpSession.h"

namespace fathom::viz {
namespace {

constexpr const char* kLies = "tests/data/torch-fake-meta-lies.fathom.json";

// What `fathom check DUMP --json` prints for graph `graph` of `dump` (the envelope of CheckCommand.cpp).
std::string checkJson(const Dump& dump, const std::string& graph) {
  auto inputs = materializeInputs(*chooseInputs(dump.graph(graph), graph, dump.inputsFor(graph), nullptr));
  EXPECT_TRUE(inputs.ok());
  CheckOptions o;
  o.graphName = graph;
  auto c = aot::checkGraph(*dump.graph(graph), std::move(*inputs), o);
  EXPECT_TRUE(c.ok());
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  size_t origins = 0;
  for (const auto& m : c->mismatches) list.push_back(mismatchJson(m)), origins += m.origin;
  nlohmann::ordered_json j = {{"file", kLies}, {"checked", c->checked}, {"mismatches", list}, {"origins", origins},
                              {"skipped", nlohmann::ordered_json::array()},
                              {"graphs", {{{"graph", graph}, {"checked", c->checked}, {"mismatches", list.size()}}}}};
  return j.dump(2);
}

std::unique_ptr<InterpSession> open(std::shared_ptr<const Dump> dump) {
  auto s = InterpSession::create(std::move(dump));
  EXPECT_TRUE(s.ok());
  return s.ok() ? std::move(*s) : nullptr;
}

int32_t nodeIndex(const Dump& d, const std::string& name) { return d.graph("forward")->find(name)->index; }

// The overlay marks origins and the nodes that ran on their values like a live run does, and the
// table shows the report's recorded and real strides; the next operation runs for real.
TEST(InterpReport, OverlayMarksLikeALiveRun) {
  auto dump = testing::loadTestDump(kLies);
  ASSERT_TRUE(dump);
  auto report = parseCheckReport(checkJson(*dump, "forward"), "report.json");
  ASSERT_TRUE(report.ok()) << report.error().str();
  auto live = open(dump);
  ASSERT_EQ(*live->runTo("forward", "output"), InterpStop::Target);
  const InterpSnapshot run = live->snapshot();

  auto s = open(dump);
  ASSERT_TRUE(s->showReport(*report).ok());
  const InterpSnapshot over = s->snapshot();
  EXPECT_EQ(over.state, InterpState::Report);
  EXPECT_EQ(over.mismatches.size(), 2u);
  EXPECT_EQ(over.origins, 2u);
  EXPECT_EQ(over.focusNode, nodeIndex(*dump, "getitem")) << "the view follows the first origin";
  ASSERT_TRUE(over.marksOf("forward") && run.marksOf("forward"));
  EXPECT_EQ(over.marksOf("forward")->marks, run.marksOf("forward")->marks);
  EXPECT_EQ(over.marksOf("forward")->marks[static_cast<size_t>(nodeIndex(*dump, "output"))], NodeMark::Inherited);
  EXPECT_NE(interpStatusLine(over).find("check report"), std::string::npos);

  const InterpTable t = s->table("forward", nodeIndex(*dump, "getitem"));
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0].field, "strides");
  EXPECT_EQ(t.rows[0].recorded, "[1, 6]");
  EXPECT_EQ(t.rows[0].real, "[4, 1]");
  EXPECT_FALSE(t.ran);

  ASSERT_TRUE(s->step().ok());
  EXPECT_EQ(s->snapshot().state, InterpState::Ready) << "an operation runs for real again";
  EXPECT_TRUE(s->snapshot().mismatches.empty());
}

// A report that checked none of the dump's graphs is refused; one naming unknown nodes says so.
TEST(InterpReport, ReportOfAnotherDump) {
  auto dump = testing::loadTestDump(kLies);
  auto s = open(dump);
  auto other = parseCheckReport(R"({"mismatches": [], "graphs": [{"graph": "joint"}]})", "r.json");
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(s->showReport(*other).ok());
  auto unknown = parseCheckReport(R"({"mismatches": [{"graph": "forward", "node": "nope", "field": "sizes", "origin": true}]})", "r.json");
  ASSERT_TRUE(unknown.ok()) << unknown.error().str();
  ASSERT_TRUE(s->showReport(*unknown).ok());
  EXPECT_NE(s->snapshot().message.find("1 name nodes this dump does not have"), std::string::npos) << s->snapshot().message;
}

// A file that is not a check report: the error names the file and the JSON pointer.
TEST(InterpReport, BadReportsNameTheFileAndPlace) {
  auto e = parseCheckReport(R"({"mismatches": [{"graph": "forward", "node": 3}]})", "r.json");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().where, "r.json: /mismatches/0/node");
  EXPECT_FALSE(parseCheckReport("{\"mismatches\": [", "r.json").ok());
  EXPECT_EQ(parseCheckReport("[]", "r.json").error().where, "r.json: /");
  EXPECT_NE(loadCheckReport("/no/such/file.json").error().str().find("/no/such/file.json"), std::string::npos);
}

}  // namespace
}  // namespace fathom::viz
