#include "query/planner.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "query/all_docs_cursor.h"
#include "query/and_cursor.h"
#include "query/and_not_cursor.h"
#include "query/bitmap_cursor.h"
#include "query/bitset_or_cursor.h"
#include "query/dominant_or_cursor.h"
#include "query/or_cursor.h"
#include "query/phrase_cursor.h"
#include "query/rewrite.h"
#include "query/term_cursor.h"

namespace fts {

namespace {

using CursorPtr = std::unique_ptr<DocCursor>;
using Kind = QueryNode::Kind;

// When an OR that is read to the end is materialised into a bitset instead
// of merged by a heap (bench/query_bench: the bitset is 3-10x faster per
// posting, but zeroing and scanning doc_count bits is a fixed cost, and with
// scores a per-doc float array comes along): many children, or enough
// postings per bitset word.
bool prefer_bitset_or(size_t children, uint64_t total_cost, uint32_t doc_count, bool scoring) {
  if (scoring) return children > kMaxPrunedClauses || (children >= 4 && total_cost >= doc_count / 8);
  return children > 8 || total_cost >= doc_count / 32;
}

// An OR read to its end with a clause of known count this many times the
// others' cost together is counted by probing that clause at their docs,
// and collected by merging it with them (query/dominant_or_cursor.h); of
// or.txt at 1M, 99 of 200 queries. Several others go through a heap, whose
// cost per doc beats a bitset's scan of the segment only below one doc in
// kFewPerHeapDoc (`by OR diseases OR medicine`, the others 2.4% of the
// docs, collected 30% and 51% slower merged in two interleaved runs;
// `they OR jam OR moon`, 0.5%, 38% faster than the bitset).
constexpr uint64_t kDominance = 8;
constexpr uint64_t kFewPerHeapDoc = 128;

bool is_negation(const QueryNode& n) { return n.kind == Kind::kNot; }
bool is_leaf(const QueryNode& n) { return n.kind == Kind::kTerm || n.kind == Kind::kPhrase; }

// The one positive child of an AND whose other children are all
// negations, or null.
const QueryNode* lone_positive(const QueryNode& node) {
  if (node.kind != Kind::kAnd) return nullptr;
  const QueryNode* positive = nullptr;
  for (const auto& c : node.children) {
    if (is_negation(*c)) continue;
    if (positive) return nullptr;
    positive = c.get();
  }
  return positive;
}

// The OR of an AND whose other children are all negations, or null.
const QueryNode* lone_disjunction(const QueryNode& node) {
  const QueryNode* positive = lone_positive(node);
  return positive && positive->kind == Kind::kOr ? positive : nullptr;
}

class SegmentPlanner {
 public:
  SegmentPlanner(const PreparedQuery& query, const SegmentReader& segment, const PlanOptions& options)
      : query_(query), segment_(segment), options_(options) {}

  CursorPtr plan() {
    if (query_.matches_nothing()) return std::make_unique<EmptyCursor>();
    return options_.scoring ? build(query_.root(), true, true) : filter(query_.root(), true);
  }

  // The scoring clauses of a top-level OR, or of the one positive child of
  // an AND of it and negations (its clauses if it is an OR), with the
  // negations as exclusions; one clause for any other root. For a
  // collector that drives them itself and probes the exclusions only at
  // its candidates.
  SegmentClauses plan_clauses() {
    SegmentClauses out;
    if (query_.matches_nothing()) return out;
    const QueryNode& root = query_.root();
    if (root.kind == Kind::kOr) {
      out.clauses = disjunction_parts(root, false);
      return out;
    }
    if (const QueryNode* positive = lone_positive(root)) {
      std::vector<CursorPtr> negatives = negations(root);
      if (positive->kind == Kind::kOr) {
        out.clauses = disjunction_parts(*positive, false);
      } else {
        out.clauses.push_back(build(*positive, true, false));
      }
      if (!negatives.empty()) out.excluded = union_of(std::move(negatives), false, false);
      return out;
    }
    out.clauses.push_back(build(root, true, false));
    return out;
  }

