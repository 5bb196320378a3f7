// What the planner builds, read from explain(): an excluded phrase that is
// only probed (beside a positive clause) is built two-phase, positions read
// at the probed docs only; one that is iterated (a complement) stays exact.
// Each plan's count is checked against counting the parts apart.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "analyzer/analyzer.h"
#include "index/reader/index_reader.h"
#include "index/writer/index_writer.h"
#include "query/parser.h"
#include "query/searcher.h"
#include "support/test_support.h"

namespace fts {
namespace {

class PlannerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    IndexWriter writer(dir_.str());
    for (int i = 0; i < 600; ++i) {
      Document d;
      d.title = "doc " + std::to_string(i);
      d.abstract = std::string(i % 2 ? "small wild cat" : "wild small cat") + (i % 7 == 0 ? " dog" : "");
      writer.add(d);
    }
    writer.commit();
    searcher_ = std::make_unique<Searcher>(IndexReader::open(dir_.str()), SearcherOptions{0, 0});
  }
  std::string explain(const std::string& q) { return searcher_->explain(parse_query(q, analyzer_).get()); }
  uint64_t count(const std::string& q) { return searcher_->count(parse_query(q, analyzer_).get()); }

  test::TempDir dir_;
  Analyzer analyzer_;
  std::unique_ptr<Searcher> searcher_;
};

TEST_F(PlannerTest, ProbedExclusionIsTwoPhase) {
  const std::string plan = explain("cat -\"small wild\"");
  EXPECT_NE(plan.find("phrase(two-phase) \"small wild\""), std::string::npos) << plan;
  EXPECT_EQ(count("cat -\"small wild\""), count("cat") - count("\"small wild\""));
  SearchResponse top = searcher_->search(parse_query("cat -\"small wild\"", analyzer_).get(), {});
  EXPECT_EQ(top.total_hits, 300u);
}

// Several exclusions are probed through their union: each phrase among
// them two-phase, the union asking every one at a candidate.
TEST_F(PlannerTest, ProbedExclusionsInAUnionAreTwoPhase) {
  const std::string q = "cat -\"small wild\" -dog";
  const std::string plan = explain(q);
  EXPECT_NE(plan.find("phrase(two-phase) \"small wild\""), std::string::npos) << plan;
  EXPECT_EQ(count(q), count("\"wild small\"") - count("\"wild small\" dog"));
  EXPECT_EQ(count("cat -dog -\"small wild\""), count(q));
  EXPECT_EQ(searcher_->search(parse_query(q, analyzer_).get(), {}).total_hits, count(q));
}

TEST_F(PlannerTest, IteratedExclusionsStayExact) {
  for (const std::string q : {"-\"small wild\"", "-\"small wild\" -dog"}) {
    const std::string plan = explain(q);
    EXPECT_EQ(plan.find("two-phase"), std::string::npos) << q << "\n" << plan;
  }
  EXPECT_EQ(count("-\"small wild\""), 300u);
  EXPECT_EQ(count("-\"small wild\" -dog"), 600u - count("\"small wild\" OR dog"));
}

}  // namespace
}  // namespace fts
