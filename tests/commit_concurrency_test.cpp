// Searching while a writer commits, through the public API: readers that
// reopen as fast as they can always see one whole commit (its adds and its
// deletes, nothing of a later one), and a snapshot held from the start keeps
// answering as it did while commits replace files beneath it. The TSan run
// (scripts/test.sh --tsan) builds this test to find data races between the
// writer's commit and reopening readers.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "fts/fts.h"
#include "support/test_support.h"

namespace {

constexpr int kCommits = 12;
constexpr int kDocsPerCommit = 150;

fts::Document doc(int commit, int i) {
  fts::Document d;
  d.title = "zebra " + std::string(i % 3 == 0 ? "striped" : "plain");
  d.url = "https://example.org/" + std::to_string(commit) + "/" + std::to_string(i);
  d.abstract = "the zebra grazes on the savanna with its herd";
  return d;
}

struct Seen {
  uint64_t generation;
  uint64_t zebras;
  uint64_t striped;
  uint32_t doc_count;
};

TEST(CommitConcurrency, ReopeningReadersSeeWholeCommitsAndHeldSnapshotsStayPut) {
  fts::test::TempDir dir;
  {
    fts::IndexWriter first(dir.str());
    for (int i = 0; i < kDocsPerCommit; ++i) first.add(doc(0, i));
    first.commit();
  }
  const fts::Index held = fts::Index::open(dir.str());
  const uint64_t held_zebras = held.count("zebra");
  ASSERT_EQ(held_zebras, static_cast<uint64_t>(kDocsPerCommit));

  // What each commit published, by generation; written by the writer after
  // commit() returns and read only after every thread has joined.
  std::map<uint64_t, Seen> published;
  published[held.generation()] = {held.generation(), held_zebras, held.count("striped"), held.doc_count()};

  std::atomic<bool> done{false};
  std::thread writer([&] {
    fts::IndexWriter w(dir.str(), {.merge = true, .max_segment_docs = 100});
    std::vector<fts::DocId> previous;  // ids of the last commit's adds
    for (int c = 1; c <= kCommits; ++c) {
      std::vector<fts::DocId> added;
      for (int i = 0; i < kDocsPerCommit; ++i) added.push_back(w.add(doc(c, i)));
      for (size_t i = 1; i < previous.size(); i += 2) w.delete_doc(previous[i]);
      if (c % 4 == 0) w.update(doc(c, 0));  // replaces the doc with that url in the same commit
      w.commit();
      previous = std::move(added);
      fts::Index now = fts::Index::open(dir.str());
      published[now.generation()] = {now.generation(), now.count("zebra"), now.count("striped"), now.doc_count()};
    }
    done = true;
  });

  std::vector<std::vector<Seen>> seen(2);
  std::vector<int> held_changed(2, 0);
  std::vector<std::thread> readers;
  for (int t = 0; t < 2; ++t) {
    readers.emplace_back([&, t] {
      fts::Index index = fts::Index::open(dir.str());
      while (!done) {
        index = index.reopen();
        fts::Results top = index.search("zebra", {.limit = 5});
        seen[t].push_back({index.generation(), index.count("zebra"), index.count("striped"), index.doc_count()});
        if (top.total_hits != seen[t].back().zebras) seen[t].back().zebras = UINT64_MAX;  // search and count disagree
        for (const fts::Hit& h : top.hits) {
          if (index.document(h.doc).url != h.url) seen[t].back().doc_count = UINT32_MAX;
        }
        if (held.count("zebra") != held_zebras) ++held_changed[t];
      }
    });
  }
  writer.join();
  for (auto& r : readers) r.join();

  ASSERT_EQ(published.size(), static_cast<size_t>(kCommits + 1)) << "one generation per commit";
  for (int t = 0; t < 2; ++t) {
    EXPECT_EQ(held_changed[t], 0) << "the snapshot held from the start changed";
    EXPECT_FALSE(seen[t].empty());
    uint64_t last_generation = 0;
    for (const Seen& s : seen[t]) {
      EXPECT_GE(s.generation, last_generation) << "a reopen went back in time";
      last_generation = s.generation;
      auto it = published.find(s.generation);
      ASSERT_NE(it, published.end()) << "generation " << s.generation << " was never published";
      EXPECT_EQ(s.zebras, it->second.zebras) << "generation " << s.generation;
      EXPECT_EQ(s.striped, it->second.striped) << "generation " << s.generation;
      EXPECT_EQ(s.doc_count, it->second.doc_count) << "generation " << s.generation;
    }
  }
  // Every commit deleted half of the previous one's adds (the first
  // writer's and the last commit's are whole), and updates replaced a doc.
  const Seen& last = published.rbegin()->second;
  EXPECT_EQ(last.zebras, static_cast<uint64_t>(2 * kDocsPerCommit + (kCommits - 1) * (kDocsPerCommit / 2)));
  EXPECT_EQ(held.count("zebra"), held_zebras);
}

}  // namespace