 private:
  // Filters of the n of an AND's NOT n children that match something. Each
  // is built two-phase: its parent probes it (contains()) or confirms the
  // candidates it iterates (a complement, AndNotCursor), so positions are
  // read only at those docs, not in a search for its first match at
  // construction, which in each segment without one would scan the whole
  // phrase.
  std::vector<CursorPtr> negations(const QueryNode& node) {
    std::vector<CursorPtr> out;
    for (const auto& c : node.children) {
      if (!is_negation(*c)) continue;
      CursorPtr cursor = filter(*c->children[0], false, true);
      if (cursor->doc() != kNoMoreDocs) out.push_back(std::move(cursor));
    }
    return out;
  }

  // A cursor over the node's matches; scoring: with the leaves' scores.
  // exhaustive: the cursor will be read to its end (not advanced by a
  // parent), which makes materialising a wide OR pay off.
  // two_phase: phrases, ANDs without exclusions and ORs of them are built
  // iterating their approximation (for an AND, which confirms them last,
  // or a probe), so they do not look for an exact first match.
  CursorPtr build(const QueryNode& node, bool scoring, bool exhaustive, bool two_phase = false) {
    switch (node.kind) {
      case Kind::kTerm:
        return term(node, scoring);
      case Kind::kPhrase:
        return node.terms.size() == 1 ? term(node, scoring) : phrase(node, scoring, two_phase);
      case Kind::kNot:
        return complement(filter(*node.children[0], false, true));
      case Kind::kAnd:
        return conjunction(node, scoring, exhaustive, two_phase);
      case Kind::kOr:
        return disjunction(node, scoring, exhaustive, two_phase);
    }
    return std::make_unique<EmptyCursor>();
  }

  // Without scores, possibly from (or into) the filter cache; one that is
  // materialised is built exact.
  CursorPtr filter(const QueryNode& node, bool exhaustive, bool two_phase = false) {
    FilterCache* cache = options_.cache;
    if (!cache || node.kind == Kind::kTerm) return build(node, false, exhaustive, two_phase);
    FilterCache::Key key{options_.generation, segment_.name(), query_.text(node)};
    if (options_.dry_run) {
      if (auto bitmap = cache->peek(key)) return std::make_unique<BitmapCursor>(std::move(bitmap));
      return build(node, false, exhaustive, two_phase);
    }
    FilterCache::Lookup found = cache->lookup(key);
    if (found.bitmap) return std::make_unique<BitmapCursor>(std::move(found.bitmap));
    CursorPtr cursor = build(node, false, exhaustive, two_phase);
    if (!cache->worth_caching(found.sightings, cursor->work())) return cursor;
    if (two_phase) cursor = build(node, false, exhaustive);  // materialised: exact
    auto bitmap = materialise(*cursor);
    cache->insert(key, bitmap);
    return std::make_unique<BitmapCursor>(std::move(bitmap));
  }

  static std::shared_ptr<const Roaring> materialise(DocCursor& cursor) {
    auto bitmap = std::make_shared<Roaring>();
    uint32_t buffer[1024];
    size_t n = 0;
    for (DocId d = cursor.doc(); d != kNoMoreDocs; d = cursor.next()) {
      buffer[n++] = d;
      if (n == std::size(buffer)) {
        bitmap->addMany(n, buffer);
        n = 0;
      }
    }
    bitmap->addMany(n, buffer);
    bitmap->runOptimize();
    bitmap->shrinkToFit();
    return bitmap;
  }

  CursorPtr term(const QueryNode& node, bool scoring) {
    auto info = query_.lookup(node, 0, segment_);
    if (!info) return std::make_unique<EmptyCursor>();
    return std::make_unique<TermCursor>(segment_, node.field, *info, scoring ? query_.weight(node) : nullptr,
                                        query_.text(node));
  }

