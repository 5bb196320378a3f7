#include "query/max_score.h"

#include <algorithm>
#include <limits>

#include "query/live_docs_cursor.h"

namespace fts {

void collect_max_score(std::vector<std::unique_ptr<DocCursor>>& clauses, DocCursor* excluded,
                       const IndexReader::Segment& segment, TopK& top, uint64_t count_exactly, HitCount& count,
                       Interrupt& interrupt, bool count_all) {
  struct Clause {
    DocCursor* cursor;
    float bound;     // over every doc; orders the clauses
    uint32_t query;  // its place in the query: the order scores are summed in
  };
  // Deleted docs are left out at the candidates where clauses combine, but
  // one clause alone is filtered as it goes: what it skips and counts in
  // bulk (count_through, skip_ruled_out) is then live docs only.
  const auto left = [](const auto& c) { return c->doc() != kNoMoreDocs; };
  if (segment.live && std::count_if(clauses.begin(), clauses.end(), left) == 1) {
    auto& lone = *std::find_if(clauses.begin(), clauses.end(), left);
    lone = LiveDocsCursor::filter(std::move(lone), segment.live.get());
  }
  std::vector<Clause> cs;
  cs.reserve(clauses.size());
  for (uint32_t q = 0; q < clauses.size(); ++q)
    if (clauses[q]->doc() != kNoMoreDocs) cs.push_back({clauses[q].get(), clauses[q]->max_score(), q});
  std::stable_sort(cs.begin(), cs.end(), [](const Clause& a, const Clause& b) { return a.bound < b.bound; });
  const size_t n = cs.size();
  if (n == 0) return;
  count_all = count_all && n == 1 && excluded == nullptr;
  // A doc's score is a float sum in whatever order its clauses come, so the
  // bounds get a margin of a few ulps per clause. One clause's score is its
  // own, added to nothing: its bound needs none, and a bound equal to the
  // k-th score then rules a window out (an equal score loses the tie).
  const double margin = n == 1 ? 1.0 : 1.0 + 4e-7 * static_cast<double>(n + 8);
  std::vector<DocCursor::Bound> local(n);
  std::vector<float> prefix(n);  // prefix[i]: bound of the clauses 0..i together in the window
  // The candidate's score per clause (0 where it is not), summed in the
  // query's order once every clause is known: pruning adds them in an order
  // that depends on the threshold and on this segment's bounds, which
  // another segment or shard holding the doc would not share, and a float
  // sum depends on its order. Indexed by Clause::query.
  std::vector<float> part(clauses.size(), 0.0f);

  float threshold = -std::numeric_limits<float>::infinity();
  // A lone clause whose count may stop early learns the k-th best score
  // as it rises, and may then pass over docs that cannot beat it (an OR
  // inside an AND leaves out its children that cannot make a doc
  // competitive alone). Those docs go uncounted.
  const bool propagate = n == 1 && !count_all;
  float propagated = 0;
  auto raise_threshold = [&] {
    if (count.hits < count_exactly) return;
    threshold = top.threshold();
    if (propagate && threshold > propagated) {
      propagated = threshold;
      if (cs[0].cursor->set_min_competitive_score(threshold)) count.exact = false;
    }
  };
  // Windows: stretches of doc ids that one block of every clause covers
  // (block-max MaxScore). Within a window each clause is bounded by its
  // block's bound, which is 0 for a clause with no doc there; the clauses
  // (in the order of their overall bounds) whose window bounds add up to no
  // more than the k-th best score are non-essential there, and a window
  // where every clause is skips its docs unread. Until there is a k-th
  // best score nothing can be pruned: one stretch to the end, left as soon
  // as one exists.
  DocId at = 0;  // every doc below has been scored or ruled out
  for (;;) {
    raise_threshold();
    const bool bounded = threshold > -std::numeric_limits<float>::infinity();
    // One clause passes the stretches its bounds rule out in one go instead
    // of a window each, exclusions or not (what is ruled out is no hit
    // either way: is NOT "the foremost", top10-fast on the 6M-doc dump, went
    // from 1,284 to 135 us); with count_all, counting them in one call
    // (abstract:OR, 497,091 hits, top 10 on the 1M-doc dump as 20
    // segments with 10% deleted: 840 -> 680 us).
    if (bounded && n == 1) {
      DocCursor* c = cs[0].cursor;
      const DocId from = c->skip_ruled_out(at, threshold);
      if (from != at) {
        if (count_all) {
          count.hits += from == kNoMoreDocs ? c->count_remaining() : c->count_through(from - 1);
        } else if (c->doc() < from) {
          count.exact = false;
        }
        if (from == kNoMoreDocs) break;
        at = from;
      }
    }
    DocId end = kNoMoreDocs;
    for (size_t i = 0; i < n; ++i) {
      local[i] = bounded ? cs[i].cursor->block_bound(at) : DocCursor::Bound{kNoMoreDocs, cs[i].bound};
      end = std::min(end, local[i].end);
    }
    // Whether clause i may hold docs in the window (it may lag behind at).
    auto in_window = [&](size_t i) {
      const DocId d = cs[i].cursor->doc();
      return d != kNoMoreDocs && d <= end;
    };
    double sum = 0;
    size_t essential = 0;  // cs[0 .. essential) are non-essential in the window
    for (size_t i = 0; i < n; ++i) {
      if (in_window(i)) sum += std::max(0.0f, local[i].score);
      prefix[i] = static_cast<float>(sum * margin);
    }
    // A clause dropped while it still holds docs in the window leaves them
    // uncounted, unless every match is to be counted (one clause, so no
    // doc of the window was counted before).
    auto drop_non_essential = [&] {
      for (; essential < n && prefix[essential] <= threshold; ++essential) {
        if (!in_window(essential)) continue;
        if (count_all)
          count.hits += cs[essential].cursor->count_through(end);
        else
          count.exact = false;
      }
    };
    drop_non_essential();
    for (size_t i = essential; i < n; ++i) cs[i].cursor->advance(at);
    bool now_bounded = false;
    // One clause and nothing excluded (a bare term, a phrase): each doc of
    // the window is a hit with the clause's score, with none of the
    // bookkeeping below (query-order sums, essential sets) to do per doc.
    if (n == 1 && excluded == nullptr && essential == 0) {
      DocCursor* c = cs[0].cursor;
      for (DocId d = c->doc(); d != kNoMoreDocs && d <= end;) {
        ++count.hits;
        const float score = c->score();
        if (score >= threshold) top.push(score, segment.global(d));
        interrupt.tick();
        const DocId scored = d;
        d = c->next();
        raise_threshold();
        if (!bounded && threshold > -std::numeric_limits<float>::infinity()) {
          now_bounded = true;
          at = scored + 1;
          break;
        }
        if (prefix[0] <= threshold) {  // the rest of the window is ruled out
          if (d != kNoMoreDocs && d <= end) {
            if (count_all)
              count.hits += c->count_through(end);
            else
              count.exact = false;
          }
          break;
        }
      }
      essential = n;  // the window is done
    }
    while (essential < n) {
      DocId d = kNoMoreDocs;
      for (size_t i = essential; i < n; ++i) d = std::min(d, cs[i].cursor->doc());
      if (d > end || d == kNoMoreDocs) break;
      if (!segment.is_live(d) || (excluded && excluded->contains(d))) {
        for (size_t i = essential; i < n; ++i) {
          DocCursor* c = cs[i].cursor;
          if (c->doc() == d) c->next();
        }
        interrupt.tick();
        continue;
      }
      ++count.hits;
      float score = 0;
      for (size_t i = essential; i < n; ++i) {
        DocCursor* c = cs[i].cursor;
        part[cs[i].query] = c->doc() == d ? c->score() : 0.0f;
        score += part[cs[i].query];
      }
      bool dropped = false;
      for (size_t i = essential; i-- > 0;) {
        if (score + prefix[i] <= threshold) {
          dropped = true;
          break;
        }
        DocCursor* c = cs[i].cursor;
        if (c->doc() < d) c->advance(d);
        part[cs[i].query] = c->doc() == d ? c->score() : 0.0f;
        score += part[cs[i].query];
      }
      if (!dropped) {
        score = 0;
        for (float p : part) score += p;
        top.push(score, segment.global(d));
      }
      interrupt.tick();
      for (size_t i = essential; i < n; ++i) {
        DocCursor* c = cs[i].cursor;
        if (c->doc() == d) c->next();
      }
      raise_threshold();
      if (!bounded && threshold > -std::numeric_limits<float>::infinity()) {
        now_bounded = true;  // every clause was essential, so each is past d
        at = d + 1;
        break;
      }
      drop_non_essential();
    }
    if (now_bounded) continue;
    if (end == kNoMoreDocs) break;
    // The next window starts at the next doc any clause holds (the
    // non-essential ones skip what this window ruled out). A lone clause
    // then passes the blocks its bounds rule out without decoding them, at
    // the top of the loop; moving it here decodes one block per such run.
    DocId next = kNoMoreDocs;
    for (size_t i = 0; i < n; ++i) next = std::min(next, cs[i].cursor->advance(end + 1));
    if (next == kNoMoreDocs) break;
    at = next;
  }
  // Docs the non-essential clauses held and nobody looked at were not
  // counted (drop_non_essential marked the count inexact then).
}

}  // namespace fts
