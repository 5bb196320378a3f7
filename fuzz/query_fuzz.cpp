// Fuzzes the query path end to end: parse + analyze, plan, evaluate, rank,
// snippets and explain, over a small index of data/sample.xml built at
// startup in five segments. Each input is one query. It must either raise
// QuerySyntaxError with a position inside the query, or match exactly the
// docs a brute-force evaluator finds (tests/brute_force.h), with consistent
// counts, paging and ranking order.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "brute_force.h"
#include "engine/fts.h"
#include "fuzz_support.h"

namespace {

struct Fixture {
  std::optional<fts::Index> index;
  std::vector<fts::test::BruteDoc> analyzed;
  std::optional<fts::test::BruteForce> brute;
  uint64_t runs = 0;
};

Fixture& fixture() {
  static Fixture* f = [] {
    auto* f = new Fixture;
    const std::string dir = (fts::fuzz::scratch_dir() / "index").string();
    std::vector<fts::Document> docs;
    fts::DumpReader reader(FTS_SOURCE_DIR "/data/sample.xml", {});
    for (fts::Document doc; reader.next(doc);) docs.push_back(doc);
    {
      fts::IndexWriterOptions options;
      options.merge = false;
      options.max_segment_docs = 70;  // several segments: per-segment planning and doc-id bases
      fts::IndexWriter writer(dir, options);
      for (const auto& d : docs) writer.add(d);
      writer.commit();
    }
    f->index = fts::Index::open(dir);
    fts::Analyzer analyzer;
    for (const auto& d : docs) f->analyzed.push_back({analyzer.analyze(d.title), analyzer.analyze(d.abstract)});
    return f;
  }();
  return *f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Fixture& f = fixture();
  // The reference memoizes every leaf it sees; start it afresh now and then
  // so its memory stays bounded over millions of runs.
  if (f.runs++ % 512 == 0) f.brute.emplace(f.analyzed);
  const std::string text(reinterpret_cast<const char*>(data), size);
  const fts::Index& index = *f.index;

  fts::Query query;
  try {
    query = index.parse(text);
  } catch (const fts::QuerySyntaxError& e) {
    if (e.position() > text.size()) fts::fuzz::invariant_failed("error position past the end", text);
    return 0;
  }

  const std::vector<fts::DocId> expected = f.brute->matches(fts::InternalAccess::root(query));
  if (index.matching_docs(query) != expected) fts::fuzz::invariant_failed("matching docs differ from brute force", text);
  if (index.count(query) != expected.size()) fts::fuzz::invariant_failed("count differs from brute force", text);

  // Ranked with snippets: every hit matches, scores never increase.
  fts::Results ranked = index.search(query, {.limit = 10});
  if (ranked.total_hits != expected.size()) fts::fuzz::invariant_failed("total_hits differs", text);
  if (ranked.hits.size() != std::min<size_t>(10, expected.size())) fts::fuzz::invariant_failed("hit count", text);
  for (size_t i = 0; i < ranked.hits.size(); ++i) {
    const fts::Hit& hit = ranked.hits[i];
    if (!std::binary_search(expected.begin(), expected.end(), hit.doc)) fts::fuzz::invariant_failed("hit does not match", text);
    if (i > 0 && hit.score > ranked.hits[i - 1].score) fts::fuzz::invariant_failed("scores increase", text);
    for (const fts::Highlight& h : hit.highlights)
      if (h.begin >= h.end || h.end > hit.snippet.size()) fts::fuzz::invariant_failed("highlight outside snippet", text);
  }

  // Doc-id order with an offset: exactly a slice of the expected list.
  fts::Results paged = index.search(query, {.limit = 5, .offset = 3, .sort = fts::SearchOptions::Sort::kDocId,
                                           .stored_fields = false});
  for (size_t i = 0; i < paged.hits.size(); ++i)
    if (3 + i >= expected.size() || paged.hits[i].doc != expected[3 + i]) fts::fuzz::invariant_failed("doc-order page", text);
  if (paged.hits.size() != (expected.size() > 3 ? std::min<size_t>(5, expected.size() - 3) : 0))
    fts::fuzz::invariant_failed("doc-order page size", text);

  (void)index.explain(text);
  return 0;
}