  // A phrase of two pair words is their pair's list, scored as the phrase
  // (its freq is the phrase's: the pair's occurrences in title and
  // abstract). A longer one with such pairs is confirmed on positions only
  // at the docs that hold them all.
  CursorPtr phrase(const QueryNode& node, bool scoring, bool two_phase) {
    const std::vector<std::string>* keys = query_.pair_keys(node);
    if (!keys) return phrase_on_positions(node, scoring, two_phase);
    const bool whole = node.terms.size() == 2;
    std::vector<CursorPtr> parts;
    for (const std::string& key : *keys) {
      auto info = segment_.lookup(Field::kAny, key);
      if (!info) return std::make_unique<EmptyCursor>();
      parts.push_back(std::make_unique<TermCursor>(segment_, Field::kAny, *info,
                                                   whole && scoring ? query_.weight(node) : nullptr,
                                                   whole ? std::string_view(query_.text(node)) : key));
      if (whole) return std::move(parts[0]);
    }
    parts.push_back(phrase_on_positions(node, scoring, true));
    if (parts.back()->doc() == kNoMoreDocs) return std::make_unique<EmptyCursor>();
    return std::make_unique<AndCursor>(std::move(parts), segment_.doc_count(), two_phase);
  }

  CursorPtr phrase_on_positions(const QueryNode& node, bool scoring, bool two_phase) {
    // Unique tokens in first-occurrence order; slots map offsets to them.
    std::vector<std::string_view> unique;
    std::vector<size_t> first;  // per unique token: its first offset
    std::vector<uint32_t> slots;
    for (size_t i = 0; i < node.terms.size(); ++i) {
      uint32_t slot = 0;
      while (slot < unique.size() && unique[slot] != node.terms[i]) ++slot;
      if (slot == unique.size()) {
        unique.push_back(node.terms[i]);
        first.push_back(i);
      }
      slots.push_back(slot);
    }
    // Every token looked up before any cursor is made (which decodes a block).
    std::vector<TermInfo> infos;
    infos.reserve(unique.size());
    for (size_t u = 0; u < unique.size(); ++u) {
      auto info = query_.lookup(node, first[u], segment_);
      if (!info) return std::make_unique<EmptyCursor>();
      infos.push_back(*info);
    }
    std::vector<PostingsCursor> approx;
    approx.reserve(unique.size());
    for (const TermInfo& info : infos) approx.push_back(segment_.cursor(node.field, info));
    // An unqualified phrase reads positions from the title and abstract,
    // looked up by the cursor once a candidate needs them.
    if (node.field != Field::kAny) unique.clear();
    return std::make_unique<PhraseCursor>(std::move(approx), std::move(slots), std::move(unique), &segment_,
                                          node.field, scoring ? query_.weight(node) : nullptr,
                                          query_.text(node), two_phase);
  }

  CursorPtr complement(CursorPtr excluded) {
    auto all = std::make_unique<AllDocsCursor>(segment_.doc_count());
    if (excluded->doc() == kNoMoreDocs) return all;
    return std::make_unique<AndNotCursor>(std::move(all), std::move(excluded));
  }

