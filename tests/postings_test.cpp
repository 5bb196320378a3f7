#include "index/format/postings.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace fts {
namespace {

// The current doc's positions read one at a time through a PositionStream.
std::vector<uint32_t> streamed_positions(PostingsCursor& c) {
  std::vector<uint32_t> out;
  PostingsCursor::PositionStream stream = c.position_stream();
  for (uint32_t p; stream.next(p);) out.push_back(p);
  return out;
}


struct Postings {
  std::vector<DocId> docs;
  std::vector<uint32_t> freqs;
  std::vector<uint32_t> positions;  // freqs[i] per doc, in turn
  std::vector<size_t> pos_start;    // index into positions of doc i
};

uint32_t random_freq(std::mt19937& rng, bool all_one) {
  if (all_one) return 1;
  switch (rng() % 10) {
    case 0: return 1 + rng() % 1000;  // large
    case 1: case 2: case 3: return 2 + rng() % 5;
    default: return 1;
  }
}

// n docs with gaps up to max_gap (1 = consecutive) starting at first.
Postings make_postings(std::mt19937& rng, size_t n, uint32_t max_gap, bool all_one, DocId first = 0) {
  Postings p;
  uint64_t doc = first;
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) doc += 1 + rng() % max_gap;
    p.docs.push_back(static_cast<DocId>(doc));
    const uint32_t f = random_freq(rng, all_one);
    p.freqs.push_back(f);
    p.pos_start.push_back(p.positions.size());
    uint32_t pos = rng() % 50;
    for (uint32_t j = 0; j < f; ++j) {
      p.positions.push_back(pos);
      pos += (rng() % 4 == 0) ? 1 + rng() % 100000 : 1 + rng() % 3;
    }
  }
  EXPECT_LT(doc, kNoMoreDocs);
  return p;
}

std::vector<uint32_t> positions_of(const Postings& p, size_t i) {
  return {p.positions.begin() + p.pos_start[i], p.positions.begin() + p.pos_start[i] + p.freqs[i]};
}

// A segment holding a few terms, so offsets are not all zero.
struct Segment {
  VectorSink post, pos;
  std::vector<TermInfo> infos;
  std::span<const uint8_t> post_bytes() const {
    return {reinterpret_cast<const uint8_t*>(post.bytes.data()), post.bytes.size()};
  }
  std::span<const uint8_t> pos_bytes() const {
    return {reinterpret_cast<const uint8_t*>(pos.bytes.data()), pos.bytes.size()};
  }
};

TermInfo write(Segment& seg, const Postings& p, bool with_positions = true) {
  PostingsWriter w(seg.post, with_positions ? &seg.pos : nullptr);
  TermInfo info = w.write(p.docs, p.freqs, p.positions);
  seg.infos.push_back(info);
  return info;
}

// Walks the whole list with next(), checking docs, freqs and positions.
void expect_round_trip(const Postings& p, bool with_positions, std::mt19937& rng) {
  Segment seg;
  Postings filler = make_postings(rng, 3, 10, false);
  write(seg, filler, with_positions);
  const TermInfo info = write(seg, p, with_positions);
  write(seg, filler, with_positions);
  ASSERT_EQ(info.doc_freq, p.docs.size());
  uint64_t total = 0;
  for (uint32_t f : p.freqs) total += f;
  ASSERT_EQ(info.total_freq, total);

  PostingsCursor c(seg.post_bytes(), with_positions ? seg.pos_bytes() : std::span<const uint8_t>(), info, "test");
  EXPECT_EQ(c.cost(), p.docs.size());
  std::vector<uint32_t> got;
  for (size_t i = 0; i < p.docs.size(); ++i) {
    ASSERT_EQ(c.next(), p.docs[i]) << "i=" << i << " n=" << p.docs.size();
    ASSERT_EQ(c.doc(), p.docs[i]);
    // Freqs are read for about half the docs, so lazily decoded blocks that
    // were never asked for are exercised too.
    if (rng() % 2 == 0 || i % kBlockSize == kBlockSize - 1) {
      ASSERT_EQ(c.freq(), p.freqs[i]) << "i=" << i;
      ASSERT_LE(c.freq(), c.block_max_freq());
    }
    ASSERT_GE(c.block_last_doc(), c.doc());
    if (with_positions && rng() % 3 == 0) {
      c.positions(got);
      ASSERT_EQ(got, positions_of(p, i)) << "i=" << i;
    } else if (with_positions && rng() % 2 == 0) {
      ASSERT_EQ(streamed_positions(c), positions_of(p, i)) << "i=" << i;
    }
  }
  EXPECT_EQ(c.next(), kNoMoreDocs);
  EXPECT_EQ(c.doc(), kNoMoreDocs);
  EXPECT_EQ(c.next(), kNoMoreDocs);
  EXPECT_EQ(c.advance(5), kNoMoreDocs);
}

