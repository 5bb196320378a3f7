#include "query/searcher.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <optional>

#include "query/collapse.h"
#include "query/filter_cache.h"
#include "query/live_docs_cursor.h"
#include "query/max_score.h"
#include "query/planner.h"
#include "query/top_k.h"
#include "query/window_scorer.h"
#include "util/parallel_for.h"

namespace fts {

struct Searcher::Impl {
  std::shared_ptr<FilterCache> cache;  // null when disabled

  PlanOptions plan_options(const IndexReader&, bool scoring, bool dry_run = false) const {
    PlanOptions o;
    o.scoring = scoring;
    o.cache = cache.get();
    o.dry_run = dry_run;
    // Segments never change and cached bitmaps are of subqueries below the
    // live-docs filter, so an entry stays right for its segment (named in
    // the key) through every commit: one generation for all.
    o.generation = 0;
    return o;
  }
};

Searcher::Searcher(std::shared_ptr<const IndexReader> index, size_t cache_bytes)
    : Searcher(std::move(index), SearcherOptions{cache_bytes, SearcherOptions{}.cache_min_work}) {}

Searcher::Searcher(std::shared_ptr<const IndexReader> index, SearcherOptions options)
    : index_(std::move(index)), impl_(std::make_unique<Impl>()) {
  if (options.cache_bytes > 0) impl_->cache = std::make_shared<FilterCache>(options.cache_bytes, options.cache_min_work);
}

Searcher::Searcher(std::shared_ptr<const IndexReader> index, const Searcher& previous)
    : index_(std::move(index)), impl_(std::make_unique<Impl>()) {
  impl_->cache = previous.impl_->cache;
}

Searcher::~Searcher() = default;

namespace {

// Whether some term or phrase is reached through an even number of NOTs
// (NOT NOT x scores x), i.e. whether any hit can score above 0.
bool has_positive_leaf(const QueryNode& node, bool negated) {
  switch (node.kind) {
    case QueryNode::Kind::kTerm:
    case QueryNode::Kind::kPhrase:
      return !negated;
    case QueryNode::Kind::kNot:
      return has_positive_leaf(*node.children[0], !negated);
    default:
      for (const auto& c : node.children) {
        if (has_positive_leaf(*c, negated)) return true;
      }
      return false;
  }
}

// Below this cost a cursor counts or collects the rest in one call (which may
// take a shortcut, such as a bitmap's popcount) even under a time budget: it
// cannot take long. Above it an armed interrupt walks the docs and ticks.
constexpr uint64_t kUninterruptedCost = Interrupt::kStride;

// From this many ids on (4 MB) matching_docs() reserves what may come.
constexpr uint64_t kReservedIds = uint64_t(1) << 20;

uint64_t count_rest(DocCursor& cursor, Interrupt* interrupt) {
  if (!interrupt || !interrupt->armed() || cursor.cost() <= kUninterruptedCost) return cursor.count_remaining();
  uint64_t n = 0;
  for (DocId d = cursor.doc(); d != kNoMoreDocs; d = cursor.next()) {
    ++n;
    interrupt->tick();
  }
  return n;
}

// How many of a disjunction's clauses hold matches in a segment. Where one
// is left (or none), the ranking counts it: a second plan to count would
// search again for the first match of the clauses that hold none there
// (`(declining OR "which is") "bird it is" OR abstract:peacock`: 2.5 ms
// of the 5.0 of its top 10 on the 1M-doc dump).
size_t clauses_left(const std::vector<std::unique_ptr<DocCursor>>& clauses) {
  return static_cast<size_t>(std::count_if(clauses.begin(), clauses.end(),
                                           [](const auto& c) { return c->doc() != kNoMoreDocs; }));
}

// The matches in one segment of a disjunction with at most one clause left
// (clauses_left), where known without iterating: none, or a term's doc
// freq when no doc of the segment is deleted.
std::optional<uint64_t> known_lone_clause_count(const std::vector<std::unique_ptr<DocCursor>>& clauses,
                                                const IndexReader::Segment& segment) {
  for (const auto& c : clauses) {
    if (c->doc() != kNoMoreDocs) return segment.live ? std::nullopt : c->known_count();
  }
  return 0;
}

// The matches of query in one segment, its deleted docs left out.
std::unique_ptr<DocCursor> plan_live(const PreparedQuery& query, const IndexReader::Segment& segment,
                                     const PlanOptions& options) {
  PlanOptions segment_options = options;
  segment_options.deletes = segment.live != nullptr;
  return LiveDocsCursor::filter(plan_segment(query, *segment.reader, segment_options), segment.live.get());
}

// Every match of root (one segment's plan, with scores) into top, counted
// exactly: a window at a time where root scores windows in bulk, else a
// batch of matches with their scores at a time, the deleted docs left out
// by the window or the live-docs cursor.
void collect_every_match(std::unique_ptr<DocCursor> root, const IndexReader::Segment& segment, TopK& top,
                         HitCount& count, Interrupt& interrupt) {
  if (root->scores_windows_in_bulk()) {
    std::vector<std::unique_ptr<DocCursor>> clauses;
    clauses.push_back(std::move(root));
    collect_all_scored(clauses, nullptr, segment, top, count, interrupt);
    return;
  }
  auto cursor = LiveDocsCursor::filter(std::move(root), segment.live.get());
  DocId docs[kBlockSize];
  float scores[kBlockSize];
  while (const size_t n = cursor->take_scored(docs, scores, kBlockSize)) {
    count.hits += n;
    for (size_t i = 0; i < n; ++i) {
      top.push(scores[i], segment.global(docs[i]));
      interrupt.tick();
    }
  }
}

// A conjunction of terms: its every match, scored a batch at a time
// (AndCursor::take_scored), costs no more than the pruned ranking, which
// moves a doc at a time, unless its lead holds very many docs. On and.txt
// top 10 with the count allowed to stop early, the pruned ranking took
// 1.05-1.5x the time of scoring every match in each bucket of queries by
// matches at 1M docs (1 to 2^15 matches), and at 6M 1.02-1.13x up to 2^6
// matches, 1.2-1.4x from there to 2^15; `obs see` at 6M (a lead of about
// 950,000 docs, 274,779 matches) 0.97x.
bool is_term_conjunction(const PreparedQuery& query) {
  if (query.matches_nothing() || query.root().kind != QueryNode::Kind::kAnd) return false;
  const auto& children = query.root().children;
  return std::all_of(children.begin(), children.end(),
                     [](const auto& c) { return c->kind == QueryNode::Kind::kTerm; });
}
constexpr uint64_t kConjunctionScoredWholeUpTo = uint64_t{1} << 19;

using PerSegment = std::function<void(const IndexReader::Segment&, TopK&, HitCount&, Interrupt&)>;

// Runs per_segment over every segment into top and count: in order on the
// calling thread, or with threads > 1 on several at once, each segment into
// a TopK, count and interrupt of its own, merged after. A segment then
// prunes without the others' best scores (more work, the same hits), and
// counts exactly up to a total-hits threshold of its own.
void over_segments(const IndexReader& index, unsigned threads, size_t wanted, TopK& top, HitCount& count,
                   Interrupt& interrupt, const PerSegment& per_segment) {
  const auto& segments = index.segments();
  if (threads <= 1 || segments.size() <= 1) {
    for (const auto& segment : segments) per_segment(segment, top, count, interrupt);
    return;
  }
  std::vector<TopK> tops(segments.size(), TopK(wanted));
  std::vector<HitCount> counts(segments.size());
  std::vector<Interrupt> interrupts(segments.size(), interrupt);
  parallel_for(segments.size(), threads,
               [&](size_t i) { per_segment(segments[i], tops[i], counts[i], interrupts[i]); });
  for (size_t i = 0; i < segments.size(); ++i) {
    for (const ScoredDoc& hit : tops[i].take_sorted()) top.push(hit.score, hit.doc);
    count.hits += counts[i].hits;
    count.exact = count.exact && counts[i].exact;
  }
}

// The matches of query over every segment: planned without scores (a
// query prepared for scoring lends its dictionary entries).
uint64_t count_matches(const IndexReader& index, const PreparedQuery& prepared, const PlanOptions& options,
                       Interrupt* interrupt, unsigned threads) {
  const auto& segments = index.segments();
  uint64_t total = 0;
  if (threads <= 1 || segments.size() <= 1) {
    for (const auto& segment : segments) total += count_rest(*plan_live(prepared, segment, options), interrupt);
    return total;
  }
  std::vector<uint64_t> counts(segments.size());
  std::vector<Interrupt> interrupts;
  if (interrupt) interrupts.assign(segments.size(), *interrupt);
  parallel_for(segments.size(), threads, [&](size_t i) {
    counts[i] = count_rest(*plan_live(prepared, segments[i], options), interrupts.empty() ? nullptr : &interrupts[i]);
  });
  for (uint64_t n : counts) total += n;
  return total;
}

}  // namespace

SearchResponse Searcher::search(const QueryNode* query, const SearchRequest& request) const {
  SearchResponse response;
  if (!query) return response;
  const size_t wanted = request.limit > std::numeric_limits<size_t>::max() - request.offset
                            ? std::numeric_limits<size_t>::max()
                            : request.limit + request.offset;
  if (!request.collapse && (request.limit == 0 || (request.order == SearchRequest::Order::kDocId && wanted == 0))) {
    response.total_hits = count(query, request.interrupt, request.threads);
    return response;
  }
  PreparedQuery prepared(*query, *index_, true, request.stats);
  const PlanOptions options = impl_->plan_options(*index_, true);
  std::vector<ScoredDoc> hits;
  Interrupt unarmed(std::chrono::milliseconds(0), nullptr);
  Interrupt& interrupt = request.interrupt ? *request.interrupt : unarmed;
  // Without a positive leaf every score is 0 and ties go to the lower doc id,
  // so the best hits are the first ones: stop collecting early (a complement
  // such as -steer has nearly every doc as a hit).
  if (request.collapse) {
    ClusterCollector clusters(request.order);
    const bool scored = request.order == SearchRequest::Order::kScore;
    for (const auto& segment : index_->segments()) {
      auto cursor = plan_live(prepared, segment, options);
      for (DocId d = cursor->doc(); d != kNoMoreDocs; d = cursor->next()) {
        ++response.total_hits;
        clusters.add(segment.cluster(d), segment.global(d), scored ? cursor->score() : 0.0f);
        interrupt.tick();
      }
    }
    response.collapsed_hits = clusters.clusters();
    clusters.take(wanted, hits, response.duplicates);
    const size_t skipped = std::min(request.offset, response.duplicates.size());
    response.duplicates.erase(response.duplicates.begin(),
                              response.duplicates.begin() + static_cast<std::ptrdiff_t>(skipped));
  } else if (request.order == SearchRequest::Order::kScore && has_positive_leaf(*query, false)) {
    TopK top(wanted);
    // The ways to rank and count:
    // - A disjunction of a few clauses with an exact count: per segment,
    //   whichever costs less there (window_scorer.h), scoring and counting
    //   every match a window at a time, as Lucene does, or the pruned
    //   ranking (MaxScore) beside a count without scores. On the 1M-doc
    //   dump `critical OR care OR medicine` took 350 us the first way and
    //   780 us the second; `see OR decomposable` 1,250 against 410 us.
    // - A term alone: the pruned ranking, with an exact count. Where no doc
    //   is deleted the count is the term's doc freq, at no cost, whatever
    //   the threshold; where some are, the blocks the ranking skips are
    //   counted, against the live docs, as it passes them (with an exact
    //   count; under a threshold as below). Scoring every match took 3x
    //   the time.
    // - A term minus exclusions: per segment a count without scores beside
    //   the pruned ranking (cover NOT xylography, 25,235 hits, scored every
    //   match in 3x the time of its count), or where the term holds few
    //   docs there, every match scored and counted in one pass: the count
    //   probed the exclusions a second time (title:money -science on the
    //   1M-doc dump as 20 segments, 854 hits: 75 -> 40 us).
    // - Under a total-hits threshold: the pruned ranking, counting up to it;
    //   but a conjunction of terms is scored whole where its lead is not
    //   huge (is_term_conjunction), which counts it exactly on the way.
    // - A disjunction of many clauses: every match scored a window at a
    //   time, with or without an exact count. Pruning a doc at a time looks
    //   at every essential clause per candidate (edge.txt's 300-term OR,
    //   top10 on the 1M-doc dump: 1.7 s against 0.1 s); scoring into arrays
    //   over the whole segment (a bitset and a float per doc) missed the
    //   cache on every posting at 6M docs: 590 ms against 378 for Lucene.
    // - Otherwise every match is scored by the plan's cursor: conjunctions,
    //   whose count costs what scoring them does.
    const size_t width = disjunction_width(prepared);
    const bool wide = width > kMaxPrunedClauses;
    const bool exact = request.total_hits_threshold == kExactHitCount;
    const bool ranked_either_way = !wide && width > 0 && exact;
    const bool bare_term = !prepared.matches_nothing() && prepared.root().kind == QueryNode::Kind::kTerm;
    const bool deletes = std::any_of(index_->segments().begin(), index_->segments().end(),
                                     [](const IndexReader::Segment& s) { return s.live != nullptr; });
    const bool term_counted_exactly = bare_term && (exact || !deletes);
    const bool separate_count = exact && is_term_minus_exclusions(prepared);
    // The clauses hold deleted docs: collect_all_scored and
    // collect_max_score leave them out at each match or candidate, rather
    // than each clause at each posting (which also took collect_all_scored
    // off its clauses' bulk score_window: `a OR search OR engine OR ...`,
    // 21 clauses, top 10 on the 1M-doc dump as 20 segments with 10% deleted,
    // 19.4 -> 15.7 ms; or.txt top 10 -6%, edge.txt -16%).
    auto clauses = [&](const IndexReader::Segment& segment) {
      return plan_segment_clauses(prepared, *segment.reader, options);
    };
    HitCount count;
    if (ranked_either_way) {
      const PlanOptions count_options = impl_->plan_options(*index_, false);
      over_segments(*index_, request.threads, wanted, top, count, interrupt,
                    [&](const IndexReader::Segment& segment, TopK& into, HitCount& counted, Interrupt& ticks) {
                      SegmentClauses planned = clauses(segment);
                      if (scoring_all_pays(planned.clauses)) {
                        collect_all_scored(planned.clauses, planned.excluded.get(), segment, into, counted, ticks);
                        return;
                      }
                      const bool lone = !planned.excluded && clauses_left(planned.clauses) <= 1;
                      const std::optional<uint64_t> known =
                          lone ? known_lone_clause_count(planned.clauses, segment) : std::nullopt;
                      if (lone && !known) {  // counted exactly as the ranking passes its docs
                        collect_max_score(planned.clauses, nullptr, segment, into, 0, counted, ticks, true);
                        return;
                      }
                      HitCount pruned;  // inexact: the segment's matches are counted apart
                      collect_max_score(planned.clauses, planned.excluded.get(), segment, into, 0, pruned, ticks);
                      counted.hits += known ? *known : count_rest(*plan_live(prepared, segment, count_options), &ticks);
                    });
      response.total_hits = count.hits;
    } else if (wide) {
      over_segments(*index_, request.threads, wanted, top, count, interrupt,
                    [&](const IndexReader::Segment& segment, TopK& into, HitCount& counted, Interrupt& ticks) {
                      SegmentClauses planned = clauses(segment);
                      collect_all_scored(planned.clauses, planned.excluded.get(), segment, into, counted, ticks);
                    });
      response.total_hits = count.hits;
    } else if (term_counted_exactly) {
      over_segments(*index_, request.threads, wanted, top, count, interrupt,
                    [&](const IndexReader::Segment& segment, TopK& into, HitCount& counted, Interrupt& ticks) {
                      SegmentClauses planned = clauses(segment);
                      if (segment.live) {  // the windows pruning skips are counted as they pass
                        collect_max_score(planned.clauses, nullptr, segment, into, 0, counted, ticks, true);
                        return;
                      }
                      // Without deletes the segment's count is the term's doc freq.
                      const uint64_t doc_freq = planned.clauses.empty() ? 0 : planned.clauses[0]->cost();
                      HitCount pruned;
                      collect_max_score(planned.clauses, nullptr, segment, into, 0, pruned, ticks);
                      counted.hits += doc_freq;
                    });
      response.total_hits = count.hits;
      response.total_hits_exact = count.exact;
    } else if (separate_count) {
      const PlanOptions count_options = impl_->plan_options(*index_, false);
      over_segments(*index_, request.threads, wanted, top, count, interrupt,
                    [&](const IndexReader::Segment& segment, TopK& into, HitCount& counted, Interrupt& ticks) {
                      SegmentClauses planned = clauses(segment);
                      if (planned.clauses.empty() || planned.clauses[0]->cost() <= kTermScoredWholeUpTo) {
                        collect_max_score(planned.clauses, planned.excluded.get(), segment, into, UINT64_MAX,
                                          counted, ticks);
                        return;
                      }
                      HitCount pruned;  // inexact: the segment's matches are counted apart
                      collect_max_score(planned.clauses, planned.excluded.get(), segment, into, 0, pruned, ticks);
                      counted.hits += count_rest(*plan_live(prepared, segment, count_options), &ticks);
                    });
      response.total_hits = count.hits;
    } else if (!wide && !exact) {
      const bool conjunction = is_term_conjunction(prepared);
      over_segments(*index_, request.threads, wanted, top, count, interrupt,
                    [&](const IndexReader::Segment& segment, TopK& into, HitCount& counted, Interrupt& ticks) {
                      SegmentClauses planned = clauses(segment);
                      if (conjunction && planned.clauses.size() == 1 && !planned.excluded &&
                          planned.clauses[0]->cost() <= kConjunctionScoredWholeUpTo) {
                        collect_every_match(std::move(planned.clauses[0]), segment, into, counted, ticks);
                        return;
                      }
                      collect_max_score(planned.clauses, planned.excluded.get(), segment, into,
                                        request.total_hits_threshold, counted, ticks);
                    });
      response.total_hits = count.hits;
      response.total_hits_exact = count.exact;
    } else {
      over_segments(*index_, request.threads, wanted, top, count, interrupt,
                    [&](const IndexReader::Segment& segment, TopK& into, HitCount& counted, Interrupt& ticks) {
                      // A scoring plan is the same with deletes or without
                      // (plan_live): collect_every_match leaves them out.
                      collect_every_match(plan_segment(prepared, *segment.reader, options), segment, into, counted,
                                          ticks);
                    });
      response.total_hits = count.hits;
    }
    hits = top.take_sorted();
  } else {
    // Past the wanted hits only the count is left to find: all of it, or
    // up to the threshold (then a lower bound, as Lucene's totalHitsThreshold:
    // the complement of -therefore -smoothed holds nearly every doc).
    const uint64_t enough = std::max<uint64_t>(request.total_hits_threshold, wanted);
    const bool exact_count = request.total_hits_threshold == kExactHitCount;
    for (const auto& segment : index_->segments()) {
      if (!response.total_hits_exact) break;
      auto cursor = plan_live(prepared, segment, options);
      for (DocId d = cursor->doc(); d != kNoMoreDocs; d = cursor->next()) {
        if (hits.size() == wanted && exact_count) {
          response.total_hits += count_rest(*cursor, request.interrupt);
          break;
        }
        if (response.total_hits == enough) {  // and d is one more hit
          response.total_hits_exact = false;
          break;
        }
        ++response.total_hits;
        if (hits.size() < wanted) hits.push_back(ScoredDoc{segment.global(d), cursor->score()});
        interrupt.tick();
      }
    }
  }
  if (request.offset >= hits.size()) {
    hits.clear();
  } else {
    hits.erase(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(request.offset));
  }
  response.hits = std::move(hits);
  return response;
}

uint64_t Searcher::count(const QueryNode* query, Interrupt* interrupt, unsigned threads) const {
  if (!query) return 0;
  return count_matches(*index_, PreparedQuery(*query, *index_, false), impl_->plan_options(*index_, false), interrupt,
                       threads);
}

void Searcher::matching_docs(const QueryNode* query, std::vector<DocId>& out, Interrupt* interrupt,
                             unsigned threads) const {
  out.clear();
  if (!query) return;
  PreparedQuery prepared(*query, *index_, false);
  const PlanOptions options = impl_->plan_options(*index_, false);
  const auto& segments = index_->segments();
  auto collect = [&](const IndexReader::Segment& segment, DocCursor& cursor, std::vector<DocId>& into,
                     Interrupt* ticks) {
    if (!ticks || !ticks->armed() || cursor.cost() <= kUninterruptedCost) {
      // A segment with an id map (merged with deletes) collects local ids,
      // mapped after: the cursor's bulk collect, not a call per doc.
      const size_t from = into.size();
      cursor.collect_remaining(into, segment.ids ? 0 : segment.base);
      if (segment.ids) {
        for (size_t i = from; i < into.size(); ++i) into[i] = segment.global(into[i]);
      }
      return;
    }
    for (DocId d = cursor.doc(); d != kNoMoreDocs; d = cursor.next()) {
      into.push_back(segment.global(d));
      if (ticks) ticks->tick();
    }
  };
  if (threads <= 1 || segments.size() <= 1) {
    // Millions of ids take one allocation, once a segment's plan costs
    // enough to reach kReservedIds: its cost (at least its matches) and
    // every doc of the segments after it. Grown by doubling instead, the
    // last step, 32 MB or more, is one that glibc maps afresh each time,
    // and on this machine a new page costs about 11 us: the 5.99 M ids of
    // -therefore over 6M docs took 67 ms, against 5.6 ms for Lucene.
    // Fewer ids grow as they come: holding every segment's plan to reserve
    // for all of them up front cost field.txt's counts over 20 segments
    // 14% (fresh heap pages for the plans).
    uint64_t docs_after = 0;
    for (const auto& segment : segments) docs_after += segment.reader->doc_count();
    for (const auto& segment : segments) {
      docs_after -= segment.reader->doc_count();
      auto cursor = plan_live(prepared, segment, options);
      const uint64_t wanted = out.size() + std::min<uint64_t>(cursor->cost(), segment.reader->doc_count());
      if (wanted >= kReservedIds && wanted > out.capacity()) out.reserve(wanted + docs_after);
      collect(segment, *cursor, out, interrupt);
    }
    return;
  }
  // Each segment's ids apart, then joined: segments hold ascending ranges.
  std::vector<std::vector<DocId>> parts(segments.size());
  std::vector<Interrupt> interrupts;
  if (interrupt) interrupts.assign(segments.size(), *interrupt);
  parallel_for(segments.size(), threads, [&](size_t i) {
    auto cursor = plan_live(prepared, segments[i], options);
    const uint64_t bound = std::min<uint64_t>(cursor->cost(), segments[i].reader->doc_count());
    if (bound >= kReservedIds) parts[i].reserve(bound);  // as above
    collect(segments[i], *cursor, parts[i], interrupts.empty() ? nullptr : &interrupts[i]);
  });
  size_t total = 0;
  for (const auto& p : parts) total += p.size();
  out.reserve(total);
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
}

std::string Searcher::explain(const QueryNode* query) const {
  if (!query) return "empty (the query analyzed to nothing)\n";
  PreparedQuery prepared(*query, *index_, false);
  const PlanOptions options = impl_->plan_options(*index_, false, /*dry_run=*/true);
  std::string out =
      "query " + (prepared.matches_nothing() ? std::string(kMatchesNothingText) : prepared.text(prepared.root())) + "\n";
  for (const auto& segment : index_->segments()) {
    out += "segment " + segment.reader->name() + " base=" + std::to_string(segment.base) +
           " docs=" + std::to_string(segment.reader->doc_count()) +
           (segment.live ? " deleted=" + std::to_string(segment.live->deleted_count()) : "") + "\n";
    plan_live(prepared, segment, options)->explain(out, 1);
  }
  return out;
}

CacheStats Searcher::cache_stats() const { return impl_->cache ? impl_->cache->stats() : CacheStats{}; }

}  // namespace fts