  // lazy: two-phase itself (the parent confirms it) where nothing is
  // excluded from it.
  CursorPtr conjunction(const QueryNode& node, bool scoring, bool exhaustive, bool lazy = false) {
    size_t positive_count = 0;
    for (const auto& c : node.children) positive_count += !is_negation(*c);
    // A lone positive is read to the end whenever the AND is; beside others
    // a phrase is confirmed last (AndCursor), so it is built two-phase.
    const bool child_exhaustive = exhaustive && positive_count == 1;
    const bool two_phase = positive_count > 1;
    // Terms and phrases first, kept in the children's order: one absent
    // from the segment empties the AND before a costlier sibling is built
    // (an OR may materialise a bitset). In an index of many segments a
    // word is often in some and not in others: `(broiling OR ((holes OR
    // ... mockle))` nests ORs in ANDs 13 deep, and `mockle` is in 8 of 20
    // segments; its count there took 222 us, 80 after (19 merged).
    std::vector<CursorPtr> positives(node.children.size());
    for (const bool leaves : {true, false}) {
      for (size_t i = 0; i < node.children.size(); ++i) {
        const QueryNode& c = *node.children[i];
        if (is_negation(c) || is_leaf(c) != leaves) continue;
        CursorPtr cursor =
            scoring ? build(c, true, child_exhaustive, two_phase) : filter(c, child_exhaustive, two_phase);
        if (cursor->doc() == kNoMoreDocs) return std::make_unique<EmptyCursor>();
        positives[i] = std::move(cursor);
      }
    }
    std::erase(positives, nullptr);
    const bool excludes = positive_count < node.children.size();
    CursorPtr include;
    if (positives.empty()) {
      include = std::make_unique<AllDocsCursor>(segment_.doc_count());
    } else if (positives.size() == 1) {
      include = std::move(positives[0]);
    } else {
      include = std::make_unique<AndCursor>(std::move(positives), segment_.doc_count(), lazy && !excludes);
    }
    if (!excludes || include->doc() == kNoMoreDocs) return include;
    // Exclusions are probed at include's docs, or iterated from every doc
    // (a positive such as (a OR NOT a) can plan as every doc too), each
    // candidate confirmed (AndNotCursor): built two-phase either way.
    std::vector<CursorPtr> excluded = negations(node);
    if (excluded.empty()) return include;
    CursorPtr exclude = union_of(std::move(excluded), false, false);
    return std::make_unique<AndNotCursor>(std::move(include), std::move(exclude));
  }

  CursorPtr disjunction(const QueryNode& node, bool scoring, bool exhaustive, bool two_phase) {
    if (!scoring) return disjunction_filter(node, exhaustive, two_phase);
    return union_of(disjunction_parts(node, exhaustive, two_phase), true, exhaustive);
  }

  struct OrChildren {
    std::vector<CursorPtr> parts;    // the positive children that match something
    std::vector<CursorPtr> negated;  // the n of each NOT n child
    bool has_negation = false;
    bool negation_is_everything = false;  // NOT of nothing: every doc
  };

  OrChildren or_children(const QueryNode& node, bool scoring, bool exhaustive, bool two_phase) {
    OrChildren out;
    for (const auto& c : node.children) {
      if (is_negation(*c)) {
        out.has_negation = true;
        if (out.negation_is_everything) continue;
        CursorPtr cursor = filter(*c->children[0], false);
        if (cursor->doc() == kNoMoreDocs) {
          out.negation_is_everything = true;
          out.negated.clear();
        } else {
          out.negated.push_back(std::move(cursor));
        }
        continue;
      }
      CursorPtr cursor = scoring ? build(*c, true, exhaustive, two_phase) : filter(*c, exhaustive, two_phase);
      if (cursor->doc() != kNoMoreDocs) out.parts.push_back(std::move(cursor));
    }
    return out;
  }

  // n1 AND n2 AND ..: the docs no negated child of the OR admits.
  CursorPtr common_exclusions(OrChildren& c) {
    if (c.negation_is_everything) return std::make_unique<EmptyCursor>();
    if (c.negated.size() == 1) return std::move(c.negated[0]);
    return std::make_unique<AndCursor>(std::move(c.negated), segment_.doc_count());
  }

