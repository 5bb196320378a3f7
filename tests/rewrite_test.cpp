// Query rewriting (query/rewrite.h): the shapes it produces. That a rewritten
// query matches and scores like the query as written is checked against the
// brute-force evaluator in query_property_test.
#include "query/rewrite.h"

#include <gtest/gtest.h>

#include <string>

#include "analyzer/analyzer.h"
#include "query/parser.h"

namespace fts {
namespace {

class RewriteTest : public ::testing::Test {
 protected:
  std::string rewritten(std::string_view query) {
    auto parsed = parse_query(query, analyzer_);
    return parsed ? query_to_string(simplify_query(*parsed).get()) : "<no query>";
  }
  std::string for_matching(std::string_view query) {
    auto parsed = parse_query(query, analyzer_);
    return parsed ? query_to_string(drop_implied_clauses(simplify_query(*parsed)).get()) : "<no query>";
  }

  Analyzer analyzer_;
};

TEST_F(RewriteTest, RepeatedOrClausesBecomeOneWeightedClause) {
  EXPECT_EQ(rewritten("cat OR cat"), "cat^2");
  EXPECT_EQ(rewritten("cat OR dog OR cat"), "OR(cat^2, dog)");
  EXPECT_EQ(rewritten("therefore OR therefore OR therefore OR therefore OR therefore"), "therefor^5");
}

TEST_F(RewriteTest, RepeatedAndClausesBecomeOneWeightedClause) {
  EXPECT_EQ(rewritten("cat AND cat"), "cat^2");
  EXPECT_EQ(rewritten("cat dog cat -fish"), "AND(cat^2, dog, NOT(fish))");
}

TEST_F(RewriteTest, NestedGroupsFlattenWithTheirWeights) {
  EXPECT_EQ(rewritten("(cat OR dog) OR (cat OR dog)"), "OR(cat^2, dog^2)");
  EXPECT_EQ(rewritten("(cat OR dog) OR fish"), "OR(cat, dog, fish)");
  EXPECT_EQ(rewritten("(cat dog) OR (cat dog)"), "AND(cat, dog)^2");
  EXPECT_EQ(rewritten("((cat OR dog) OR (cat OR dog)) OR cat"), "OR(cat^3, dog^2)");
}

TEST_F(RewriteTest, FieldsAndPhrasesAreDistinctClauses) {
  EXPECT_EQ(rewritten("cat OR title:cat OR abstract:cat"), "OR(cat, title:cat, abstract:cat)");
  EXPECT_EQ(rewritten("\"wild cat\" OR \"cat wild\" OR \"wild cat\""), "OR(\"wild cat\"^2, \"cat wild\")");
}

TEST_F(RewriteTest, DoubleNegationsDisappear) {
  EXPECT_EQ(rewritten("NOT NOT cat"), "cat");
  EXPECT_EQ(rewritten("dog NOT NOT NOT cat"), "AND(dog, NOT(cat))");
  EXPECT_EQ(rewritten("-cat -cat"), "NOT(cat)^2");
}

TEST_F(RewriteTest, ATermAndItsNegationMatchNothing) {
  EXPECT_EQ(rewritten("fish NOT fishing"), "<nothing>");  // both analyze to fish
  EXPECT_EQ(rewritten("cat dog -cat"), "<nothing>");
  EXPECT_EQ(rewritten("(cat OR dog) -(dog OR cat)"), "AND(OR(cat, dog), NOT(OR(dog, cat)))");  // order differs
  EXPECT_EQ(rewritten("(cat OR dog) -(cat OR dog)"), "<nothing>");
  EXPECT_EQ(rewritten("bird OR (cat -cat)"), "bird");
  EXPECT_EQ(rewritten("bird OR (cat -cat) OR dog"), "OR(bird, dog)");
  EXPECT_EQ(rewritten("(cat -cat) OR (dog -dog)"), "<nothing>");
  EXPECT_EQ(rewritten("bird (cat OR (dog -dog))"), "AND(bird, cat)");
  // NOT of nothing is every doc: kept as written.
  EXPECT_EQ(rewritten("bird -(cat -cat)"), "AND(bird, NOT(AND(cat, NOT(cat))))");
  // Not a contradiction: another field, or a negated phrase.
  EXPECT_EQ(rewritten("title:cat -cat"), "AND(title:cat, NOT(cat))");
  EXPECT_EQ(rewritten("cat -\"wild cat\""), "AND(cat, NOT(\"wild cat\"))");
}

TEST_F(RewriteTest, ClausesThatDifferOnlyInOrderAreKept) {
  EXPECT_EQ(rewritten("(cat dog) OR (dog cat)"), "OR(AND(cat, dog), AND(dog, cat))");
}

TEST_F(RewriteTest, ClausesImpliedByASiblingGoWhenOnlyMatching) {
  EXPECT_EQ(for_matching("work (work OR remote)"), "work");
  EXPECT_EQ(for_matching("(remote OR work) AND work AND home"), "AND(work, home)");
  EXPECT_EQ(for_matching("work OR (work AND remote)"), "work");
  EXPECT_EQ(for_matching("(remote work) OR work OR home"), "OR(work, home)");
  // Any clause, not only terms: a phrase, a group, a negation.
  EXPECT_EQ(for_matching("\"wild cat\" (\"wild cat\" OR dog)"), "\"wild cat\"");
  // A group implies a group of the other kind that holds it as a clause,
  // not one that holds its clauses (as flattened): kept. Nor does x imply
  // bird OR (fish x).
  EXPECT_EQ(for_matching("(cat OR dog) (bird OR (cat OR dog))"), "AND(OR(cat, dog), OR(bird, cat, dog))");
  EXPECT_EQ(for_matching("(cat dog) OR (bird (cat dog))"), "OR(AND(cat, dog), AND(bird, cat, dog))");
  EXPECT_EQ(for_matching("(-cat OR dog) (bird OR (fish (-cat OR dog)))"),
            "AND(OR(NOT(cat), dog), OR(bird, AND(fish, OR(NOT(cat), dog))))");
  EXPECT_EQ(for_matching("-cat OR (bird -cat)"), "NOT(cat)");
  EXPECT_EQ(for_matching("(cat OR dog) (dog OR cat)"), "AND(OR(cat, dog), OR(dog, cat))");
  EXPECT_EQ(for_matching("-cat (-cat OR dog)"), "NOT(cat)");
  // Below another group, after its own clauses went.
  EXPECT_EQ(for_matching("bird OR (work (work OR remote))"), "OR(bird, work)");
  // Another field, or a clause that only resembles the sibling: kept.
  EXPECT_EQ(for_matching("work (title:work OR remote)"), "AND(work, OR(title:work, remot))");
  EXPECT_EQ(for_matching("work (works OR remote)"), "work");  // both analyze to work
  EXPECT_EQ(for_matching("work (worker OR remote)"), "AND(work, OR(worker, remot))");
  // Ranked searches keep the tree as simplified: the OR adds to the score.
  EXPECT_EQ(rewritten("work (work OR remote)"), "AND(work, OR(work, remot))");
}

TEST_F(RewriteTest, MalformedHandBuiltTreesAreRejected) {
  QueryNode empty_and;
  empty_and.kind = QueryNode::Kind::kAnd;
  EXPECT_THROW(simplify_query(empty_and), std::invalid_argument);
  QueryNode zero_weight;
  zero_weight.terms = {"cat"};
  zero_weight.weight = 0;
  EXPECT_THROW(simplify_query(zero_weight), std::invalid_argument);
}

}  // namespace
}  // namespace fts
