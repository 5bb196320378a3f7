// fts::Index and fts::Query: the public search API over the reader and the
// searcher. Every entry point runs through at_api_boundary, so only
// fts::Error leaves it.
#include <mutex>
#include <optional>
#include <sstream>

#include "analyzer/analyzer.h"
#include "base/api_boundary.h"
#include "engine/fts.h"
#include "index/writer/index_writer.h"
#include "engine/snippet.h"

namespace fts {

struct FTS_LOCAL Query::Impl {
  std::unique_ptr<const QueryNode> root;  // null: matches nothing
};

Query::Query() = default;
Query::~Query() = default;
Query::Query(const Query&) = default;
Query& Query::operator=(const Query&) = default;
std::string Query::to_string() const { return query_to_string(InternalAccess::root(*this)); }
bool Query::matches_nothing() const { return InternalAccess::root(*this) == nullptr; }

// Analyzers are not thread-safe; searching threads borrow one from a pool.
struct FTS_LOCAL Index::Shared {
  std::string dir;
  std::shared_ptr<const IndexReader> reader;
  Searcher searcher;
  std::mutex mu;
  std::vector<std::unique_ptr<Analyzer>> idle;

  Shared(std::string d, std::shared_ptr<const IndexReader> r, size_t cache_bytes)
      : dir(std::move(d)), reader(r), searcher(std::move(r), cache_bytes) {}
  Shared(std::string d, std::shared_ptr<const IndexReader> r, const Searcher& previous)
      : dir(std::move(d)), reader(r), searcher(std::move(r), previous) {}

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

  void fill(Hit& hit, const QueryNode* root, Analyzer& analyzer, size_t snippet_chars) const {
    StoredDoc stored = reader->stored(hit.doc);
    hit.title = std::move(stored.title);
    hit.url = std::move(stored.url);
    hit.snippet.clear();
    hit.highlights.clear();
    make_snippet(stored.abstract, root, analyzer, snippet_chars, hit.snippet, hit.highlights);
  }

  // Ids are never reused, so a deleted doc's id names nothing.
  void check_doc(DocId doc) const {
    if (!reader->is_live(doc)) {
      throw ArgumentError("doc id", std::to_string(doc) + " is not a live doc of the index (next id " +
                                        std::to_string(reader->next_doc_id()) + ")");
    }
  }