  // Without scores: p1 OR .. OR NOT n1 OR .. = NOT ((n1 AND ..) AND NOT (p1 OR ..)),
  // a complement, which counts without walking every doc.
  CursorPtr disjunction_filter(const QueryNode& node, bool exhaustive, bool two_phase) {
    // With a negation the positive children end up excluded from a
    // complement, which may iterate them: then they are built exact.
    const bool negated = std::any_of(node.children.begin(), node.children.end(), [](const auto& c) { return is_negation(*c); });
    OrChildren c = or_children(node, false, exhaustive, two_phase && !negated);
    if (!c.has_negation) return union_of(std::move(c.parts), false, exhaustive, &node == &query_.root());
    if (c.negation_is_everything) return std::make_unique<AllDocsCursor>(segment_.doc_count());
    CursorPtr common = common_exclusions(c);
    if (!c.parts.empty()) {
      common = std::make_unique<AndNotCursor>(std::move(common), union_of(std::move(c.parts), false, false));
    }
    return complement(std::move(common));
  }

  // The clauses of a scored OR: one cursor per positive child, and one
  // complement for the negated children, since NOT n1 OR NOT n2 = NOT (n1 AND n2).
  std::vector<CursorPtr> disjunction_parts(const QueryNode& node, bool exhaustive, bool two_phase = false) {
    OrChildren c = or_children(node, true, exhaustive, two_phase);
    if (c.has_negation) c.parts.push_back(complement(common_exclusions(c)));
    return std::move(c.parts);
  }

  // root: the union is the plan's root, counted or collected in bulk.
  CursorPtr union_of(std::vector<CursorPtr> parts, bool scoring, bool exhaustive, bool root = false) {
    if (parts.empty()) return std::make_unique<EmptyCursor>();
    if (parts.size() == 1) return std::move(parts[0]);
    uint64_t total_cost = 0;
    for (const auto& p : parts) total_cost += p->cost();
    if (root && !scoring && exhaustive) {
      // One clause of known count holding most of the docs: counted by
      // probing it at the others' docs, merged with them a batch of its
      // docs at a time (DominantOrCursor); with deletes, each merged batch
      // filtered (`good OR luck` top 10 on 20 segments with 10% deleted:
      // 277 us through heaps, 137 merged; or.txt's matches collected in
      // 0.80 of the time; where a bitset would be chosen too, in 0.91 of
      // the bitsets' time, top 10 level). Several others are merged by a
      // heap, at a cost per doc that only a few of them keep below the
      // bitset's. Only at the root: a parent (AND-NOT) steps through a
      // union a doc at a time, where the bitset's next() is the faster.
      auto big = std::max_element(parts.begin(), parts.end(),
                                  [](const auto& a, const auto& b) { return a->cost() < b->cost(); });
      const uint64_t rest_cost = total_cost - (*big)->cost();
      if ((*big)->known_count() && (*big)->cost() >= kDominance * rest_cost &&
          (parts.size() == 2 || rest_cost * kFewPerHeapDoc <= segment_.doc_count())) {
        CursorPtr lead = std::move(*big);
        parts.erase(big);
        return std::make_unique<DominantOrCursor>(std::move(lead), union_of(std::move(parts), false, true));
      }
    }
    if (exhaustive && prefer_bitset_or(parts.size(), total_cost, segment_.doc_count(), scoring)) {
      return std::make_unique<BitsetOrCursor>(std::move(parts), segment_.doc_count(), scoring, segment_.name());
    }
    return std::make_unique<OrCursor>(std::move(parts));
  }