TEST(Postings, RoundTripSizes) {
  std::mt19937 rng(1);
  for (size_t n : {1, 2, 127, 128, 129, 255, 256, 257, 10000, 100000}) {
    for (uint32_t gap : {1u, 3u, 1000u}) {
      for (bool all_one : {false, true}) {
        SCOPED_TRACE("n=" + std::to_string(n) + " gap=" + std::to_string(gap) + " all_one=" + std::to_string(all_one));
        Postings p = make_postings(rng, n, gap, all_one, rng() % 100);
        expect_round_trip(p, true, rng);
        expect_round_trip(p, false, rng);
      }
    }
  }
}

TEST(Postings, SingletonIsTiny) {
  VectorSink post, pos;
  PostingsWriter w(post, &pos);
  std::vector<DocId> docs = {1000};
  std::vector<uint32_t> freqs = {3};
  std::vector<uint32_t> positions = {1, 5, 9};
  TermInfo info = w.write(docs, freqs, positions);
  EXPECT_EQ(post.bytes.size(), 2u);  // the doc id as a varint, nothing else
  EXPECT_EQ(pos.bytes.size(), 3u);
  PostingsCursor c({reinterpret_cast<const uint8_t*>(post.bytes.data()), post.bytes.size()},
                   {reinterpret_cast<const uint8_t*>(pos.bytes.data()), pos.bytes.size()}, info, "t");
  EXPECT_EQ(c.advance(999), 1000u);
  EXPECT_EQ(c.freq(), 3u);
  EXPECT_EQ(c.block_max_freq(), 3u);
  std::vector<uint32_t> got;
  c.positions(got);
  EXPECT_EQ(got, positions);
  EXPECT_EQ(c.next(), kNoMoreDocs);
}

// A list shorter than a block is all tail: bit-packed from format 6 on,
// varints before, both byte for byte as index/FORMAT.md gives them.
TEST(Postings, TailCodingsAsDocumented) {
  const std::vector<DocId> docs = {5, 9, 10};
  const std::vector<uint32_t> freqs = {1, 3, 1};
  VectorSink post;
  PostingsWriter w(post, nullptr);
  const TermInfo info = w.write(docs, freqs, {});
  // gaps 5, 3, 0 at width 3, then freqs - 1 = 0, 2, 0 at width 2
  const std::vector<uint8_t> packed = {3, 0b00011101, 0, 2, 0b00001000};
  EXPECT_EQ(std::vector<uint8_t>(post.bytes.begin(), post.bytes.end()), packed);
  // gap << 1 | (freq == 1), and freq - 2 after a freq above 1
  const std::vector<uint8_t> varints = {5 << 1 | 1, 3 << 1, 3 - 2, 0 << 1 | 1};
  for (const auto& [bytes, version] : {std::pair{packed, 6u}, std::pair{varints, 5u}}) {
    SCOPED_TRACE("format " + std::to_string(version));
    PostingsCursor c(bytes, {}, info, "t", version);
    std::vector<std::pair<DocId, uint32_t>> got;
    for (DocId d = c.next(); d != kNoMoreDocs; d = c.next()) got.emplace_back(d, c.freq());
    EXPECT_EQ(got, (std::vector<std::pair<DocId, uint32_t>>{{5, 1}, {9, 3}, {10, 1}}));
    EXPECT_EQ(c.max_freq(), 3u);
  }
}

