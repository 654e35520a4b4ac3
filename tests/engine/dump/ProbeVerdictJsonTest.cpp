// `fathom probe --json`'s verdict: one line, read back key for key, found after whatever a
// launcher printed first; text without a verdict is an error saying so.
#include "engine/dump/ProbeVerdictJson.h"

#include <gtest/gtest.h>

namespace fathom {
namespace {

TEST(ProbeVerdictJson, RoundTripsOnOneLineAfterALaunchersOwnOutput) {
  const ProbeVerdict v{"q \"1\".json", "forward", "exception:boom", "jit", true, "raised: boom\nat %mm", 0.25, false};
  const std::string line = probeVerdictLine(v);
  EXPECT_EQ(line.find('\n'), std::string::npos) << line;
  auto back = parseProbeVerdict("Loading modules...\n" + line + "\n");
  ASSERT_TRUE(back.ok()) << back.error().str();
  EXPECT_EQ(back->file, v.file);
  EXPECT_EQ(back->predicate, v.predicate);
  EXPECT_EQ(back->backend, "jit");
  EXPECT_TRUE(back->fails);
  EXPECT_EQ(back->what, v.what);
  EXPECT_DOUBLE_EQ(back->seconds, 0.25);
  EXPECT_FALSE(back->isolated);
}

TEST(ProbeVerdictJson, TextWithoutAVerdictIsAnError) {
  EXPECT_EQ(parseProbeVerdict("srun: error: no partition").error().message, "no verdict (no JSON object)");
  EXPECT_EQ(parseProbeVerdict("{\"fails\": \"yes\"}").error().message, "no verdict (\"fails\" is not true or false)");
  EXPECT_EQ(parseProbeVerdict("{\"fails\": tru").error().message, "no verdict (not a JSON object)");
  EXPECT_TRUE(parseProbeVerdict("{\"fails\": false}").ok());
}

}  // namespace
}  // namespace fathom
