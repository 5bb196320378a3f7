// The query language of ../shared/DESIGN.md and ../shared/peers/README.md:
// tree shapes after analysis (via to_string), every error message with its
// position, the shared query files, and nesting that must not crash.
#include "query/parser.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "analyzer/analyzer.h"
#include "support/test_support.h"

namespace fts {
namespace {

class ParserTest : public ::testing::Test {
 protected:
  // The canonical tree, or "<nothing>" when the query analyzed away.
  std::string tree(std::string_view query) {
    return query_to_string(parse_query(query, analyzer_).get());
  }

  Analyzer analyzer_;
};

// ---------------------------------------------------------------- shapes

TEST_F(ParserTest, TermsAreAnalyzedStems) {
  EXPECT_EQ(tree("cat"), "cat");
  EXPECT_EQ(tree("Cats"), "cat");
  EXPECT_EQ(tree("cats running"), "AND(cat, run)");
}

TEST_F(ParserTest, JuxtapositionAndExplicitAndAreTheSame) {
  EXPECT_EQ(tree("cat dog"), "AND(cat, dog)");
  EXPECT_EQ(tree("cat AND dog"), "AND(cat, dog)");
  EXPECT_EQ(tree("cat AND dog fish"), "AND(cat, dog, fish)");
}

TEST_F(ParserTest, OrBindsLooserThanAnd) {
  EXPECT_EQ(tree("cat OR dog fish"), "OR(cat, AND(dog, fish))");
  EXPECT_EQ(tree("cat dog OR fish"), "OR(AND(cat, dog), fish)");
  EXPECT_EQ(tree("cat AND dog OR fish"), "OR(AND(cat, dog), fish)");
  EXPECT_EQ(tree("cat OR dog AND fish"), "OR(cat, AND(dog, fish))");
  EXPECT_EQ(tree("cat OR dog OR fish"), "OR(cat, dog, fish)");
}

TEST_F(ParserTest, ParenthesesGroupWithoutFlattening) {
  EXPECT_EQ(tree("(cat OR dog) fish"), "AND(OR(cat, dog), fish)");
  EXPECT_EQ(tree("(cat dog) fish"), "AND(AND(cat, dog), fish)");
  EXPECT_EQ(tree("((cat))"), "cat");
  EXPECT_EQ(tree("cat AND (dog OR fish) -bird"), "AND(cat, OR(dog, fish), NOT(bird))");
}

TEST_F(ParserTest, NotAndMinusNegate) {
  EXPECT_EQ(tree("-cat"), "NOT(cat)");
  EXPECT_EQ(tree("NOT cat"), "NOT(cat)");
  EXPECT_EQ(tree("cat -dog"), "AND(cat, NOT(dog))");
  EXPECT_EQ(tree("cat NOT dog"), "AND(cat, NOT(dog))");
  EXPECT_EQ(tree("cat OR -dog"), "OR(cat, NOT(dog))");
  EXPECT_EQ(tree("-(cat OR dog) fish"), "AND(NOT(OR(cat, dog)), fish)");
  EXPECT_EQ(tree("NOT cat dog"), "AND(NOT(cat), dog)");  // NOT binds tighter than AND
}

TEST_F(ParserTest, MinusFollowedBySpaceStillNegates) {
  EXPECT_EQ(tree("cat - dog"), "AND(cat, NOT(dog))");
  EXPECT_EQ(tree("cat - dog"), tree("cat -dog"));
}

TEST_F(ParserTest, DoubleNegationIsKeptForThePlanner) {
  EXPECT_EQ(tree("--cat"), "NOT(NOT(cat))");
  EXPECT_EQ(tree("NOT -cat"), "NOT(NOT(cat))");
  EXPECT_EQ(tree("NOT NOT cat"), "NOT(NOT(cat))");
}

TEST_F(ParserTest, MinusInsideAWordIsText) {
  EXPECT_EQ(tree("wi-fi"), "\"wi fi\"");
  EXPECT_EQ(tree("cat-"), "cat");
}

TEST_F(ParserTest, LowercaseOperatorWordsAreTerms) {
  EXPECT_EQ(tree("cat or dog"), "AND(cat, or, dog)");
  EXPECT_EQ(tree("not cat"), "AND(not, cat)");
  EXPECT_EQ(tree("cat Or dog"), "AND(cat, or, dog)");
  EXPECT_EQ(tree("cat and dog"), "AND(cat, dog)");  // "and" is a stopword
}

TEST_F(ParserTest, PhrasesOfSeveralTokens) {
  EXPECT_EQ(tree("\"wild cat\""), "\"wild cat\"");
  EXPECT_EQ(tree("\"the wild cat\""), "\"wild cat\"");
  EXPECT_EQ(tree("\"cat\""), "cat");
  EXPECT_EQ(tree("\"cat OR dog\""), "\"cat or dog\"");  // operators are text in quotes
  EXPECT_EQ(tree("cat\"wild dog\"fish"), "AND(cat, \"wild dog\", fish)");
}

TEST_F(ParserTest, FieldPrefixes) {
  EXPECT_EQ(tree("title:cat"), "title:cat");
  EXPECT_EQ(tree("abstract:cat"), "abstract:cat");
  EXPECT_EQ(tree("title: cat"), "title:cat");
  EXPECT_EQ(tree("title:\"wild cat\""), "title:\"wild cat\"");
  EXPECT_EQ(tree("title:(cat OR dog)"), "OR(title:cat, title:dog)");
  EXPECT_EQ(tree("title:(cat abstract:dog)"), "AND(title:cat, abstract:dog)");
  EXPECT_EQ(tree("title:(cat (dog -fish))"), "AND(title:cat, AND(title:dog, NOT(title:fish)))");
  EXPECT_EQ(tree("-title:cat dog"), "AND(NOT(title:cat), dog)");
  EXPECT_EQ(tree("title:wi-fi"), "title:\"wi fi\"");
  // The rest of the word after the prefix is one word, even if it looks
  // like an operator or a field.
  EXPECT_EQ(tree("title:-cat"), "title:cat");
  EXPECT_EQ(tree("title:abstract:cat"), "title:\"abstract cat\"");
}

TEST_F(ParserTest, OtherColonsAreText) {
  EXPECT_EQ(tree("Title:cat"), "\"titl cat\"");
  EXPECT_EQ(tree("TITLE:cat"), "\"titl cat\"");
  EXPECT_EQ(tree("foo:bar"), "\"foo bar\"");
  EXPECT_EQ(tree(":cat"), "cat");
}

TEST_F(ParserTest, StopwordsDropOutOfTheTree) {
  EXPECT_EQ(tree("the cat"), "cat");
  EXPECT_EQ(tree("the OR cat"), "cat");
  EXPECT_EQ(tree("cat -the"), "cat");
  EXPECT_EQ(tree("cat (the OR of)"), "cat");
  EXPECT_EQ(tree("(the) cat"), "cat");
  EXPECT_EQ(tree("cat OR (the of) dog"), "OR(cat, dog)");
  EXPECT_EQ(tree("title:the cat"), "cat");
}

TEST_F(ParserTest, QueryThatAnalyzesToNothingIsNull) {
  EXPECT_EQ(parse_query("the", analyzer_), nullptr);
  EXPECT_EQ(parse_query("NOT the", analyzer_), nullptr);
  EXPECT_EQ(parse_query("-(the OR of)", analyzer_), nullptr);
  EXPECT_EQ(parse_query("\"the a\" OR of", analyzer_), nullptr);
  EXPECT_EQ(parse_query("...", analyzer_), nullptr);
  EXPECT_EQ(tree("the"), std::string(kMatchesNothingText));
}

TEST_F(ParserTest, NodesCarryKindFieldAndTerms) {
  auto root = parse_query("title:\"wild cats\" OR -dog", analyzer_);
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->kind, QueryNode::Kind::kOr);
  ASSERT_EQ(root->children.size(), 2u);
  const QueryNode& phrase = *root->children[0];
  EXPECT_EQ(phrase.kind, QueryNode::Kind::kPhrase);
  EXPECT_EQ(phrase.field, Field::kTitle);
  EXPECT_EQ(phrase.terms, (std::vector<std::string>{"wild", "cat"}));
  const QueryNode& negation = *root->children[1];
  EXPECT_EQ(negation.kind, QueryNode::Kind::kNot);
  ASSERT_EQ(negation.children.size(), 1u);
  EXPECT_EQ(negation.children[0]->kind, QueryNode::Kind::kTerm);
  EXPECT_EQ(negation.children[0]->field, Field::kAny);
  EXPECT_EQ(negation.children[0]->terms, std::vector<std::string>{"dog"});
}

TEST_F(ParserTest, CloneIsADeepCopy) {
  auto original = parse_query("title:(cat OR \"wild dog\") -fish", analyzer_);
  ASSERT_NE(original, nullptr);
  auto copy = original->clone();
  EXPECT_EQ(copy->to_string(), original->to_string());
  copy->children[0]->children[0]->terms[0] = "changed";
  EXPECT_EQ(original->to_string(), "AND(OR(title:cat, title:\"wild dog\"), NOT(fish))");
}

TEST_F(ParserTest, WhitespaceOfAllAsciiKindsSeparates) {
  EXPECT_EQ(tree(" \tcat\r\ndog\f\v"), "AND(cat, dog)");
}

// ---------------------------------------------------------------- errors

struct ErrorCase {
  const char* query;
  const char* message;
  size_t position;
};

// Messages as the peers' parser gives them; positions: the token at fault
// (see parse_query in query/parser.h).
const ErrorCase kErrorCases[] = {
    {"", "empty query", 0},
    {" \t ", "empty query", 0},
    {"(", "unbalanced parenthesis", 0},
    {")", "unbalanced parenthesis", 0},
    {"cat)", "unbalanced parenthesis", 3},
    {"(cat", "unbalanced parenthesis", 0},
    {"cat (dog", "unbalanced parenthesis", 4},
    {"((cat)", "unbalanced parenthesis", 0},
    {"(cat))", "unbalanced parenthesis", 5},
    {")cat(", "unbalanced parenthesis", 0},
    {"(\"cat)\"", "unbalanced parenthesis", 0},
    {"()", "empty group", 0},
    {"cat ( )", "empty group", 4},
    {"title:()", "empty group", 6},
    {"NOT ()", "empty group", 4},
    {"-()", "empty group", 1},
    {"AND", "dangling operator AND", 0},
    {"cat AND", "dangling operator AND", 4},
    {"AND cat", "dangling operator AND", 0},
    {"cat AND OR dog", "dangling operator AND", 4},
    {"(cat AND) dog", "dangling operator AND", 5},
    {"OR cat", "dangling operator OR", 0},
    {"cat OR", "dangling operator OR", 4},
    {"cat (OR) dog", "dangling operator OR", 5},
    {"cat OR AND dog", "dangling operator OR", 4},
    {"NOT", "dangling operator NOT", 0},
    {"cat NOT", "dangling operator NOT", 4},
    {"NOT AND cat", "dangling operator NOT", 0},
    {"cat OR NOT", "dangling operator NOT", 7},
    {"-", "dangling operator -", 0},
    {"cat -", "dangling operator -", 4},
    {"cat --", "dangling operator -", 5},
    {"NOT -", "dangling operator -", 4},
    {"\"cat", "unterminated phrase", 0},
    {"cat\"", "unterminated phrase", 3},
    {"\"cat\" \"dog", "unterminated phrase", 6},
    {"\"\"\"", "unterminated phrase", 2},
    {"( \"cat", "unterminated phrase", 2},  // lexing errors come first
    {"\"\"", "empty phrase", 0},
    {"\" \t\"", "empty phrase", 0},
    {"cat \"\" dog", "empty phrase", 4},
    {"title:\"\"", "empty phrase", 6},
    {"title:", "field without term", 0},
    {"abstract: ", "field without term", 0},
    {"cat title:", "field without term", 4},
    {"title:)", "field without term", 0},
    {"(abstract:)", "field without term", 1},
    {"title: NOT cat", "field without term", 0},
    {"title: -cat", "field without term", 0},
    {"title: OR cat", "field without term", 0},
    {"title: abstract:cat", "field without term", 0},
};

TEST_F(ParserTest, ErrorsHaveTheContractMessageAndPosition) {
  for (const ErrorCase& c : kErrorCases) {
    SCOPED_TRACE(std::string("query: ") + c.query);
    try {
      parse_query(c.query, analyzer_);
      ADD_FAILURE() << "accepted";
    } catch (const QuerySyntaxError& e) {
      EXPECT_STREQ(e.what(), c.message);
      EXPECT_EQ(e.position(), c.position);
    }
  }
}

TEST_F(ParserTest, ErrorWinsOverDroppedOperands) {
  // Stopwords drop only after the query parsed: syntax is checked first.
  EXPECT_THROW(parse_query("the AND", analyzer_), QuerySyntaxError);
  EXPECT_THROW(parse_query("(the", analyzer_), QuerySyntaxError);
}

// ------------------------------------------------------------ deep input

std::string repeated(std::string_view piece, size_t times) {
  std::string out;
  out.reserve(piece.size() * times);
  for (size_t i = 0; i < times; ++i) out += piece;
  return out;
}

TEST_F(ParserTest, TenThousandNestedParenthesesAroundATermAreATerm) {
  const std::string query = repeated("(", 10000) + "cat" + repeated(")", 10000);
  EXPECT_EQ(tree(query), "cat");
}

TEST_F(ParserTest, TenThousandUnclosedParenthesesAreReported) {
  try {
    parse_query(repeated("(", 10000) + "cat", analyzer_);
    FAIL() << "accepted";
  } catch (const QuerySyntaxError& e) {
    EXPECT_STREQ(e.what(), "unbalanced parenthesis");
    EXPECT_EQ(e.position(), 9999u);  // the innermost '(' still open
  }
}

TEST_F(ParserTest, TreesUpToTheDepthLimitWork) {
  // kMaxQueryDepth - 1 NOTs over a term: exactly the deepest tree accepted.
  const std::string query = repeated("NOT ", kMaxQueryDepth - 1) + "cat";
  auto root = parse_query(query, analyzer_);
  ASSERT_NE(root, nullptr);
  size_t depth = 1;
  for (const QueryNode* node = root.get(); !node->children.empty();
       node = node->children[0].get()) {
    ++depth;
  }
  EXPECT_EQ(depth, kMaxQueryDepth);
  std::string expected = repeated("NOT(", kMaxQueryDepth - 1) + "cat" +
                         repeated(")", kMaxQueryDepth - 1);
  EXPECT_EQ(root->to_string(), expected);
  EXPECT_EQ(root->clone()->to_string(), expected);
}

TEST_F(ParserTest, DeeperTreesAreRefusedCleanly) {
  try {
    parse_query(repeated("NOT ", 10000) + "cat", analyzer_);
    FAIL() << "accepted";
  } catch (const QuerySyntaxError& e) {
    EXPECT_STREQ(e.what(), "query nested too deeply");
  }
  try {
    parse_query(repeated("-", 10000) + "cat", analyzer_);
    FAIL() << "accepted";
  } catch (const QuerySyntaxError& e) {
    EXPECT_STREQ(e.what(), "query nested too deeply");
  }
  // Nested groups that each keep two operands: one tree level per '('.
  std::string nested = repeated("cat (", 10000) + "dog" + repeated(")", 10000);
  try {
    parse_query(nested, analyzer_);
    FAIL() << "accepted";
  } catch (const QuerySyntaxError& e) {
    EXPECT_STREQ(e.what(), "query nested too deeply");
  }
}

TEST_F(ParserTest, SyntaxErrorWinsOverDepth) {
  try {
    parse_query(repeated("NOT ", 10000) + "cat)", analyzer_);
    FAIL() << "accepted";
  } catch (const QuerySyntaxError& e) {
    EXPECT_STREQ(e.what(), "unbalanced parenthesis");
  }
}

TEST_F(ParserTest, TenThousandTermOrIsFlat) {
  std::string query = "cat0";
  for (int i = 1; i < 10000; ++i) query += " OR cat" + std::to_string(i);
  auto root = parse_query(query, analyzer_);
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->kind, QueryNode::Kind::kOr);
  EXPECT_EQ(root->children.size(), 10000u);
  EXPECT_EQ(root->clone()->children.size(), 10000u);
}