TEST(Postings, DenseListIsCompact) {
  // 1000 consecutive docs with freq 1: blocks of width 0, a few bytes each.
  std::vector<DocId> docs(1000);
  for (DocId i = 0; i < 1000; ++i) docs[i] = i;
  std::vector<uint32_t> freqs(1000, 1);
  VectorSink post;
  PostingsWriter w(post, nullptr);
  w.write(docs, freqs, {});
  EXPECT_LT(post.bytes.size(), 150u);
}

// Checks the cursor against a reference at every step of a random mix of
// next() and advance() calls.
void expect_advance_matches(const Postings& p, std::mt19937& rng, bool with_positions) {
  Segment seg;
  const TermInfo info = write(seg, p, with_positions);
  PostingsCursor c(seg.post_bytes(), with_positions ? seg.pos_bytes() : std::span<const uint8_t>(), info, "test");
  const DocId last = p.docs.back();
  // The term's freq bound: above every freq, and the same whether or not
  // the cursor has read the tail (which it then takes from the tail held).
  const uint32_t max_freq = c.max_freq();
  ASSERT_GE(max_freq, *std::max_element(p.freqs.begin(), p.freqs.end()));
  if (p.docs.size() < kBlockSize) {  // all tail: its largest freq, exactly
    ASSERT_EQ(max_freq, *std::max_element(p.freqs.begin(), p.freqs.end()));
  }
  size_t i = 0;  // reference index of the current doc
  bool started = false;
  std::vector<uint32_t> got;
  for (int step = 0; step < 20000; ++step) {
    DocId got_doc;
    if (started && rng() % 4 == 0) {
      got_doc = c.next();
      ++i;
    } else {
      const DocId cur = started ? p.docs[i] : 0;
      uint64_t target;
      switch (rng() % 6) {
        case 0: target = uint64_t(cur) + 1; break;                        // next doc id
        case 1: target = uint64_t(cur) + 1 + rng() % 64; break;           // likely same block
        case 2: target = uint64_t(cur) + 1 + rng() % (64 * 1024); break;  // across blocks
        case 3: {                                                         // exactly a block border
          size_t border = (i / kBlockSize + 1 + rng() % 3) * kBlockSize;
          target = border < p.docs.size() ? p.docs[border] - (rng() % 2) : uint64_t(last) + 1;
          break;
        }
        case 4: target = uint64_t(cur) + 1 + rng() % (uint64_t(last) + 2); break;  // anywhere, maybe past the end
        default: target = uint64_t(last) + 1 + rng() % 10; break;                  // past the end
      }
      if (target >= kNoMoreDocs) target = kNoMoreDocs - 1;
      if (started && target <= cur) target = uint64_t(cur) + 1;
      got_doc = c.advance(static_cast<DocId>(target));
      i = std::lower_bound(p.docs.begin() + (started ? i : 0), p.docs.end(), static_cast<DocId>(target)) - p.docs.begin();
    }
    started = true;
    if (i >= p.docs.size()) {
      ASSERT_EQ(got_doc, kNoMoreDocs) << "step " << step;
      ASSERT_EQ(c.remaining(), 0u);
      return;
    }
    ASSERT_EQ(got_doc, p.docs[i]) << "step " << step;
    ASSERT_EQ(c.remaining(), p.docs.size() - i) << "step " << step;
    if (rng() % 8 == 0) {
      ASSERT_EQ(c.max_freq(), max_freq) << "step " << step;
    }
    if (rng() % 2) {
      ASSERT_EQ(c.freq(), p.freqs[i]);
    }
    if (with_positions && rng() % 4 == 0) {
      c.positions(got);
      ASSERT_EQ(got, positions_of(p, i));
      if (rng() % 4 == 0) {  // asking twice gives the same answer, either way
        c.positions(got);
        ASSERT_EQ(got, positions_of(p, i));
      }
      if (rng() % 2 == 0) {
        ASSERT_EQ(streamed_positions(c), positions_of(p, i));
        ASSERT_EQ(streamed_positions(c), positions_of(p, i));
      }
    } else if (with_positions && rng() % 3 == 0) {
      ASSERT_EQ(streamed_positions(c), positions_of(p, i));
    }
    // Block-max data: the exact max freq of the current block of 128.
    const size_t b0 = i / kBlockSize * kBlockSize, b1 = std::min(p.docs.size(), b0 + kBlockSize);
    ASSERT_EQ(c.block_last_doc(), p.docs[b1 - 1]);
    ASSERT_EQ(c.block_max_freq(), *std::max_element(p.freqs.begin() + b0, p.freqs.begin() + b1));
  }
}

