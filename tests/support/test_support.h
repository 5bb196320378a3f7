// Helpers shared by the test programs: paths to the built tools, the bundled
// sample, ../shared, temporary directories and running commands.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace fts::test {

std::string source_path(const std::string& relative);  // under the project
std::string tool_path(const std::string& tool);          // built binary

// ../shared/<relative>, or "" when ../shared is absent.
std::string shared_path(const std::string& relative);
bool running_in_ci();

// A fresh directory removed at destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }
  std::string str(const std::string& child = "") const;

 private:
  std::filesystem::path path_;
};

struct CommandResult {
  int exit_code = -1;
  std::string out, err;
};
// Runs argv[0] with args (no shell), feeding stdin_text; captures output.
CommandResult run(const std::vector<std::string>& argv, const std::string& stdin_text = "");

std::string read_file(const std::string& path);
// s with &, < and > escaped, for the text of a dump's elements.
std::string xml_escape(const std::string& s);
void write_file(const std::string& path, const std::string& content);

}  // namespace fts::test

// Binds var to ../shared/<rel>; skips the test when ../shared is absent,
// except under CI (CI=true), where that fails.
#define FTS_REQUIRE_SHARED(var, rel)                                          \
  std::string var = ::fts::test::shared_path(rel);                            \
  if (var.empty()) {                                                          \
    if (::fts::test::running_in_ci()) FAIL() << "../shared/" rel " is missing under CI"; \
    GTEST_SKIP() << "../shared/" rel " not found: skipped";                   \
  }