// ---------------------------------------------------------- shared files

std::vector<std::string> query_lines(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r\n\f\v") != std::string::npos) lines.push_back(line);
  }
  return lines;
}

TEST_F(ParserTest, EveryValidSharedQueryParses) {
  FTS_REQUIRE_SHARED(dir, "queries");
  size_t parsed = 0;
  for (const char* name : {"and.txt", "or.txt", "not.txt", "mixed.txt", "phrase.txt",
                           "field.txt", "edge.txt", "benchmark-game.txt"}) {
    for (const std::string& query : query_lines(dir + "/" + name)) {
      try {
        parse_query(query, analyzer_);
        ++parsed;
      } catch (const QuerySyntaxError& e) {
        ADD_FAILURE() << name << ": " << query << ": " << e.what() << " at " << e.position();
      }
    }
  }
  EXPECT_GT(parsed, 2000u);
}

TEST_F(ParserTest, EveryInvalidSharedQueryIsRejectedWithAContractMessage) {
  FTS_REQUIRE_SHARED(path, "queries/invalid.txt");
  const std::set<std::string> messages = {
      "empty query",           "unterminated phrase",   "empty phrase",
      "unbalanced parenthesis", "empty group",          "dangling operator AND",
      "dangling operator OR",  "dangling operator NOT", "dangling operator -",
      "field without term"};
  const std::vector<std::string> queries = query_lines(path);
  EXPECT_GT(queries.size(), 50u);
  for (const std::string& query : queries) {
    try {
      parse_query(query, analyzer_);
      ADD_FAILURE() << "accepted: " << query;
    } catch (const QuerySyntaxError& e) {
      EXPECT_TRUE(messages.count(e.what())) << query << ": " << e.what();
      EXPECT_LT(e.position(), query.size()) << query;
    }
  }
}

}  // namespace
}  // namespace fts
