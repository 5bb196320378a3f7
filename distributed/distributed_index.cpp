#include "distributed/distributed_index.h"

#include <algorithm>
#include <cstring>

#include "index/format/shard_manifest.h"
#include "query/collection_stats.h"
#include "query/searcher.h"
#include "util/bytes.h"

namespace fts {

namespace {

// The shards manifest as rank 0 read it, for the ranks to check theirs.
std::string encode_bases(const ShardManifest& m) {
  std::string out;
  put_varint(out, m.shards.size());
  for (const auto& s : m.shards) put_u32(out, s.base);
  return out;
}

std::vector<DocId> decode_bases(const std::string& bytes) {
  ByteReader r(reinterpret_cast<const uint8_t*>(bytes.data()),
               reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size());
  uint64_t n = 0;
  r.get_varint(n);
  std::vector<DocId> bases(n);
  for (auto& b : bases) r.get_u32(b);
  return bases;
}

// One rank's part of an answer: its counts and best hits (global ids).
struct Partial {
  uint64_t total = 0, collapsed = 0;
  bool exact = true;
  std::vector<ScoredDoc> hits;
  std::vector<uint32_t> duplicates;  // per hit, when collapsing
};

std::string encode(const Partial& p) {
  std::string out;
  put_u64(out, p.total);
  put_u64(out, p.collapsed);
  out.push_back(p.exact ? 1 : 0);
  put_u32(out, static_cast<uint32_t>(p.hits.size()));
  for (size_t i = 0; i < p.hits.size(); ++i) {
    put_u32(out, p.hits[i].doc);
    uint32_t bits = 0;
    std::memcpy(&bits, &p.hits[i].score, 4);
    put_u32(out, bits);
    put_u32(out, i < p.duplicates.size() ? p.duplicates[i] : 0);
  }
  return out;
}

Partial decode(const std::string& bytes) {
  ByteReader r(reinterpret_cast<const uint8_t*>(bytes.data()),
               reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size());
  Partial p;
  std::string_view exact;
  uint32_t n = 0;
  r.get_u64(p.total);
  r.get_u64(p.collapsed);
  r.get_bytes(1, exact);
  p.exact = exact[0] != 0;
  r.get_u32(n);
  for (uint32_t i = 0; i < n; ++i) {
    ScoredDoc d;
    uint32_t bits = 0, dup = 0;
    r.get_u32(d.doc);
    r.get_u32(bits);
    std::memcpy(&d.score, &bits, 4);
    r.get_u32(dup);
    p.hits.push_back(d);
    p.duplicates.push_back(dup);
  }
  return p;
}

void put_string(std::string& out, const std::string& s) {
  put_varint(out, s.size());
  out += s;
}

std::string get_string(ByteReader& r) {
  uint64_t n = 0;
  std::string_view v;
  r.get_varint(n);
  r.get_bytes(n, v);
  return std::string(v);
}

}  // namespace

DistributedIndex::DistributedIndex(const Comm& comm, const std::string& dir, size_t cache_bytes) : comm_(comm) {
  std::string bases;
  comm_.agree([&] {
    if (comm_.is_root()) bases = encode_bases(read_shard_manifest(dir));
  });
  comm_.broadcast(bases);
  comm_.agree([&] {
    const std::vector<DocId> all = decode_bases(bases);
    if (all.size() != static_cast<size_t>(comm_.size())) {
      throw ArgumentError("mpirun -np", "the index at " + dir + " has " + std::to_string(all.size()) +
                                            " shards: run as many ranks, not " + std::to_string(comm_.size()));
    }
    base_ = all[comm_.rank()];
    shard_ = Index::open(dir + "/" + shard_name(comm_.rank()), cache_bytes);
  });
  // The doc count and field lengths of all the shards: the same for every
  // query of this snapshot, summed once.
  const CollectionStats mine = local_stats(InternalAccess::reader(*shard_), {});
  std::vector<uint64_t> sums{mine.doc_count};
  sums.insert(sums.end(), mine.total_length.begin(), mine.total_length.end());
  comm_.sum(sums);
  totals_.doc_count = sums[0];
  for (int f = 0; f < kFieldCount; ++f) totals_.total_length[f] = sums[1 + f];
}

bool DistributedIndex::share_query(std::string& text, bool more) const {
  std::string message = more ? "1" + text : "0";
  comm_.broadcast(message);
  if (message[0] == '0') return false;
  text = message.substr(1);
  return true;
}

Results DistributedIndex::search(const Query& query, const SearchOptions& options) const {
  const QueryNode* root = InternalAccess::root(query);
  // 2. Global statistics: the totals summed at open, and each leaf term's df.
  const std::vector<FieldTerm> terms = leaf_terms(root);
  const IndexReader& reader = InternalAccess::reader(*shard_);
  std::vector<uint64_t> dfs;
  for (const auto& [field, term] : terms) dfs.push_back(reader.doc_freq(field, term));
  comm_.sum(dfs);
  CollectionStats global = totals_;
  for (size_t i = 0; i < terms.size(); ++i) global.doc_freq[terms[i]] = dfs[i];

  // 3. The local best offset + limit, with global ids.
  Partial mine;
  comm_.agree([&] {
    if (options.threads == 0) throw ArgumentError("SearchOptions::threads", "must be at least 1");
    SearchRequest request;
    const size_t wanted = std::min(options.limit, SIZE_MAX - options.offset) + options.offset;
    request.limit = wanted;
    request.offset = 0;
    request.order = options.sort == SearchOptions::Sort::kDocId ? SearchRequest::Order::kDocId
                                                                : SearchRequest::Order::kScore;
    request.total_hits_threshold = options.total_hits_threshold;
    request.collapse = options.collapse;
    request.threads = options.threads;
    request.stats = &global;
    SearchResponse response = InternalAccess::searcher(*shard_).search(root, request);
    mine.total = response.total_hits;
    mine.exact = response.total_hits_exact;
    mine.collapsed = response.collapsed_hits;
    for (ScoredDoc& d : response.hits) d.doc += base_;
    mine.hits = std::move(response.hits);
    mine.duplicates = std::move(response.duplicates);
  });
  const std::vector<std::string> parts = comm_.gather(encode(mine));

  // Rank 0 merges: the ranks' lists are each sorted; ties go to the lower id.
  Results results;
  std::vector<std::pair<ScoredDoc, uint32_t>> merged;
  if (comm_.is_root()) {
    for (const std::string& bytes : parts) {
      Partial p = decode(bytes);
      results.total_hits += p.total;
      results.collapsed_hits += p.collapsed;
      if (!p.exact) results.total_hits_relation = Results::Relation::kAtLeast;
      for (size_t i = 0; i < p.hits.size(); ++i) merged.emplace_back(p.hits[i], p.duplicates[i]);
    }
    const bool by_doc = options.sort == SearchOptions::Sort::kDocId;
    std::sort(merged.begin(), merged.end(), [by_doc](const auto& a, const auto& b) {
      if (!by_doc && a.first.score != b.first.score) return a.first.score > b.first.score;
      return a.first.doc < b.first.doc;
    });
    const size_t from = std::min(options.offset, merged.size());
    const size_t to = from + std::min(options.limit, merged.size() - from);
    for (size_t i = from; i < to; ++i) {
      Hit hit;
      hit.doc = merged[i].first.doc;
      hit.score = merged[i].first.score;
      hit.duplicates = options.collapse ? merged[i].second : 0;
      results.hits.push_back(std::move(hit));
    }
  }
  if (!options.stored_fields) return results;

  // 4. The owners fill the winners' stored fields.
  std::string winners;
  if (comm_.is_root()) {
    for (const Hit& h : results.hits) put_u32(winners, h.doc);
  }
  comm_.broadcast(winners);
  std::string filled;
  comm_.agree([&] {
    const DocId end = base_ + InternalAccess::reader(*shard_).next_doc_id();
    for (size_t i = 0; i * 4 < winners.size(); ++i) {
      DocId doc = 0;
      std::memcpy(&doc, winners.data() + 4 * i, 4);
      if (doc < base_ || doc >= end) continue;
      Hit hit;
      hit.doc = doc - base_;
      shard_->load_stored(query, hit, options.snippet_chars);
      put_u32(filled, static_cast<uint32_t>(i));
      put_string(filled, hit.title);
      put_string(filled, hit.url);
      put_string(filled, hit.snippet);
      put_varint(filled, hit.highlights.size());
      for (const Highlight& h : hit.highlights) {
        put_varint(filled, h.begin);
        put_varint(filled, h.end);
      }
    }
  });
  const std::vector<std::string> fields = comm_.gather(filled);
  for (const std::string& bytes : fields) {
    ByteReader r(reinterpret_cast<const uint8_t*>(bytes.data()),
                 reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size());
    uint32_t i = 0;
    while (r.remaining() > 0 && r.get_u32(i)) {
      Hit& hit = results.hits.at(i);
      hit.title = get_string(r);
      hit.url = get_string(r);
      hit.snippet = get_string(r);
      uint64_t n = 0;
      r.get_varint(n);
      for (uint64_t k = 0; k < n; ++k) {
        uint64_t b = 0, e = 0;
        r.get_varint(b);
        r.get_varint(e);
        hit.highlights.push_back({static_cast<size_t>(b), static_cast<size_t>(e)});
      }
    }
  }
  return results;
}

uint64_t DistributedIndex::count(const Query& query, const SearchOptions& options) const {
  uint64_t local = 0;
  comm_.agree([&] { local = shard_->count(query, options); });
  std::vector<uint64_t> total{local};
  comm_.sum(total);
  return total[0];
}

std::vector<DocId> DistributedIndex::matching_docs(const Query& query, const SearchOptions& options) const {
  std::vector<DocId> local;
  comm_.agree([&] { local = shard_->matching_docs(query, options); });
  std::string bytes(local.size() * 4, '\0');
  for (size_t i = 0; i < local.size(); ++i) {
    const DocId global = local[i] + base_;
    std::memcpy(bytes.data() + 4 * i, &global, 4);
  }
  std::vector<DocId> out;
  for (const std::string& part : comm_.gather(bytes)) {  // rank order: ascending ids
    const size_t n = part.size() / 4;
    if (n == 0) continue;  // out.data() may be null then
    const size_t at = out.size();
    out.resize(at + n);
    std::memcpy(out.data() + at, part.data(), part.size());
  }
  return out;
}

}  // namespace fts
