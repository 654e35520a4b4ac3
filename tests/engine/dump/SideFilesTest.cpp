// Side files are read only inside the dump's folder unless the reader trusts the dump's paths
// (engine/dump/SideFiles.h, issue 18): an absolute name, a ".." component or a link leading out
// is refused at the file's JSON pointer, naming --trust-paths; DumpReadOptions::trustPaths reads
// them. The same holds for inputs files and recorded outputs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/dump/Dump.h"

namespace fathom {
namespace {

namespace fs = std::filesystem;

// dir_/dump holds the dump; dir_/outside what it must not reach.
class SideFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("fathom-sidefiles-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "dump" / "sub");
    fs::create_directories(dir_ / "outside");
    for (const auto& f : {dir_ / "dump" / "x.bin", dir_ / "dump" / "sub" / "x.bin", dir_ / "outside" / "secret.bin"})
      std::ofstream(f, std::ios::binary) << std::string(8, '\0');  // two float32 values
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A dump in dir_/dump whose input (or recorded output) reads its values from side file `name`.
  static std::string dumpNaming(const std::string& name, const char* section = "inputs") {
    const std::string value = R"J([{"name": "x", "dtype": "float32", "sizes": [2], "file": ")J" + name + "\"}]";  // test names need no escapes
    return R"J({"format": "fathom-dump", "version": 1, "graphs": {"forward": {"nodes": [
      {"name": "x", "kind": "placeholder"}, {"name": "output", "kind": "output", "args": [[{"node": "x"}]]}]}},
      ")J" + std::string(section) + R"J(": {"forward": )J" + value + "}}";
  }

  Result<Dump> load(const std::string& name, bool trust = false, const char* section = "inputs") {
    DumpReadOptions options;
    options.trustPaths = trust;
    return parseDump(dumpNaming(name, section), (dir_ / "dump" / "t.fathom.json").string(), options);
  }
  // The refusal's text, or "(loaded)".
  std::string refusal(const std::string& name, const char* section = "inputs") {
    auto d = load(name, false, section);
    return d.ok() ? "(loaded)" : d.error().str();
  }

  fs::path dir_;
};

const std::string kTrust = "; pass --trust-paths if you trust this dump";

// An absolute name is refused at its JSON pointer, whatever it names; trusted, it loads.
TEST_F(SideFilesTest, AnAbsoluteNameIsRefusedUnlessTrusted) {
  const std::string secret = (dir_ / "outside" / "secret.bin").string();
  EXPECT_EQ(refusal(secret), (dir_ / "dump" / "t.fathom.json").string() + ": /inputs/forward/0/file: side file '" + secret +
                                 "' is outside the dump's folder" + kTrust);
  // Even one inside the folder: a name is relative to the dump, so it means the same everywhere.
  EXPECT_NE(refusal((dir_ / "dump" / "x.bin").string()).find("is outside the dump's folder" + kTrust), std::string::npos);
  // Refused before it is opened: /etc/passwd is never stat'ed or read as tensor data.
  EXPECT_NE(refusal("/etc/passwd").find("/inputs/forward/0/file: side file '/etc/passwd' is outside the dump's folder" + kTrust),
            std::string::npos);
  auto trusted = load(secret, true);
  ASSERT_TRUE(trusted.ok()) << trusted.error().str();
  EXPECT_EQ(trusted->inputsFor("forward")->at(0).file.path, secret);
}

// A ".." component is refused, even where the path would come back inside.
TEST_F(SideFilesTest, ADotDotComponentIsRefusedUnlessTrusted) {
  EXPECT_NE(refusal("../outside/secret.bin").find("/inputs/forward/0/file: side file '../outside/secret.bin' is outside the dump's folder" + kTrust),
            std::string::npos);
  EXPECT_NE(refusal("sub/../x.bin").find("side file 'sub/../x.bin' is outside the dump's folder"), std::string::npos);
  auto trusted = load("../outside/secret.bin", true);
  ASSERT_TRUE(trusted.ok()) << trusted.error().str();
}

// A link inside the folder that leads out of it is refused, naming where it leads; a link that
// stays inside is fine.
TEST_F(SideFilesTest, ALinkLeadingOutOfTheFolderIsRefusedUnlessTrusted) {
  fs::create_symlink(dir_ / "outside" / "secret.bin", dir_ / "dump" / "link.bin");
  fs::create_directory_symlink(dir_ / "outside", dir_ / "dump" / "linked");
  fs::create_symlink(dir_ / "dump" / "sub" / "x.bin", dir_ / "dump" / "alias.bin");
  const std::string target = fs::weakly_canonical(dir_ / "outside" / "secret.bin").string();
  EXPECT_NE(refusal("link.bin").find("/inputs/forward/0/file: side file 'link.bin' leads outside the dump's folder (to '" + target + "')" + kTrust),
            std::string::npos) << refusal("link.bin");
  EXPECT_NE(refusal("linked/secret.bin").find("side file 'linked/secret.bin' leads outside the dump's folder"), std::string::npos);
  EXPECT_EQ(refusal("alias.bin"), "(loaded)");
  ASSERT_TRUE(load("link.bin", true).ok());
  ASSERT_TRUE(load("linked/secret.bin", true).ok());
}

// Relative names inside the folder load, also when the folder itself is reached through a link.
TEST_F(SideFilesTest, ARelativeNameInsideTheFolderLoads) {
  for (const char* name : {"x.bin", "sub/x.bin", "./x.bin"}) {
    auto d = load(name);
    ASSERT_TRUE(d.ok()) << name << ": " << d.error().str();
    EXPECT_EQ(fs::weakly_canonical(d->inputsFor("forward")->at(0).file.path), fs::weakly_canonical(dir_ / "dump" / name));
  }
  fs::create_directory_symlink(dir_ / "dump", dir_ / "dumplink");
  auto viaLink = parseDump(dumpNaming("sub/x.bin"), (dir_ / "dumplink" / "t.fathom.json").string());
  EXPECT_TRUE(viaLink.ok()) << viaLink.error().str();
}

// Recorded outputs and inputs files follow the same rule.
TEST_F(SideFilesTest, RecordedOutputsAndInputsFilesFollowTheSameRule) {
  std::string outputs = dumpNaming("../outside/secret.bin", "outputs");
  auto refused = parseDump(outputs, (dir_ / "dump" / "t.fathom.json").string());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().str().find("/outputs/forward/0/file: side file '../outside/secret.bin' is outside the dump's folder" + kTrust),
            std::string::npos) << refused.error().str();

  const std::string inputsFile = (dir_ / "dump" / "x.inputs.json").string();
  std::ofstream(inputsFile) << R"J({"format": "fathom-inputs", "version": 1, "inputs": [
    {"name": "x", "dtype": "float32", "sizes": [2], "file": ")J" + (dir_ / "outside" / "secret.bin").string() + "\"}]}";
  auto inputs = loadInputsFile(inputsFile);
  ASSERT_FALSE(inputs.ok());
  EXPECT_NE(inputs.error().str().find(inputsFile + ": /inputs/0/file: side file '"), std::string::npos) << inputs.error().str();
  EXPECT_NE(inputs.error().str().find("is outside the dump's folder" + kTrust), std::string::npos);
  DumpReadOptions trust;
  trust.trustPaths = true;
  EXPECT_TRUE(loadInputsFile(inputsFile, trust).ok());
}

}  // namespace
}  // namespace fathom