  Query parse(std::string_view text) {
    Lease analyzer(*this);
    return InternalAccess::make_query(parse_query(text, *analyzer));
  }
};

const IndexReader& InternalAccess::reader(const Index& index) { return *index.shared_->reader; }
const Searcher& InternalAccess::searcher(const Index& index) { return index.shared_->searcher; }
const QueryNode* InternalAccess::root(const Query& query) { return query.impl_ ? query.impl_->root.get() : nullptr; }
Query InternalAccess::make_query(std::unique_ptr<const QueryNode> root) {
  Query query;
  query.impl_ = std::make_shared<const Query::Impl>(Query::Impl{std::move(root)});
  return query;
}

namespace {

void validate(const SearchOptions& o) {
  if (o.sort != SearchOptions::Sort::kScore && o.sort != SearchOptions::Sort::kDocId) {
    throw ArgumentError("SearchOptions::sort", "must be kScore or kDocId");
  }
  if (o.snippet_chars > SearchOptions::kMaxSnippetChars) {
    throw ArgumentError("SearchOptions::snippet_chars",
                        "must be at most " + std::to_string(SearchOptions::kMaxSnippetChars));
  }
  if (o.time_budget.count() < 0) throw ArgumentError("SearchOptions::time_budget", "must not be negative");
  if (o.threads == 0) throw ArgumentError("SearchOptions::threads", "must be at least 1");
}

// A flag already set stops the call before it starts.
Interrupt interrupt_of(const SearchOptions& o) {
  Interrupt interrupt(o.time_budget, o.cancel);
  interrupt.poll();
  return interrupt;
}

// The text plan (Searcher::explain) as a tree: "query ..." first, a
// "segment ..." line per segment, then its cursors indented two spaces per
// level, each ending in " cost=N" (structural lines such as "minus:" have none).
ExplainNode explain_tree_of(const std::string& text) {
  ExplainNode root;
  std::vector<ExplainNode*> path;  // path[d]: the open node at indentation d (path[0]: the segment)
  std::istringstream lines(text);
  std::string line;
  bool first = true;
  while (std::getline(lines, line)) {
    const size_t indent = line.find_first_not_of(' ');
    if (indent == std::string::npos) continue;
    ExplainNode node;
    node.what = line.substr(indent);
    const size_t at = node.what.rfind(" cost=");
    if (at != std::string::npos && node.what.find_first_not_of("0123456789", at + 6) == std::string::npos) {
      node.cost = std::stoull(node.what.substr(at + 6));
      node.what.resize(at);
    }
    const size_t depth = indent / 2;
    if (first) {
      root = std::move(node);
      first = false;
    } else if (depth == 0) {
      root.children.push_back(std::move(node));
      path.assign(1, &root.children.back());
    } else {
      if (path.size() < depth) throw IndexError("explain", "plan line without a parent: " + line);
      path.resize(depth);
      path.back()->children.push_back(std::move(node));
      path.push_back(&path.back()->children.back());
    }
  }
  return root;
}

}  // namespace

Index::Index() = default;
Index::~Index() = default;
Index::Index(const Index&) = default;
Index& Index::operator=(const Index&) = default;

Index Index::open(const std::string& dir, size_t cache_bytes) {
  return at_api_boundary(dir, [&] {
    Index index;
    index.shared_ = std::make_shared<Shared>(dir, IndexReader::open(dir), cache_bytes);
    return index;
  });
}

Index Index::reopen() const {
  return at_api_boundary(shared_->dir, [&] {
    auto reader = IndexReader::reopen(shared_->reader);
    if (reader == shared_->reader) return *this;
    Index index;
    index.shared_ = std::make_shared<Shared>(shared_->dir, std::move(reader), shared_->searcher);
    return index;
  });
}

Query Index::parse(std::string_view text) const {
  return at_api_boundary(shared_->dir, [&] { return shared_->parse(text); });
}

Results Index::search(std::string_view query, const SearchOptions& options) const {
  return at_api_boundary(shared_->dir, [&] { return search(shared_->parse(query), options); });
}

Results Index::search(const Query& query, const SearchOptions& options) const {
  return at_api_boundary(shared_->dir, [&] {
    validate(options);
    Interrupt interrupt = interrupt_of(options);
    SearchRequest request;
    request.interrupt = &interrupt;
    request.limit = options.limit;
    request.offset = options.offset;
    request.order = options.sort == SearchOptions::Sort::kDocId ? SearchRequest::Order::kDocId
                                                                : SearchRequest::Order::kScore;
    request.total_hits_threshold = options.total_hits_threshold;
    request.collapse = options.collapse;
    request.threads = options.threads;
    const QueryNode* root = InternalAccess::root(query);
    SearchResponse response = shared_->searcher.search(root, request);
    Results results;
    results.total_hits = response.total_hits;
    results.total_hits_relation =
        response.total_hits_exact ? Results::Relation::kEqual : Results::Relation::kAtLeast;
    results.collapsed_hits = response.collapsed_hits;
    std::optional<Shared::Lease> analyzer;  // for snippets, only when there are hits
    for (size_t i = 0; i < response.hits.size(); ++i) {
      const ScoredDoc& d = response.hits[i];
      Hit hit;
      hit.doc = d.doc;
      hit.score = d.score;
      if (i < response.duplicates.size()) hit.duplicates = response.duplicates[i];
      if (options.stored_fields) {
        if (!analyzer) analyzer.emplace(*shared_);
        shared_->fill(hit, root, **analyzer, options.snippet_chars);
        interrupt.tick();
      }
      results.hits.push_back(std::move(hit));
    }
    return results;
  });
}

uint64_t Index::count(std::string_view query, const SearchOptions& options) const {
  return at_api_boundary(shared_->dir, [&] { return count(shared_->parse(query), options); });
}

uint64_t Index::count(const Query& query, const SearchOptions& options) const {
  return at_api_boundary(shared_->dir, [&] {
    validate(options);
    Interrupt interrupt = interrupt_of(options);
    return shared_->searcher.count(InternalAccess::root(query), &interrupt, options.threads);
  });
}

std::vector<DocId> Index::matching_docs(const Query& query, const SearchOptions& options) const {
  std::vector<DocId> out;
  matching_docs(query, out, options);
  return out;
}

void Index::matching_docs(const Query& query, std::vector<DocId>& out, const SearchOptions& options) const {
  at_api_boundary(shared_->dir, [&] {
    out.clear();
    validate(options);
    Interrupt interrupt = interrupt_of(options);
    shared_->searcher.matching_docs(InternalAccess::root(query), out, &interrupt, options.threads);
  });
}

std::string Index::explain(std::string_view query) const {
  return at_api_boundary(shared_->dir, [&] { return shared_->searcher.explain(InternalAccess::root(shared_->parse(query))); });
}

ExplainNode Index::explain_tree(std::string_view query) const {
  return at_api_boundary(shared_->dir, [&] { return explain_tree_of(explain(query)); });
}

Document Index::document(DocId doc) const {
  return at_api_boundary(shared_->dir, [&] {
    shared_->check_doc(doc);
    StoredDoc stored = shared_->reader->stored(doc);
    Document out;
    out.title = std::move(stored.title);
    out.url = std::move(stored.url);
    out.abstract = std::move(stored.abstract);
    return out;
  });
}

void Index::load_stored(const Query& query, Hit& hit, size_t snippet_chars) const {
  at_api_boundary(shared_->dir, [&] {
    shared_->check_doc(hit.doc);
    if (snippet_chars > SearchOptions::kMaxSnippetChars) {
      throw ArgumentError("snippet_chars", "must be at most " + std::to_string(SearchOptions::kMaxSnippetChars));
    }
    Shared::Lease analyzer(*shared_);
    shared_->fill(hit, InternalAccess::root(query), *analyzer, snippet_chars);
  });
}

uint32_t Index::doc_count() const { return shared_->reader->live_count(); }
uint64_t Index::generation() const { return shared_->reader->generation(); }
const std::string& Index::dir() const { return shared_->dir; }
CacheStats Index::cache_stats() const { return shared_->searcher.cache_stats(); }

uint64_t add_dump(IndexWriter& writer, const std::string& path, const DumpOptions& options) {
  return at_api_boundary(path, [&] {
    DumpReader reader(path, options);
    Document doc;
    while (reader.next(doc)) writer.add(std::move(doc));
    return reader.docs_skipped();
  });
}

// Here, not in index/writer: a query needs the parser and the searcher.
void IndexWriter::delete_by_query(std::string_view query) {
  Analyzer analyzer(IndexWriterAccess::stopwords(*this));
  std::shared_ptr<const QueryNode> root = parse_query(query, analyzer);
  if (!root) return;  // analyzed to nothing: matches nothing
  IndexWriterAccess::delete_matching(*this, [root](const IndexReader& snapshot) {
    std::vector<DocId> docs;
    // A snapshot of a commit being built: owned by the writer, not shared.
    std::shared_ptr<const IndexReader> borrowed(&snapshot, [](const IndexReader*) {});
    Searcher(borrowed, 0).matching_docs(root.get(), docs);
    return docs;
  });
}

}  // namespace fts