TEST(Postings, AdvanceMatchesLinearScan) {
  std::mt19937 rng(2);
  for (size_t n : {1, 2, 127, 128, 129, 257, 1000, 10000, 100000}) {
    for (uint32_t gap : {1u, 4u, 300u}) {
      for (int rep = 0; rep < 5; ++rep) {
        SCOPED_TRACE("n=" + std::to_string(n) + " gap=" + std::to_string(gap));
        Postings p = make_postings(rng, n, gap, rep == 4, rng() % 1000);
        expect_advance_matches(p, rng, rep % 2 == 0);
        if (HasFatalFailure()) return;
      }
    }
  }
}

// align_pair() steps two lists through their common docs, from wherever
// next() and advance() left them, with freqs and positions still those of
// the doc it stops on: lists of like and unlike lengths and gaps, one
// starting far beyond the other, tails alone and many blocks.
TEST(Postings, AlignPairStepsThroughTheCommonDocs) {
  std::mt19937 rng(5);
  struct Shape {
    size_t n;
    uint32_t gap;
    DocId first;
  };
  const std::vector<std::pair<Shape, Shape>> pairs = {
      {{1000, 4, 0}, {1000, 4, 0}},     {{5000, 2, 0}, {3000, 5, 10}}, {{100, 3, 0}, {20000, 1, 0}},
      {{127, 50, 0}, {129, 40, 0}},     {{2000, 8, 9000}, {3000, 3, 0}}, {{1, 1, 500}, {700, 2, 0}},
      {{40000, 1, 0}, {40000, 1, 7}}};
  for (const auto& [sa, sb] : pairs) {
    for (int rep = 0; rep < 4; ++rep) {
      SCOPED_TRACE("n=" + std::to_string(sa.n) + "/" + std::to_string(sb.n) + " rep " + std::to_string(rep));
      const Postings pa = make_postings(rng, sa.n, sa.gap, false, sa.first);
      const Postings pb = make_postings(rng, sb.n, sb.gap, rep % 2 == 0, sb.first);
      Segment seg;
      const TermInfo ia = write(seg, pa), ib = write(seg, pb);
      PostingsCursor a(seg.post_bytes(), seg.pos_bytes(), ia, "a"), b(seg.post_bytes(), seg.pos_bytes(), ib, "b");
      std::vector<DocId> common;
      std::set_intersection(pa.docs.begin(), pa.docs.end(), pb.docs.begin(), pb.docs.end(), std::back_inserter(common));
      a.next();
      b.next();
      // Start one list partway (rep 2 and 3), as a parent's advance() does.
      if (rep >= 2 && !pb.docs.empty()) b.advance(pb.docs[pb.docs.size() / 3]);
      auto it = std::lower_bound(common.begin(), common.end(), std::max(a.doc(), b.doc()));
      std::vector<uint32_t> got;
      for (;;) {
        const DocId d = PostingsCursor::align_pair(a, b);
        if (it == common.end()) {
          ASSERT_EQ(d, kNoMoreDocs);
          break;
        }
        ASSERT_EQ(d, *it);
        ASSERT_EQ(a.doc(), d);
        ASSERT_EQ(b.doc(), d);
        const size_t i = std::lower_bound(pa.docs.begin(), pa.docs.end(), d) - pa.docs.begin();
        const size_t j = std::lower_bound(pb.docs.begin(), pb.docs.end(), d) - pb.docs.begin();
        ASSERT_EQ(a.freq(), pa.freqs[i]);
        ASSERT_EQ(b.freq(), pb.freqs[j]);
        if (rng() % 8 == 0) {
          b.positions(got);
          ASSERT_EQ(got, positions_of(pb, j));
        }
        ++it;
        // Move on as a conjunction does: the lead steps, or jumps.
        if (rng() % 4 == 0 && it != common.end()) {
          const DocId target = *it - (rng() % 2);
          a.advance(std::max(target, d + 1));
          it = std::lower_bound(it, common.end(), a.doc());
        } else {
          a.next();
        }
      }
    }
  }
}

