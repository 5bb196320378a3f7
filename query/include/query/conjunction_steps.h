// The steps of a conjunction, shared by AndCursor (over its children or
// terms) and TokenConjunction (a phrase's tokens' postings): leapfrogging
// from the rarest list, merging the two rarest where they are of like
// length (align_pair(), a compare and two branch-free steps per doc, where
// leapfrogging advance()s mispredicted about every other doc), and the
// single step of a two-phase approximation.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "index/format/postings.h"

namespace fts {

// Where a conjunction merges its two rarest lists: the second at most this
// many times the lead's length. On and.txt top10 at 6M docs, 4, 8 and 16
// came within 3% of each other (pairs of 4 to 8 gain in top10 and lose a
// little in counts); phrase.txt's tokens took 12% less time at 1M and 6M,
// though `"or not"` (the second 5.4 times the lead, and half the docs)
// took 5% more: a list that dense is mostly one step from the target.
constexpr uint64_t kMergeRatio = 8;

// Whether a conjunction merges lists of these lengths, the lead's first.
inline bool merge_pays(uint64_t lead_cost, uint64_t second_cost) { return second_cost <= kMergeRatio * lead_cost; }

// What a conjunction reads of a list besides its lead's, for
// DocCursor::work(): the list's work, at most a block per lead doc, as an
// advance() decodes one block at most. Summed whole, `emmarble (b OR
// propagation)`, 72 matches, looked as dear to count as 324,141 postings.
inline uint64_t work_beside_lead(uint64_t work, uint64_t lead_cost) {
  return std::min<uint64_t>(work, lead_cost * kBlockSize);
}

// The first doc from lead's and second's on that lead, second and other(i)
// for every i in [2, n) hold, each moved there; kNoMoreDocs when none.
// Cursor::align_pair(lead, second) merges the two.
template <class Cursor, class Other>
DocId merge_align(Cursor& lead, Cursor& second, size_t n, Other&& other) {
  for (;;) {
    const DocId d = Cursor::align_pair(lead, second);
    if (d == kNoMoreDocs) return kNoMoreDocs;
    size_t i = 2;
    for (; i < n; ++i) {
      auto& c = other(i);
      if ((c.doc() < d ? c.advance(d) : c.doc()) != d) break;
    }
    if (i == n) return d;
    const DocId past = other(i).doc();
    if (past == kNoMoreDocs) return kNoMoreDocs;
    lead.advance(past);
  }
}

// The first doc from candidate (child(0)'s doc) on that child(i) for every
// i in [0, n) holds, each moved there; kNoMoreDocs when none.
template <class Child>
DocId leapfrog(size_t n, Child&& child, DocId candidate) {
  for (size_t i = 1; i < n && candidate != kNoMoreDocs;) {
    auto& c = child(i);
    DocId d = c.doc();
    if (d < candidate) d = c.advance(candidate);
    if (d == candidate) {
      ++i;
    } else if (d == kNoMoreDocs) {
      return kNoMoreDocs;
    } else {
      candidate = child(0).advance(d);
      i = 1;
    }
  }
  return candidate;
}

// Moves child(0), child(1), .. to target once each: target when all of
// them hold it, else the doc of the first that passed it (which may lack
// the others). Children already beyond target stay where they are.
template <class Child>
DocId step_each(size_t n, Child&& child, DocId target) {
  for (size_t i = 0; i < n; ++i) {
    auto& c = child(i);
    DocId d = c.doc();
    if (d < target) d = c.advance(target);
    if (d != target) return d;
  }
  return target;
}

}  // namespace fts
