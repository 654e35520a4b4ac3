// truncate-suffix alone: the earliest node whose value alone still fails becomes the only output.
#include "tests/minifier/passes/PassTestSupport.h"

namespace fathom {
namespace {

// x -> abs -> tanh -> neg -> abs: everything after tanh goes (x, abs, tanh, output stay).
TEST(TruncateSuffixPassTest, CutsEverythingAfterTheEarliestFailingNode) {
  GraphBuilder b;
  NodeRef t = b.call("aten.tanh.default", {b.call("aten.abs.default", {testing::inputX(b)})});
  b.output({b.call("aten.abs.default", {b.call("aten.neg.default", {t})})});
  auto r = testing::expectPassAloneShrinks("truncate-suffix", b, 6, 4);
  EXPECT_EQ(r.stats.passesThatHelped, std::vector<std::string>{"truncate suffix"});
}

}  // namespace
}  // namespace fathom