// Impacts (block_impact.h): each block's, the tail's and the term's bound
// the length part of every doc they cover, and are tight (the largest part
// rounded up to 16 bits); a field list that kAny shares has a kAny column
// too; block_bound() names the block's last doc and never moves the cursor.
TEST(Postings, ImpactsBoundEveryDocAndAreTight) {
  std::mt19937 rng(17);
  for (size_t n : {2u, 127u, 128u, 129u, 1000u, 5000u}) {
    Postings p = make_postings(rng, n, 5, n % 2 == 0);
    std::vector<uint32_t> raw;  // title, abstract per doc
    for (DocId d = 0; d <= p.docs.back(); ++d) {
      raw.push_back(1 + rng() % 20);
      raw.push_back(rng() % 8 == 0 ? 70000 : 1 + rng() % 400);  // some saturate
    }
    const DocLengths lengths(raw);
    for (Field field : {Field::kAny, Field::kTitle, Field::kAbstract}) {
      for (bool shared : {false, true}) {
        VectorSink post;
        PostingsWriter w(post, nullptr);
        const TermInfo info = w.write(p.docs, p.freqs, {}, &lengths, field, shared);
        std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(post.bytes.data()), post.bytes.size());
        PostingsCursor c(bytes, {}, info, "test");
        const bool blocks = n >= kBlockSize;  // impacts live in the skip data
        const Field other = field == Field::kTitle ? Field::kAbstract : Field::kTitle;
        EXPECT_EQ(c.impact_column(other), -1);
        EXPECT_EQ(c.impact_column(field), blocks ? 0 : -1) << n;
        if (field != Field::kAny) {
          EXPECT_EQ(c.impact_column(Field::kAny), blocks && shared ? 1 : -1);
        }
        if (!blocks) continue;
        for (Field read_as : {field, Field::kAny}) {
          const int column = c.impact_column(read_as);
          if (column < 0) continue;
          PostingsCursor c(bytes, {}, info, "test");  // block_bound() targets must not decrease
          EXPECT_EQ(c.reference_average(column), lengths.average(read_as));
          double term_max = 0;
          for (size_t first = 0; first < n; first += kBlockSize) {
            const size_t last = std::min(n, first + kBlockSize);
            double best = 0;
            for (size_t i = first; i < last; ++i) {
              best = std::max(best, bm25_length_part(p.freqs[i], lengths.length(read_as, p.docs[i]),
                                                     c.reference_average(column)));
            }
            term_max = std::max(term_max, best);
            const PostingsCursor::Bound b = c.block_bound(p.docs[first], column);
            EXPECT_EQ(b.last, last - first == kBlockSize ? p.docs[last - 1] : kNoMoreDocs) << n << " " << first;
            EXPECT_GE(impact_value(b.impact), best);
            EXPECT_LE(impact_value(b.impact), best + 2.0 / 65535);
            // Any target inside the block names the same block.
            EXPECT_EQ(c.block_bound(p.docs[last - 1], column).impact, b.impact);
          }
          EXPECT_GE(impact_value(c.term_impact(column)), term_max);
          EXPECT_LE(impact_value(c.term_impact(column)), term_max + 2.0 / 65535);
          // Past the last full block: the tail's bound (the tail's end is not
          // in the skip data), or nothing when there is no tail.
          const uint16_t past = c.block_bound(p.docs.back() + 1, column).impact;
          const uint16_t tail = n % kBlockSize == 0 ? 0 : c.block_bound(p.docs[n - 1], column).impact;
          EXPECT_EQ(past, tail);
        }
        EXPECT_EQ(c.next(), p.docs[0]);  // block_bound() did not move the cursor
      }
    }
  }
}

