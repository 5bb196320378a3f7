#include "analyzer/stopwords.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "support/test_support.h"

namespace {

using fts::Stopwords;
using Words = std::vector<std::string>;

TEST(Stopwords, DefaultsAreTheContractList) {
  const Stopwords s = Stopwords::defaults();
  EXPECT_EQ(s.words(), (Words{"a", "and", "be", "have", "i", "in", "of", "that", "the", "to"}));
  for (const auto& w : s.words()) EXPECT_TRUE(s.contains(w)) << w;
  EXPECT_FALSE(s.contains("The"));  // callers pass lowercased tokens
  EXPECT_FALSE(s.contains("then"));
  EXPECT_FALSE(s.contains(""));
  EXPECT_FALSE(s.contains("an"));
}

TEST(Stopwords, NoneContainsNothing) {
  const Stopwords s = Stopwords::none();
  EXPECT_TRUE(s.words().empty());
  EXPECT_FALSE(s.contains("the"));
}

TEST(Stopwords, ConstructorLowercasesSortsAndDeduplicates) {
  const Stopwords s(Words{"Zebra", "apple", "APPLE", "", "İSTANBUL", "ΣΟΦΙΑ"});
  EXPECT_EQ(s.words(), (Words{"apple", "istanbul", "zebra", "σοφια"}));
  EXPECT_TRUE(s.contains("istanbul"));
  EXPECT_TRUE(s.contains("σοφια"));
}

TEST(Stopwords, CopiesAndMovesAreIndependent) {
  Stopwords original(Words{"cat", "dog"});
  Stopwords copy = original;
  {
    Stopwords temp(Words{"bird"});
    original = temp;  // the old storage of original is gone now
  }
  EXPECT_TRUE(copy.contains("cat"));
  EXPECT_TRUE(copy.contains("dog"));
  EXPECT_FALSE(copy.contains("bird"));
  EXPECT_TRUE(original.contains("bird"));
  Stopwords moved = std::move(copy);
  EXPECT_TRUE(moved.contains("dog"));
  EXPECT_EQ(moved, Stopwords(Words{"dog", "cat"}));
  EXPECT_FALSE(moved == original);
}

TEST(Stopwords, FromFileSkipsCommentsAndBlankLinesAndLowercases) {
  fts::test::TempDir dir;
  const std::string path = dir.str("stop.txt");
  fts::test::write_file(path,
                        "# my list\n"
                        "The\n"
                        "\n"
                        "   \n"
                        "  Über  \r\n"
                        "#the comment is not a word\n"
                        "dog\r\n"
                        "the\n"
                        "last-without-newline");
  const Stopwords s = Stopwords::from_file(path);
  EXPECT_EQ(s.words(), (Words{"dog", "last-without-newline", "the", "über"}));
  EXPECT_FALSE(s.contains("# my list"));
  EXPECT_FALSE(s.contains("comment"));
}

TEST(Stopwords, FromFileEmptyFileIsAnEmptyList) {
  fts::test::TempDir dir;
  fts::test::write_file(dir.str("empty.txt"), "");
  EXPECT_TRUE(Stopwords::from_file(dir.str("empty.txt")).words().empty());
}

TEST(Stopwords, FromFileErrorsNameThePath) {
  fts::test::TempDir dir;
  const std::string missing = dir.str("no-such-file.txt");
  try {
    Stopwords::from_file(missing);
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }
  EXPECT_THROW(Stopwords::from_file(dir.str()), std::runtime_error);  // a directory
}

TEST(Stopwords, FromOption) {
  EXPECT_EQ(Stopwords::from_option("default"), Stopwords::defaults());
  EXPECT_EQ(Stopwords::from_option("none"), Stopwords::none());
  fts::test::TempDir dir;
  fts::test::write_file(dir.str("list"), "foo\nbar\n");
  EXPECT_EQ(Stopwords::from_option(dir.str("list")).words(), (Words{"bar", "foo"}));
  EXPECT_THROW(Stopwords::from_option(dir.str("missing")), std::runtime_error);
}

}  // namespace
