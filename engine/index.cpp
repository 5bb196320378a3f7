#include <mutex>
#include <optional>

#include "analyzer/analyzer.h"
#include "engine/fts.h"
#include "engine/snippet.h"

namespace fts {

// Analyzers are not thread-safe; searching threads borrow one from a pool.
struct Index::Shared {
  std::shared_ptr<const IndexReader> reader;
  Searcher searcher;
  std::mutex mu;
  std::vector<std::unique_ptr<Analyzer>> idle;

  Shared(std::shared_ptr<const IndexReader> r, size_t cache_bytes) : reader(r), searcher(std::move(r), cache_bytes) {}

  std::unique_ptr<Analyzer> borrow() {
    std::lock_guard lk(mu);
    if (idle.empty()) return std::make_unique<Analyzer>(reader->stopwords());
    auto a = std::move(idle.back());
    idle.pop_back();
    return a;
  }
  void give_back(std::unique_ptr<Analyzer> a) {
    std::lock_guard lk(mu);
    idle.push_back(std::move(a));
  }

  // An analyzer borrowed for one call, returned however the call ends.
  class Lease {
   public:
    explicit Lease(Shared& pool) : pool_(pool), analyzer_(pool.borrow()) {}
    ~Lease() { pool_.give_back(std::move(analyzer_)); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Analyzer& operator*() { return *analyzer_; }

   private:
    Shared& pool_;
    std::unique_ptr<Analyzer> analyzer_;
  };
};

Index Index::open(const std::string& dir, size_t cache_bytes) {
  Index index;
  index.shared_ = std::make_shared<Shared>(IndexReader::open(dir), cache_bytes);
  return index;
}

Query Index::parse(std::string_view text) const {
  Shared::Lease analyzer(*shared_);
  Query q;
  q.root_ = parse_query(text, *analyzer);
  return q;
}

Results Index::search(std::string_view query, const SearchOptions& options) const {
  return search(parse(query), options);
}

Results Index::search(const Query& query, const SearchOptions& options) const {
  SearchRequest request;
  request.limit = options.limit;
  request.offset = options.offset;
  request.order = options.sort == SearchOptions::Sort::kDocId ? SearchRequest::Order::kDocId
                                                              : SearchRequest::Order::kScore;
  SearchResponse response = shared_->searcher.search(query.root(), request);
  Results results;
  results.total_hits = response.total_hits;
  std::optional<Shared::Lease> analyzer;  // for snippets, only when there are hits
  for (const ScoredDoc& d : response.hits) {
    Hit hit;
    hit.doc = d.doc;
    hit.score = d.score;
    if (options.stored_fields) {
      StoredDoc stored = shared_->reader->stored(d.doc);
      hit.title = std::move(stored.title);
      hit.url = std::move(stored.url);
      if (!analyzer) analyzer.emplace(*shared_);
      make_snippet(stored.abstract, query.root(), **analyzer, options.snippet_chars, hit.snippet, hit.highlights);
    }
    results.hits.push_back(std::move(hit));
  }
  return results;
}

uint64_t Index::count(std::string_view query) const { return count(parse(query)); }
uint64_t Index::count(const Query& query) const { return shared_->searcher.count(query.root()); }

std::vector<DocId> Index::matching_docs(const Query& query) const {
  std::vector<DocId> out;
  shared_->searcher.matching_docs(query.root(), out);
  return out;
}

std::string Index::explain(std::string_view query) const { return shared_->searcher.explain(parse(query).root()); }
uint32_t Index::doc_count() const { return shared_->reader->doc_count(); }
CacheStats Index::cache_stats() const { return shared_->searcher.cache_stats(); }
const IndexReader& Index::reader() const { return *shared_->reader; }

uint64_t add_dump(IndexWriter& writer, const std::string& path, const DumpReader::Options& options) {
  DumpReader reader(path, options);
  Document doc;
  while (reader.next(doc)) writer.add(std::move(doc));
  return reader.docs_skipped();
}

}  // namespace fts