// skip_blocks_within() passes exactly the blocks from target's on whose
// impact is at most the limit (the tail too, then nothing is left), as
// block_bound() reads them, and never moves the cursor.
TEST(Postings, SkipBlocksWithinPassesTheBlocksAtOrBelowTheLimit) {
  std::mt19937 rng(23);
  for (size_t n : {256u, 1000u, 5000u, 5120u}) {
    Postings p = make_postings(rng, n, 5, false);
    std::vector<uint32_t> raw;
    for (DocId d = 0; d <= p.docs.back(); ++d) {
      raw.push_back(1 + rng() % 20);
      raw.push_back(1 + rng() % 400);
    }
    const DocLengths lengths(raw);
    VectorSink post;
    PostingsWriter w(post, nullptr);
    const TermInfo info = w.write(p.docs, p.freqs, {}, &lengths, Field::kAbstract, false);
    std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(post.bytes.data()), post.bytes.size());
    // Per block (the tail last): its first and last doc and its impact.
    struct Block {
      DocId first, last;
      uint16_t impact;
    };
    std::vector<Block> blocks;
    {
      PostingsCursor c(bytes, {}, info, "test");
      for (size_t first = 0; first < n; first += kBlockSize) {
        const size_t last = std::min(n, first + kBlockSize) - 1;
        blocks.push_back({p.docs[first], p.docs[last], c.block_bound(p.docs[first], 0).impact});
      }
    }
    for (int trial = 0; trial < 200; ++trial) {
      const size_t at = rng() % blocks.size();
      const DocId target = blocks[at].first + static_cast<DocId>(rng() % (blocks[at].last - blocks[at].first + 1));
      const uint16_t limit = trial % 4 == 0 ? uint16_t(rng()) : blocks[rng() % blocks.size()].impact;
      size_t stop = at;
      while (stop < blocks.size() && blocks[stop].impact <= limit) ++stop;
      DocId expected = target;
      if (stop == blocks.size()) {
        expected = kNoMoreDocs;
      } else if (stop > at) {
        expected = blocks[stop - 1].last + 1;
      }
      PostingsCursor c(bytes, {}, info, "test");
      EXPECT_EQ(c.skip_blocks_within(target, 0, limit), expected) << n << " block " << at << " limit " << limit;
      EXPECT_EQ(c.next(), p.docs[0]);  // not moved
    }
  }
}

TEST(Postings, DocLengthsSaturateAsTheNormsDo) {
  const std::vector<uint32_t> raw = {3, 70000, 65535, 1};
  const DocLengths lengths(raw);
  EXPECT_EQ(lengths.length(Field::kTitle, 0), 3u);
  EXPECT_EQ(lengths.length(Field::kAbstract, 0), 65535u);
  EXPECT_EQ(lengths.length(Field::kAny, 0), 65538u);
  EXPECT_EQ(lengths.length(Field::kAny, 1), 65536u);
  EXPECT_FLOAT_EQ(lengths.average(Field::kTitle), 32769.0f);  // of the raw lengths, as the norms' totals
  EXPECT_FLOAT_EQ(lengths.average(Field::kAny), (3 + 70000 + 65535 + 1) / 2.0f);
}