  const PreparedQuery& query_;
  const SegmentReader& segment_;
  const PlanOptions& options_;
};

}  // namespace

PreparedQuery::PreparedQuery(const QueryNode& query, const IndexReader& index, bool scoring,
                             const CollectionStats* stats)
    : root_(simplify_query(query)) {
  if (!scoring) root_ = drop_implied_clauses(std::move(root_));
  if (root_ && !index.pair_words().empty()) find_pairs(*root_, index.pair_words());
  if (!root_ || !scoring) return;
  segments_ = index.segments();
  prepare(*root_, index, stats, 1.0);
}

std::optional<TermInfo> PreparedQuery::lookup(const QueryNode& leaf, size_t term, const SegmentReader& segment) const {
  const auto it = leaves_.find(&leaf);
  if (it != leaves_.end() && !it->second.entries.empty()) {
    // A scan: an index has tens of segments, and a dictionary lookup costs more.
    for (size_t s = 0; s < segments_.size(); ++s) {
      if (segments_[s].reader.get() == &segment) return it->second.entries[term * segments_.size() + s];
    }
  }
  return segment.lookup(leaf.field, leaf.terms[term]);
}

void PreparedQuery::find_pairs(const QueryNode& node, const PairWords& words) {
  if (node.kind == Kind::kPhrase && node.field == Field::kAny) {
    std::vector<std::string> keys;
    for (size_t i = 0; i + 1 < node.terms.size(); ++i) {
      if (!words.contains(node.terms[i]) || !words.contains(node.terms[i + 1])) continue;
      std::string key = pair_term(node.terms[i], node.terms[i + 1]);
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(std::move(key));
    }
    if (!keys.empty()) pair_keys_.emplace(&node, std::move(keys));
  }
  for (const auto& c : node.children) find_pairs(*c, words);
}

const std::vector<std::string>* PreparedQuery::pair_keys(const QueryNode& phrase) const {
  const auto it = pair_keys_.find(&phrase);
  return it == pair_keys_.end() ? nullptr : &it->second;
}

const std::string& PreparedQuery::text(const QueryNode& node) const {
  std::lock_guard lock(text_mutex_);
  auto it = text_.find(&node);
  if (it == text_.end()) it = text_.emplace(&node, node.to_string()).first;
  return it->second;
}

// multiplier: the product of the weights above node (scores are sums over
// the leaves, so a clause's weight scales each leaf below it).
void PreparedQuery::prepare(const QueryNode& node, const IndexReader& index, const CollectionStats* stats,
                            double multiplier) {
  multiplier *= node.weight;
  if (node.kind == Kind::kTerm || node.kind == Kind::kPhrase) {
    double idf = 0;
    std::vector<std::optional<TermInfo>> entries;
    if (stats) {
      for (const auto& t : node.terms) idf += bm25_idf(stats->doc_count, stats->doc_freq_of(node.field, t));
    } else {
      for (const auto& t : node.terms) idf += bm25_idf(index.doc_count(), index.doc_freq(node.field, t, &entries));
    }
    const double average = stats ? stats->average_field_length(node.field) : index.average_field_length(node.field);
    leaves_.emplace(&node, Leaf{Bm25Weight(multiplier * idf, average), std::move(entries)});
  }
  for (const auto& c : node.children) prepare(*c, index, stats, multiplier);
}

const Bm25Weight* PreparedQuery::weight(const QueryNode& leaf) const {
  auto it = leaves_.find(&leaf);
  return it == leaves_.end() ? nullptr : &it->second.weight;
}

std::unique_ptr<DocCursor> plan_segment(const PreparedQuery& query, const SegmentReader& segment,
                                        const PlanOptions& options) {
  return SegmentPlanner(query, segment, options).plan();
}

size_t disjunction_width(const PreparedQuery& query) {
  if (query.matches_nothing()) return 0;
  const QueryNode& root = query.root();
  const QueryNode* either = root.kind == Kind::kOr ? &root : lone_disjunction(root);
  return either ? either->children.size() : 0;
}

bool is_term_minus_exclusions(const PreparedQuery& query) {
  if (query.matches_nothing()) return false;
  if (query.root().kind == Kind::kTerm) return true;
  const QueryNode* positive = lone_positive(query.root());
  return positive && positive->kind == Kind::kTerm;
}

SegmentClauses plan_segment_clauses(const PreparedQuery& query, const SegmentReader& segment, const PlanOptions& options) {
  return SegmentPlanner(query, segment, options).plan_clauses();
}

}  // namespace fts
