// A living index: appends, deletes (by id, url and query), updates, merges,
// reopening and crashes, against an in-memory model of the live docs.
// After every commit each query kind returns what the brute-force evaluator
// returns on the model (tests/query_check.h: sets, counts, top-k ids and
// scores, doc-id order).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "analyzer/analyzer.h"
#include "brute_force.h"
#include "engine/fts.h"
#include "index/format/live_docs.h"
#include "index/reader/index_reader.h"
#include "index/writer/index_writer.h"
#include "query/parser.h"
#include "query/searcher.h"
#include "query_check.h"
#include "support/test_support.h"

namespace fts {
namespace {

using test::BruteDoc;
using test::BruteForce;
using test::Corpus;

std::vector<std::string> analyzed_words(Analyzer& analyzer) {
  std::vector<std::string> terms;
  for (const auto& w : test::kWords)
    for (auto& t : analyzer.analyze(w)) terms.push_back(t);
  return terms;
}

// What the index should hold: every id ever given, its analyzed text, url
// and whether it is live.
struct Model {
  struct Doc {
    BruteDoc brute;
    std::string url;
  };
  std::vector<Doc> docs;  // by id

  void add(DocId id, const Document& d, Analyzer& analyzer) {
    if (docs.size() <= id) docs.resize(id + 1, Doc{{{}, {}, false, false}, ""});
    docs[id] = Doc{{analyzer.analyze(d.title), analyzer.analyze(d.abstract)}, d.url};
  }
  void remove_url(const std::string& url) {
    for (auto& d : docs)
      if (d.url == url) d.brute.live = false;
  }
  uint32_t live_count() const {
    uint32_t n = 0;
    for (const auto& d : docs) n += d.brute.live;
    return n;
  }
};

// The model as a brute-force evaluator over the docs the index holds in its
// segments (they make the statistics; deleted ones match nothing).
BruteForce brute_of(const Model& model, const IndexReader& index) {
  std::vector<BruteDoc> docs;
  for (const auto& d : model.docs) docs.push_back(d.brute);
  for (auto& d : docs) d.counted = false;
  for (const auto& seg : index.segments()) {
    for (DocId local = 0; local < seg.reader->doc_count(); ++local) {
      DocId id = seg.global(local);
      EXPECT_LT(id, docs.size()) << "the index holds an id never given";
      if (id < docs.size()) docs[id].counted = true;
      EXPECT_EQ(seg.is_live(local), id < docs.size() && docs[id].live) << "doc " << id;
    }
  }
  for (DocId id = 0; id < docs.size(); ++id) {
    EXPECT_TRUE(!docs[id].live || docs[id].counted) << "live doc " << id << " is in no segment";
  }
  return BruteForce(std::move(docs));
}

// Every query kind on the index equals the brute force on the model.
void verify(const std::string& dir, const Model& model, std::mt19937& rng, Analyzer& analyzer, int queries) {
  auto index = IndexReader::open(dir);
  ASSERT_EQ(index->live_count(), model.live_count());
  index->check();
  BruteForce brute = brute_of(model, *index);
  ASSERT_FALSE(::testing::Test::HasFailure());
  std::vector<BruteDoc> docs;
  for (const auto& d : model.docs) docs.push_back(d.brute);
  if (docs.empty()) return;
  test::QueryGenerator gen(rng(), docs, analyzed_words(analyzer));
  Searcher uncached(index, SearcherOptions{0, 0});
  Searcher cached(index, SearcherOptions{1 << 20, 1});
  for (int i = 0; i < queries; ++i) {
    auto query = gen.tree(1 + i % 3);
    ASSERT_TRUE(test::check_query(uncached, brute, query.get(), rng)) << "query #" << i;
    ASSERT_TRUE(test::check_query(cached, brute, query.get(), rng)) << "query #" << i;
  }
}

struct ModelConfig {
  uint32_t seed;
  int steps;
};

class LivingIndexModelTest : public ::testing::TestWithParam<ModelConfig> {};

TEST_P(LivingIndexModelTest, RandomOperationsAgreeWithTheModel) {
  const ModelConfig config = GetParam();
  std::mt19937 rng(config.seed);
  Corpus corpus(config.seed);
  Analyzer analyzer;
  test::TempDir dir;
  IndexWriterOptions options;
  options.ram_mb = 16;
  options.max_segment_docs = 5 + rng() % 40;
  options.segments_per_merge = 3;  // merges happen often at this size
  options.merge = rng() % 4 != 0;
  if (rng() % 3 != 0) options.pair_words = test::pair_words();  // else the default words, none in this corpus
  auto writer = std::make_unique<IndexWriter>(dir.str(), options);
  Model model, committed;
  // Query deletes wait for the commit: (query, ids given before the call).
  std::vector<std::pair<std::shared_ptr<QueryNode>, DocId>> query_deletes;
  int commits = 0, merges = 0, reopens = 0;
  std::optional<Index> open_index;
  auto url = [&] { return "u" + std::to_string(rng() % 150); };  // urls recur: updates replace several docs

  for (int step = 0; step < config.steps; ++step) {
    const unsigned op = rng() % 100;
    if (op < 40) {
      std::vector<Document> one = corpus.documents(1);
      one[0].url = url();
      DocId id = writer->add(one[0]);
      model.add(id, one[0], analyzer);
    } else if (op < 52) {
      std::vector<Document> one = corpus.documents(1);
      one[0].url = url();
      model.remove_url(one[0].url);
      DocId id = writer->update(one[0]);
      model.add(id, one[0], analyzer);
    } else if (op < 60) {
      if (model.docs.empty()) continue;
      DocId id = rng() % (model.docs.size() + 2);  // now and then an id never given
      writer->delete_doc(id);
      if (id < model.docs.size()) model.docs[id].brute.live = false;
    } else if (op < 66) {
      std::string u = url();
      writer->delete_url(u);
      model.remove_url(u);
    } else if (op < 69) {
      std::string text = test::random_query_text(rng, corpus, 1);
      std::shared_ptr<QueryNode> root;
      try {
        root = parse_query(text, analyzer);
      } catch (const QuerySyntaxError&) {
        continue;
      }
      writer->delete_by_query(text);
      if (root) query_deletes.emplace_back(root, writer->next_doc_id());
    } else if (op < 90) {
      if (op >= 86) {
        writer->force_merge(1 + rng() % 3);
        ++merges;
      }
      // The query deletes see the docs as they are at the commit: the last
      // commit's live docs and every doc added since.
      if (!query_deletes.empty()) {
        std::vector<BruteDoc> snapshot;
        for (DocId id = 0; id < model.docs.size(); ++id) {
          BruteDoc d = model.docs[id].brute;
          d.live = id < committed.docs.size() ? committed.docs[id].brute.live : true;
          snapshot.push_back(d);
        }
        BruteForce brute(std::move(snapshot));
        for (const auto& [root, bound] : query_deletes) {
          for (DocId id : brute.matches(root.get()))
            if (id < bound) model.docs[id].brute.live = false;
        }
        query_deletes.clear();
      }
      writer->commit();
      committed = model;
      ++commits;
      verify(dir.str(), model, rng, analyzer, 6);
      ASSERT_FALSE(::testing::Test::HasFailure()) << "after step " << step;
    } else if (op < 95) {
      // A reopened Index answers as a fresh one does.
      if (!open_index) {
        if (commits > 0) open_index = Index::open(dir.str());
        continue;
      }
      open_index = open_index->reopen();
      ++reopens;
      Index fresh = Index::open(dir.str());
      ASSERT_EQ(open_index->doc_count(), fresh.doc_count());
      std::string text = test::random_query_text(rng, corpus, 2);
      try {
        Query q = fresh.parse(text);
        ASSERT_EQ(open_index->matching_docs(q), fresh.matching_docs(q)) << text;
      } catch (const QuerySyntaxError&) {
      }
    } else {
      // A new writer: what was not committed is gone; ids go on from the
      // last commit.
      writer.reset();
      writer = std::make_unique<IndexWriter>(dir.str(), options);
      model = committed;
      query_deletes.clear();
      ASSERT_EQ(writer->next_doc_id(), model.docs.size());
    }
  }
  EXPECT_GT(commits, 20);
  EXPECT_GT(merges, 0);
  EXPECT_GT(reopens, 0);
}

INSTANTIATE_TEST_SUITE_P(Seeds, LivingIndexModelTest,
                         ::testing::Values(ModelConfig{1, 1200}, ModelConfig{2, 1200}));

std::vector<Document> docs_of(std::initializer_list<std::pair<const char*, const char*>> title_and_abstract) {
  std::vector<Document> out;
  for (const auto& [title, abstract] : title_and_abstract) {
    out.push_back({.title = title, .url = std::string("u-") + title, .abstract = abstract});
  }
  return out;
}

// The first bug of the issue: a writer that commits twice lost the first commit.
TEST(LivingIndex, AWriterThatCommitsTwiceKeepsBothCommits) {
  test::TempDir dir;
  IndexWriter w(dir.str());
  w.add({.title = "Cat", .url = "u1", .abstract = "The cat is a small wild animal."});
  w.commit();
  w.add({.title = "Dog", .url = "u2", .abstract = "The dog barks at the cat."});
  w.commit();
  Index index = Index::open(dir.str());
  EXPECT_EQ(index.doc_count(), 2u);
  EXPECT_EQ(index.count("cat"), 2u);
  EXPECT_EQ(index.matching_docs(index.parse("dog")), std::vector<DocId>{1});
}

// The second: a writer opened on an existing index replaced it.
TEST(LivingIndex, AWriterOnAnExistingIndexAppends) {
  test::TempDir dir;
  {
    IndexWriter w(dir.str());
    w.add({.title = "Cat", .url = "u1", .abstract = "The cat is a small wild animal."});
    w.add({.title = "Dog", .url = "u2", .abstract = "The dog barks at the cat."});
    w.commit();
  }
  {
    IndexWriter w2(dir.str());
    EXPECT_EQ(w2.add({.title = "Bird", .url = "u3", .abstract = "A bird sings."}), 2u);
    w2.commit();
  }
  Index index = Index::open(dir.str());
  EXPECT_EQ(index.doc_count(), 3u);
  Results r = index.search("cat OR bird", {.sort = SearchOptions::Sort::kDocId});
  ASSERT_EQ(r.hits.size(), 3u);
  EXPECT_EQ(r.hits[0].title, "Cat");
  EXPECT_EQ(r.hits[2].title, "Bird");
  // Replacing is explicit.
  {
    IndexWriter w3(dir.str(), {.mode = IndexWriterOptions::Mode::kReplace});
    w3.add({.title = "Fish", .url = "u4", .abstract = "A fish swims."});
    w3.commit();
  }
  index = Index::open(dir.str());
  EXPECT_EQ(index.doc_count(), 1u);
  EXPECT_EQ(index.search("fish").hits.at(0).doc, 0u);
}

// build a + add b answers as build a b: the same ids, hits and scores.
TEST(LivingIndex, BuildThenAddEqualsOneBuild) {
  Corpus corpus(11);
  std::vector<Document> a = corpus.documents(700), b = corpus.documents(500);
  test::TempDir one, two;
  {
    IndexWriter w(one.str(), {.mode = IndexWriterOptions::Mode::kReplace});
    for (const auto& d : a) w.add(d);
    for (const auto& d : b) w.add(d);
    w.commit();
  }
  {
    IndexWriter w(two.str(), {.mode = IndexWriterOptions::Mode::kReplace});
    for (const auto& d : a) w.add(d);
    w.commit();
  }
  {
    IndexWriter w(two.str());
    for (const auto& d : b) w.add(d);
    w.commit();
  }
  Index x = Index::open(one.str()), y = Index::open(two.str());
  ASSERT_EQ(InternalAccess::reader(y).segments().size(), 2u);
  ASSERT_EQ(x.doc_count(), y.doc_count());
  std::mt19937 rng(5);
  int compared = 0;
  for (int i = 0; i < 300; ++i) {
    std::string text = test::random_query_text(rng, corpus, 3);
    Query qx, qy;
    try {
      qx = x.parse(text);
      qy = y.parse(text);
    } catch (const QuerySyntaxError&) {
      continue;
    }
    EXPECT_EQ(x.matching_docs(qx), y.matching_docs(qy)) << text;
    Results rx = x.search(qx, {.limit = 10}), ry = y.search(qy, {.limit = 10});
    EXPECT_EQ(rx.total_hits, ry.total_hits) << text;
    ASSERT_EQ(rx.hits.size(), ry.hits.size()) << text;
    for (size_t h = 0; h < rx.hits.size(); ++h) {
      EXPECT_EQ(rx.hits[h].doc, ry.hits[h].doc) << text;
      EXPECT_FLOAT_EQ(rx.hits[h].score, ry.hits[h].score) << text;
      EXPECT_EQ(rx.hits[h].snippet, ry.hits[h].snippet) << text;
    }
    ++compared;
  }
  EXPECT_GT(compared, 200);
}

TEST(LivingIndex, IdsAreStableThroughDeletesAndMergesAndNeverReused) {
  test::TempDir dir;
  Corpus corpus(3);
  std::vector<Document> docs = corpus.documents(300);
  {
    IndexWriter w(dir.str(), {.merge = false, .max_segment_docs = 50});
    for (const auto& d : docs) w.add(d);
    w.commit();
  }
  {
    IndexWriter w(dir.str());
    for (DocId id = 0; id < 300; id += 3) w.delete_doc(id);
    w.delete_doc(299);  // the highest id
    w.commit();
    w.force_merge(1);
    w.commit();
  }
  auto reader = IndexReader::open(dir.str());
  ASSERT_EQ(reader->segments().size(), 1u);
  EXPECT_TRUE(reader->segments()[0].ids != nullptr);  // ids with gaps: an id map
  EXPECT_EQ(reader->doc_count(), reader->live_count());  // purged
  for (DocId id = 0; id < 300; ++id) {
    EXPECT_EQ(reader->is_live(id), id % 3 != 0 && id != 299) << id;
    if (reader->is_live(id)) {
      EXPECT_EQ(reader->stored(id).url, docs[id].url) << id;
    }
  }
  IndexWriter w(dir.str());
  EXPECT_EQ(w.add(docs[0]), 300u);  // 299 was deleted, and is not given again
}

TEST(LivingIndex, UpdateReplacesEveryDocWithTheUrlInOneCommit) {
  test::TempDir dir;
  {
    IndexWriter w(dir.str());
    w.add({.title = "Old one", .url = "same", .abstract = "first version"});
    w.add({.title = "Old two", .url = "same", .abstract = "second version"});
    w.add({.title = "Other", .url = "other", .abstract = "version"});
    w.commit();
  }
  Index before = Index::open(dir.str());
  {
    IndexWriter w(dir.str());
    EXPECT_EQ(w.update({.title = "New", .url = "same", .abstract = "third version"}), 3u);
    w.commit();
  }
  Index index = before.reopen();
  EXPECT_EQ(index.doc_count(), 2u);
  EXPECT_EQ(index.matching_docs(index.parse("version")), (std::vector<DocId>{2, 3}));
  EXPECT_EQ(index.search("old").total_hits, 0u);
  // The old snapshot still answers as it was.
  EXPECT_EQ(before.count("version"), 3u);
  EXPECT_EQ(before.search("old").hits.size(), 2u);
}

TEST(LivingIndex, DeleteByQuery) {
  test::TempDir dir;
  IndexWriter w(dir.str());
  for (auto& d : docs_of({{"Cat", "a cat"}, {"Dog", "a dog"}, {"Cat and dog", "both"}, {"Fish", "a fish"}})) w.add(d);
  w.delete_by_query("title:cat -dog");
  w.add({.title = "Cat again", .url = "later", .abstract = "added after the delete"});
  w.commit();
  Index index = Index::open(dir.str());
  EXPECT_EQ(index.matching_docs(index.parse("cat")), (std::vector<DocId>{2, 4}));
  EXPECT_THROW(w.delete_by_query("title:"), QuerySyntaxError);
}

TEST(LivingIndex, ReopenSharesUnchangedSegments) {
  test::TempDir dir;
  Corpus corpus(4);
  {
    IndexWriter w(dir.str(), {.merge = false, .max_segment_docs = 100});
    for (const auto& d : corpus.documents(400)) w.add(d);
    w.commit();
  }
  auto first = IndexReader::open(dir.str());
  EXPECT_EQ(IndexReader::reopen(first), first);  // nothing committed: the same snapshot
  {
    IndexWriter w(dir.str(), {.merge = false});
    w.add(corpus.documents(1)[0]);
    w.delete_doc(150);
    w.commit();
  }
  auto second = IndexReader::reopen(first);
  ASSERT_EQ(second->segments().size(), 5u);
  for (size_t s = 0; s < 4; ++s) {
    EXPECT_EQ(second->segments()[s].reader, first->segments()[s].reader) << s;  // the same mappings
  }
  EXPECT_EQ(second->segments()[0].live, nullptr);
  ASSERT_NE(second->segments()[1].live, nullptr);
  EXPECT_FALSE(second->segments()[1].live->is_live(50));
  EXPECT_EQ(second->live_count(), 400u);
  EXPECT_EQ(first->live_count(), 400u);
}

TEST(LivingIndex, OneWriterAtATimeAndAKilledWriterLeavesNoLock) {
  test::TempDir dir;
  {
    IndexWriter w(dir.str());
    try {
      IndexWriter second(dir.str());
      FAIL() << "a second writer opened";
    } catch (const LockError& e) {
      std::string what = e.what();
      EXPECT_NE(what.find("locked"), std::string::npos) << what;
      EXPECT_NE(what.find(std::to_string(::getpid())), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    IndexWriter w(dir.str());
    w.add({.title = "t", .url = "u", .abstract = "a"});
    ::raise(SIGKILL);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  IndexWriter w(dir.str());  // not blocked by the dead writer
  w.add({.title = "t", .url = "u", .abstract = "a"});
  EXPECT_EQ(w.commit().docs, 1u);
}

TEST(LivingIndex, CheckFindsADamagedLiveDocsFile) {
  test::TempDir dir;
  {
    IndexWriter w(dir.str(), {.merge = false});  // no merge purges the deleted doc
    for (auto& d : docs_of({{"a", "x"}, {"b", "y"}, {"c", "z"}})) w.add(d);
    w.commit();
    w.delete_doc(1);
    w.commit();
  }
  std::string live;
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    if (e.path().extension() == ".live") live = e.path().string();
  ASSERT_FALSE(live.empty());
  std::string bytes = test::read_file(live);
  bytes[20] ^= 0x40;
  test::write_file(live, bytes);
  try {
    IndexReader::open(dir.str())->check();
    FAIL() << "damage not found";
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find(".live"), std::string::npos) << e.what();
  }
}

// SIGKILL at random moments of adds, deletes, commits and merges: the index
// then opens as its last completed commit (or the one the kill interrupted,
// if its manifest landed), check passes, and no committed doc is missing.
TEST(LivingIndex, SigkillAtRandomMomentsLosesNoCommittedDoc) {
  test::TempDir dir;
  std::mt19937 rng(77);
  std::set<std::string> committed;  // live urls
  for (int round = 0; round < 60; ++round) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::close(fds[0]);
      Corpus corpus(static_cast<uint32_t>(round));
      IndexWriter w(dir.str(), {.ram_mb = 16, .max_segment_docs = 20, .segments_per_merge = 3});
      std::mt19937 crng(static_cast<uint32_t>(round));
      std::vector<std::string> mine;
      for (int c = 0;; ++c) {
        // Before each commit a line of its changes (+url added, -url
        // deleted), after it returns a line "done".
        std::string line = "changes";
        for (int i = 0; i < 15; ++i) {
          Document d = corpus.documents(1)[0];
          d.url = "r" + std::to_string(round) + "-" + std::to_string(c) + "-" + std::to_string(i);
          w.add(d);
          line += " +" + d.url;
          mine.push_back(d.url);
        }
        if (crng() % 2) {
          const std::string& gone = mine[crng() % (mine.size() - 15 + 1)];
          w.delete_url(gone);
          line += " -" + gone;
        }
        if (crng() % 4 == 0) w.force_merge(1 + crng() % 2);
        line += "\n";
        if (::write(fds[1], line.data(), line.size()) != ssize_t(line.size())) ::_exit(2);
        w.commit();
        if (::write(fds[1], "done\n", 5) != 5) ::_exit(2);
      }
    }
    ::close(fds[1]);
    // The kill lands at a random moment after the child's first 0 to 2
    // commits, not a fixed time after its start: on a slow machine
    // (sanitizers beside other tests) that time could pass before any
    // commit, and the test would have nothing to lose.
    std::string reported;
    char buf[4096];
    auto commits = [&] {
      size_t n = 0;
      for (size_t at = reported.find("done\n"); at != std::string::npos; at = reported.find("done\n", at + 1)) ++n;
      return n;
    };
    for (const size_t wait_for = rng() % 3; commits() < wait_for;) {
      const ssize_t n = ::read(fds[0], buf, sizeof buf);
      if (n <= 0) break;
      reported.append(buf, static_cast<size_t>(n));
    }
    ::usleep(static_cast<useconds_t>(5000 + rng() % 200000));
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) reported.append(buf, static_cast<size_t>(n));
    ::close(fds[0]);
    std::set<std::string> pending;  // the commit under way when killed
    bool have_pending = false;
    std::istringstream lines(reported);
    for (std::string line; std::getline(lines, line);) {
      if (line == "done") {
        committed = pending;
        have_pending = false;
        continue;
      }
      if (lines.eof()) break;  // a line cut by the kill: its commit had not begun
      pending = committed;
      std::istringstream words(line.substr(7));
      for (std::string w; words >> w;) {
        if (w[0] == '+') pending.insert(w.substr(1));
        if (w[0] == '-') pending.erase(w.substr(1));
      }
      have_pending = true;
    }
    if (!std::filesystem::exists(dir.str() + "/MANIFEST")) {
      ASSERT_TRUE(committed.empty()) << "round " << round;
      continue;
    }
    auto index = IndexReader::open(dir.str());
    ASSERT_NO_THROW(index->check()) << "round " << round;
    std::set<std::string> urls;
    for (const auto& seg : index->segments()) {
      for (DocId d = 0; d < seg.reader->doc_count(); ++d)
        if (seg.is_live(d)) urls.insert(seg.reader->doc_store().get(d).url);
    }
    if (urls != committed) {
      ASSERT_TRUE(have_pending && urls == pending) << "round " << round << ": the index is neither the last commit ("
                                                   << committed.size() << " docs) nor the interrupted one ("
                                                   << urls.size() << " docs)";
      committed = pending;
    }
  }
  EXPECT_GT(committed.size(), 100u);
}

}  // namespace
}  // namespace fts