TEST(Postings, AdvanceToSmallerTargetStays) {
  std::mt19937 rng(3);
  Postings p = make_postings(rng, 1000, 10, false);
  Segment seg;
  TermInfo info = write(seg, p);
  PostingsCursor c(seg.post_bytes(), seg.pos_bytes(), info, "t");
  c.advance(p.docs[500]);
  EXPECT_EQ(c.advance(p.docs[10]), p.docs[500]);
  EXPECT_EQ(c.advance(p.docs[500]), p.docs[500]);
  EXPECT_EQ(c.next(), p.docs[501]);
}

TEST(Postings, DocsNearTheTop) {
  std::mt19937 rng(4);
  const DocId top = kNoMoreDocs - 1;
  std::vector<std::vector<DocId>> lists;
  lists.push_back({top});
  lists.push_back({0, top});
  for (size_t n : {200, 300, 128, 256}) {
    std::vector<DocId> dense, spread;
    for (size_t i = 0; i < n; ++i) dense.push_back(static_cast<DocId>(top - (n - 1 - i)));
    for (size_t i = 0; i < n; ++i) spread.push_back(static_cast<DocId>(uint64_t(top) * i / (n - 1)));
    lists.push_back(dense);
    lists.push_back(spread);
  }
  for (const auto& docs : lists) {
    Postings p;
    p.docs = docs;
    for (size_t i = 0; i < docs.size(); ++i) {
      p.freqs.push_back(1 + i % 3);
      p.pos_start.push_back(p.positions.size());
      for (uint32_t j = 0; j < p.freqs.back(); ++j) p.positions.push_back(UINT32_MAX - 3 + j);
    }
    expect_round_trip(p, true, rng);
    expect_advance_matches(p, rng, true);
    Segment seg;
    TermInfo info = write(seg, p);
    PostingsCursor c(seg.post_bytes(), seg.pos_bytes(), info, "t");
    EXPECT_EQ(c.advance(top), top);
    EXPECT_EQ(c.next(), kNoMoreDocs);
  }
}

TEST(Postings, WriterRejectsBadInput) {
  VectorSink post, pos;
  PostingsWriter w(post, &pos);
  std::vector<uint32_t> f2 = {1, 1};
  std::vector<uint32_t> p2 = {0, 0};
  std::vector<DocId> same = {5, 5}, down = {6, 5}, no_more = {1, kNoMoreDocs};
  EXPECT_THROW(w.write(same, f2, p2), std::invalid_argument);
  EXPECT_THROW(w.write(down, f2, p2), std::invalid_argument);
  EXPECT_THROW(w.write(no_more, f2, p2), std::invalid_argument);
  std::vector<DocId> ok = {1, 2};
  std::vector<uint32_t> zero = {1, 0};
  EXPECT_THROW(w.write(ok, zero, p2), std::invalid_argument);
  std::vector<uint32_t> short_positions = {0};
  EXPECT_THROW(w.write(ok, f2, short_positions), std::invalid_argument);
}

TEST(Postings, BadTermInfoThrows) {
  std::mt19937 rng(5);
  Postings p = make_postings(rng, 500, 10, false);
  Segment seg;
  TermInfo info = write(seg, p);
  TermInfo bad = info;
  bad.postings_offset = seg.post.bytes.size() + 1;
  EXPECT_THROW(PostingsCursor(seg.post_bytes(), seg.pos_bytes(), bad, "t"), IndexError);
  bad = info;
  bad.total_freq = info.doc_freq - 1;
  EXPECT_THROW(PostingsCursor(seg.post_bytes(), seg.pos_bytes(), bad, "t"), IndexError);
  bad = info;
  bad.positions_offset = seg.pos.bytes.size() + 10;
  PostingsCursor c(seg.post_bytes(), seg.pos_bytes(), bad, "t");
  c.next();
  std::vector<uint32_t> out;
  EXPECT_THROW(c.positions(out), IndexError);
}

// Reads everything a query could read; damage must end in IndexError or in
// output that still looks valid (strictly increasing doc ids), never in a
// crash, an out-of-bounds read (ASan) or an endless loop.
void read_everything(std::span<const uint8_t> post, std::span<const uint8_t> pos, const TermInfo& info,
                     std::mt19937& rng) {
  std::optional<PostingsCursor> cursor;
  std::vector<uint32_t> out;
  try {
    cursor.emplace(post, pos, info, "damaged");
    PostingsCursor& c = *cursor;
    DocId prev = 0;
    bool first = true;
    for (uint64_t steps = 0;; ++steps) {
      ASSERT_LE(steps, uint64_t(info.doc_freq) + 1) << "more docs than doc_freq";
      DocId d = rng() % 3 == 0 ? c.advance(first ? 0 : prev + 1 + rng() % 300) : c.next();
      if (d == kNoMoreDocs) break;
      if (!first) {
        ASSERT_GT(d, prev) << "doc ids not increasing";
      }
      first = false;
      prev = d;
      c.freq();
      c.block_max_freq();
      c.block_last_doc();
      if (!pos.empty() && rng() % 2 == 0) {
        c.positions(out);
      } else if (!pos.empty()) {
        streamed_positions(c);
      }
    }
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("damaged"), std::string::npos) << e.what();
    if (!cursor) return;
    // A cursor that threw may be used again: still no crash.
    for (int i = 0; i < 3; ++i) {
      try {
        if (cursor->next() == kNoMoreDocs) break;
        cursor->freq();
        if (!pos.empty()) cursor->positions(out);
      } catch (const IndexError&) {
      }
    }
  }
}

TEST(Postings, DamagedDataNeverCrashes) {
  std::mt19937 rng(6);
  for (size_t n : {1, 5, 127, 200, 1000, 5000}) {
    for (bool all_one : {false, true}) {
      Postings p = make_postings(rng, n, n > 1000 ? 2 : 40, all_one, rng() % 5);
      Segment seg;
      const TermInfo info = write(seg, p);
      const std::string& post = seg.post.bytes;
      const std::string& pos = seg.pos.bytes;
      for (int trial = 0; trial < 300; ++trial) {
        // Exactly sized copies so that ASan catches any read past the end.
        std::vector<uint8_t> a(post.begin(), post.end()), b(pos.begin(), pos.end());
        switch (trial % 3) {
          case 0: a.resize(rng() % (a.size() + 1)); break;
          case 1: b.resize(rng() % (b.size() + 1)); break;
          default:
            for (int k = 1 + rng() % 4; k > 0; --k) {
              if (rng() % 4 == 0 && !b.empty())
                b[rng() % b.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
              else if (!a.empty())
                a[rng() % a.size()] ^= static_cast<uint8_t>(1 << (rng() % 8));
            }
        }
        TermInfo damaged = info;
        if (trial % 17 == 0) damaged.doc_freq = info.doc_freq + 1 + rng() % 1000;
        if (trial % 19 == 0) damaged.total_freq += rng() % 5;
        read_everything({a.data(), a.size()}, {b.data(), b.size()}, damaged, rng);
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(Postings, PositionsWithoutPositionStreamThrow) {
  std::mt19937 rng(7);
  Postings p = make_postings(rng, 10, 3, false);
  Segment seg;
  TermInfo info = write(seg, p, false);
  EXPECT_TRUE(seg.pos.bytes.empty());
  PostingsCursor c(seg.post_bytes(), {}, info, "t");
  c.next();
  std::vector<uint32_t> out;
  EXPECT_THROW(c.positions(out), IndexError);
}

}  // namespace
}  // namespace fts
