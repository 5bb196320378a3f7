// Postings format of one term (offsets relative to the payload start):
//
// doc_freq == 1:   varint doc. Its freq is TermInfo::total_freq.
// otherwise, with B = doc_freq / 128 full blocks:
//   if B > 0, the skip data:
//     varint last_doc0           last doc id of block 0
//     6 bytes                    bit widths of the entry fields (<= 32, impacts <= 16)
//     u8 impact field            0 any, 1 title, 2 abstract; 0xFF: no impacts
//     u8 any column              1: a field list kAny shares has kAny impacts too
//     per impact column (own field, then kAny if present):
//       f32 reference average    the field length the impacts were computed at
//       u16 tail impact, u16 term impact   (block_impact.h)
//     B fixed-width entries, bit-packed little-endian, each
//       last_doc - last_doc0, end, max_freq - 1, positions_end, impact, any impact
//     where end is the byte offset after the block counted from the first
//     block, and positions_end the positions bytes of this term up to the end
//     of the block. Fixed width lets advance() binary-search the entries
//     without decoding them, so opening a cursor costs O(1). Format 2 has
//     4 widths, no impact fields and no impacts in the entries.
//   B full blocks: FOR(doc - previous doc - 1) [+ FOR(freq - 1)]; the first
//     previous doc of the term is "-1", so width 0 means consecutive docs.
//   a tail of doc_freq % 128 docs: u8 width, (doc - previous doc - 1)
//     bit-packed at it [, u8 width, freq - 1 bit-packed]; before format 6
//     varints: (doc - previous doc - 1), or with freqs
//     ((doc - previous doc - 1) << 1 | freq == 1) [, freq - 2].
// Freqs are not stored at all when total_freq == doc_freq (all are 1).
//
// Positions (own stream, at TermInfo::positions_offset): per doc its freq
// positions as varint deltas (first one absolute).
#include "index/format/postings.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "util/bytes.h"
#include "index/format/for_codec.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace fts {
namespace {

constexpr uint64_t kMaxDoc = kNoMoreDocs - 1;  // kNoMoreDocs is no doc id

uint32_t width_of(uint64_t v) { return static_cast<uint32_t>(std::bit_width(v)); }

// The width bits (1 to 32) at bit offset bit of base, least significant
// first, from the 8 bytes at its first byte (width + 7 <= 39 bits); within
// the last 8 bytes before end, only the bytes that exist.
inline uint64_t bits_at(const uint8_t* base, const uint8_t* end, uint64_t bit, uint32_t width) {
  const uint8_t* at = base + bit / 8;
  uint64_t word = 0;
  if (end - at >= 8)
    std::memcpy(&word, at, 8);
  else
    std::memcpy(&word, at, static_cast<size_t>(end - at));
  return (word >> (bit % 8)) & ((uint64_t(1) << width) - 1);
}

// Appends values as fixed-width fields to a little-endian bit stream.
class BitWriter {
 public:
  explicit BitWriter(std::string& out) : out_(out) {}
  void put(uint64_t value, uint32_t width) {
    if (width == 0) return;
    acc_ |= value << fill_;  // value < 2^32, fill_ < 8 before the put
    fill_ += width;
    while (fill_ >= 8) {
      out_.push_back(static_cast<char>(acc_));
      acc_ >>= 8;
      fill_ -= 8;
    }
  }
  void flush() {
    if (fill_ > 0) out_.push_back(static_cast<char>(acc_));
    acc_ = 0;
    fill_ = 0;
  }

 private:
  std::string& out_;
  uint64_t acc_ = 0;
  uint32_t fill_ = 0;
};

// Turns 128 stored deltas (doc - previous - 1) into doc ids after prev.
// The caller has ruled out overflow.
void deltas_to_docs(uint32_t* v, uint32_t prev) {
#if defined(__SSE2__)
  const __m128i one = _mm_set1_epi32(1);
  __m128i acc = _mm_set1_epi32(static_cast<int>(prev));
  for (uint32_t i = 0; i < kBlockSize; i += 4) {
    __m128i x = _mm_add_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v + i)), one);
    x = _mm_add_epi32(x, _mm_slli_si128(x, 4));
    x = _mm_add_epi32(x, _mm_slli_si128(x, 8));
    x = _mm_add_epi32(x, acc);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(v + i), x);
    acc = _mm_shuffle_epi32(x, 0xFF);
  }
#else
  for (uint32_t i = 0; i < kBlockSize; ++i) v[i] = prev += v[i] + 1;
#endif
}

}  // namespace

// ---------------------------------------------------------------- writer

PostingsWriter::PostingsWriter(Sink& postings, Sink* positions) : postings_(postings), positions_(positions) {}

TermInfo PostingsWriter::write(std::span<const DocId> docs, std::span<const uint32_t> freqs,
                               std::span<const uint32_t> positions, const DocLengths* lengths, Field field,
                               bool shared_with_any) {
  const size_t df = docs.size();
  if (df == 0 || freqs.size() != df || df > UINT32_MAX)
    throw std::invalid_argument("PostingsWriter: need 1..2^32-1 docs and one freq per doc");
  uint64_t total_freq = 0;
  for (size_t i = 0; i < df; ++i) {
    if (docs[i] > kMaxDoc || (i > 0 && docs[i] <= docs[i - 1]))
      throw std::invalid_argument("PostingsWriter: doc ids must ascend strictly and stay below kNoMoreDocs");
    if (freqs[i] == 0) throw std::invalid_argument("PostingsWriter: freq 0");
    total_freq += freqs[i];
  }
  if (positions_ != nullptr && positions.size() != total_freq)
    throw std::invalid_argument("PostingsWriter: positions must hold freq positions per doc");
  if (lengths != nullptr && docs[df - 1] >= lengths->size())
    throw std::invalid_argument("PostingsWriter: a doc without a length");
  // Column 0 for the list's own field, column 1 for kAny when kAny shares it.
  Impacts impacts;
  impacts.field = lengths != nullptr ? static_cast<uint8_t>(field) : kNoImpacts;
  impacts.columns = lengths == nullptr ? 0 : shared_with_any && field != Field::kAny ? 2 : 1;
  const Field column_field[2] = {field, Field::kAny};
  for (int c = 0; c < impacts.columns; ++c) impacts.column[c].reference = lengths->average(column_field[c]);
  // The largest length part of docs[first, last) in each column, as impacts.
  auto impact_of = [&](size_t first, size_t last, uint16_t out[2]) {
    for (int c = 0; c < impacts.columns; ++c) {
      double best = 0;
      for (size_t i = first; i < last; ++i) {
        best = std::max(best, bm25_length_part(freqs[i], lengths->length(column_field[c], docs[i]),
                                               impacts.column[c].reference));
      }
      out[c] = impact_above(best);
    }
  };

  TermInfo info;
  info.doc_freq = static_cast<uint32_t>(df);
  info.total_freq = total_freq;
  info.postings_offset = postings_.offset();
  info.positions_offset = positions_ != nullptr ? positions_->offset() : 0;
  const bool all_one = total_freq == df;
  const bool with_positions = positions_ != nullptr;

  scratch_.clear();
  header_.clear();
  pos_scratch_.clear();
  skips_.clear();
  size_t pos_index = 0;  // into positions
  auto add_positions = [&](uint32_t freq) {
    if (!with_positions) return;
    uint32_t prev = 0;
    for (uint32_t j = 0; j < freq; ++j) {
      const uint32_t p = positions[pos_index++];
      if (j > 0 && p < prev) throw std::invalid_argument("PostingsWriter: positions must ascend");
      put_varint(pos_scratch_, p - prev);
      prev = p;
    }
  };

  if (df == 1) {
    put_varint(scratch_, docs[0]);
    add_positions(freqs[0]);
  } else {
    const size_t full = df / kBlockSize;
    uint64_t next_min = 0;  // previous doc + 1
    values_.resize(kBlockSize);
    for (size_t b = 0; b < full; ++b) {
      const size_t first = b * kBlockSize;
      uint32_t max_freq = 0;
      for (uint32_t i = 0; i < kBlockSize; ++i) {
        values_[i] = static_cast<uint32_t>(docs[first + i] - next_min);
        next_min = uint64_t(docs[first + i]) + 1;
        max_freq = std::max(max_freq, freqs[first + i]);
        add_positions(freqs[first + i]);
      }
      for_encode(values_.data(), kBlockSize, scratch_);
      if (!all_one) {
        for (uint32_t i = 0; i < kBlockSize; ++i) values_[i] = freqs[first + i] - 1;
        for_encode(values_.data(), kBlockSize, scratch_);
      }
      BlockSkip skip{docs[first + kBlockSize - 1], scratch_.size(), max_freq - 1, pos_scratch_.size(), {0, 0}};
      impact_of(first, first + kBlockSize, skip.impact);
      for (int c = 0; c < impacts.columns; ++c)
        impacts.column[c].term = std::max(impacts.column[c].term, skip.impact[c]);
      skips_.push_back(skip);
    }
    if (full * kBlockSize < df) {
      uint16_t tail[2] = {0, 0};
      impact_of(full * kBlockSize, df, tail);
      for (int c = 0; c < impacts.columns; ++c) {
        impacts.column[c].tail = tail[c];
        impacts.column[c].term = std::max(impacts.column[c].term, tail[c]);
      }
    }
    if (full * kBlockSize < df) {
      // The tail, bit-packed at the width of its largest value: doc gaps,
      // then (unless every freq is 1) freqs - 1 (index/FORMAT.md).
      values_.clear();
      for (size_t i = full * kBlockSize; i < df; ++i) {
        values_.push_back(static_cast<uint32_t>(docs[i] - next_min));
        next_min = uint64_t(docs[i]) + 1;
        add_positions(freqs[i]);
      }
      put_packed(values_);
      if (!all_one) {
        values_.clear();
        for (size_t i = full * kBlockSize; i < df; ++i) values_.push_back(freqs[i] - 1);
        put_packed(values_);
      }
    }
    if (!skips_.empty()) write_skip_data(skips_, impacts);
  }

  postings_.write(header_.data(), header_.size());
  postings_.write(scratch_.data(), scratch_.size());
  if (with_positions) positions_->write(pos_scratch_.data(), pos_scratch_.size());
  return info;
}

void PostingsWriter::put_packed(std::span<const uint32_t> values) {
  uint32_t max = 0;
  for (uint32_t v : values) max = std::max(max, v);
  const uint32_t width = width_of(max);
  scratch_.push_back(static_cast<char>(width));
  BitWriter bits(scratch_);
  for (uint32_t v : values) bits.put(v, width);
  bits.flush();
}

void PostingsWriter::write_skip_data(std::span<const BlockSkip> skips, const Impacts& impacts) {
  const DocId last0 = skips[0].last_doc;
  uint64_t max_end = 0, max_pos = 0;
  uint32_t max_freq = 0;
  uint16_t max_impact[2] = {0, 0};
  for (const auto& s : skips) {
    max_end = std::max(max_end, s.end);
    max_pos = std::max(max_pos, s.positions_end);
    max_freq = std::max(max_freq, s.max_freq);
    for (int c = 0; c < 2; ++c) max_impact[c] = std::max(max_impact[c], s.impact[c]);
  }
  if (max_end > UINT32_MAX || max_pos > UINT32_MAX)
    throw std::length_error("PostingsWriter: one term's postings or positions exceed 4 GiB");
  const uint32_t doc_w = width_of(skips.back().last_doc - last0), end_w = width_of(max_end),
                 freq_w = width_of(max_freq), pos_w = width_of(max_pos),
                 impact_w[2] = {width_of(max_impact[0]), width_of(max_impact[1])};
  put_varint(header_, last0);
  header_.push_back(static_cast<char>(doc_w));
  header_.push_back(static_cast<char>(end_w));
  header_.push_back(static_cast<char>(freq_w));
  header_.push_back(static_cast<char>(pos_w));
  header_.push_back(static_cast<char>(impact_w[0]));
  header_.push_back(static_cast<char>(impact_w[1]));
  header_.push_back(static_cast<char>(impacts.field));
  header_.push_back(static_cast<char>(impacts.columns == 2));
  for (int c = 0; c < impacts.columns; ++c) {
    uint32_t reference;
    std::memcpy(&reference, &impacts.column[c].reference, 4);
    put_u32(header_, reference);
    put_u16(header_, impacts.column[c].tail);
    put_u16(header_, impacts.column[c].term);
  }
  BitWriter bits(header_);
  for (const auto& s : skips) {
    bits.put(s.last_doc - last0, doc_w);
    bits.put(s.end, end_w);
    bits.put(s.max_freq, freq_w);
    bits.put(s.positions_end, pos_w);
    bits.put(s.impact[0], impact_w[0]);
    bits.put(s.impact[1], impact_w[1]);
  }
  bits.flush();
}

// ---------------------------------------------------------------- cursor

PostingsCursor::PostingsCursor(std::span<const uint8_t> postings, std::span<const uint8_t> positions,
                               const TermInfo& info, std::string_view path_for_errors, uint32_t version)
    : data_(postings.data()),
      end_(postings.data() + postings.size()),
      pos_data_(positions.data()),
      pos_end_(positions.data() + positions.size()),
      positions_offset_(info.positions_offset),
      total_freq_(info.total_freq),
      path_(path_for_errors),
      doc_freq_(info.doc_freq) {
  if (info.postings_offset > postings.size()) corrupt(end_, "postings offset beyond the end of the postings");
  if (info.total_freq < info.doc_freq) corrupt(data_ + info.postings_offset, "total freq below doc freq");
  if (info.doc_freq == 1 && info.total_freq > UINT32_MAX)
    corrupt(data_ + info.postings_offset, "freq of a single doc above 2^32");
  all_freqs_one_ = info.total_freq == info.doc_freq;
  packed_tail_ = version >= 6;
  num_blocks_ = info.doc_freq == 1 ? 0 : info.doc_freq / kBlockSize;
  const uint8_t* p = data_ + info.postings_offset;
  if (num_blocks_ > 0) {
    ByteReader in(p, end_);
    std::string_view widths;
    const size_t fields = version >= 3 ? 6 : 4;
    if (!in.get_varint32(last_doc0_) || !in.get_bytes(fields, widths)) corrupt(p, "truncated skip header");
    doc_width_ = static_cast<uint8_t>(widths[0]);
    end_width_ = static_cast<uint8_t>(widths[1]);
    freq_width_ = static_cast<uint8_t>(widths[2]);
    pos_width_ = static_cast<uint8_t>(widths[3]);
    if (fields == 6) {
      impact_width_[0] = static_cast<uint8_t>(widths[4]);
      impact_width_[1] = static_cast<uint8_t>(widths[5]);
    }
    if (doc_width_ > 32 || end_width_ > 32 || freq_width_ > 32 || pos_width_ > 32 || impact_width_[0] > 16 ||
        impact_width_[1] > 16)
      corrupt(in.pos() - fields, "skip field width above 32 (impacts: 16)");
    if (version >= 3) {
      std::string_view field;
      if (!in.get_bytes(2, field)) corrupt(p, "truncated skip header");
      impact_field_ = static_cast<uint8_t>(field[0]);
      impact_columns_ = impact_field_ == kNoImpacts ? 0 : field[1] == 1 ? 2 : 1;
      if ((impact_field_ != kNoImpacts && impact_field_ > 2) || uint8_t(field[1]) > 1)
        corrupt(p, "bad impact field in skip header");
      for (uint32_t c = 0; c < impact_columns_; ++c) {
        uint32_t reference;
        if (!in.get_u32(reference) || !in.get_u16(column_[c].tail) || !in.get_u16(column_[c].term))
          corrupt(p, "truncated skip header");
        std::memcpy(&column_[c].reference, &reference, 4);
        if (!(column_[c].reference > 0) || !std::isfinite(column_[c].reference))
          corrupt(p, "bad reference length in skip header");
      }
    }
    entry_bits_ = uint32_t(doc_width_) + end_width_ + freq_width_ + pos_width_ + impact_width_[0] + impact_width_[1];
    const uint64_t skip_bytes = (uint64_t(num_blocks_) * entry_bits_ + 7) / 8;
    skip_ = in.pos();
    if (!in.skip(skip_bytes)) corrupt(skip_, "skip data runs past the end");
    p = in.pos();
  }
  blocks_ = p;
}

void PostingsCursor::corrupt(const uint8_t* at, const std::string& what) const {
  throw_corrupt(std::string(path_), static_cast<uint64_t>(at - data_), what);
}

uint64_t PostingsCursor::skip_field(uint32_t block, uint32_t bit_offset, uint32_t width) const {
  if (width == 0) return 0;
  // The skip data was checked to lie inside the payload.
  return bits_at(skip_, end_, uint64_t(block) * entry_bits_ + bit_offset, width);
}

DocId PostingsCursor::exhaust() {
  block_ = int64_t(num_blocks_) + 1;
  count_ = 0;
  idx_ = 0;
  return doc_ = kNoMoreDocs;
}

DocId PostingsCursor::next_block() {
  if (block_ >= int64_t(num_blocks_)) return exhaust();
  load_block(static_cast<uint32_t>(block_ + 1));
  if (count_ == 0) return exhaust();
  idx_ = 0;
  return doc_ = docs_[0];
}

uint32_t PostingsCursor::seek_in_block(DocId target) const {
  // Targets are often close: look at a few docs, then binary-search with a
  // conditional move per step instead of a branch, which mispredicted at
  // every step on far targets. (An SSE scan of the 8 docs made a rare term
  // beside a common one 60% slower: its loads follow the block's decode.)
  uint32_t i = idx_;
  for (uint32_t stop = std::min(count_, i + 8); i < stop; ++i)
    if (docs_[i] >= target) return i;
  if (i >= count_) return count_;
  const DocId* base = docs_ + i;
  for (uint32_t n = count_ - i; n > 1;) {
    const uint32_t half = n / 2;
    base = base[half] < target ? base + half : base;
    n -= half;
  }
  return static_cast<uint32_t>(base - docs_) + (*base < target);
}

uint32_t PostingsCursor::find_block(uint32_t from, DocId target) const {
  // Gallop forward, then binary search: O(log distance) skip entries read.
  uint32_t lo = from, step = 1, hi = from;
  while (hi < num_blocks_ && skip_last_doc(hi) < target) {
    lo = hi + 1;
    hi = hi + step;
    step *= 2;
  }
  hi = std::min(hi, num_blocks_);
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (skip_last_doc(mid) < target)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

DocId PostingsCursor::advance_to_block(DocId target) {
  if (block_ >= int64_t(num_blocks_)) return exhaust();  // tail done or exhausted
  const uint32_t from = static_cast<uint32_t>(block_ + 1);
  load_block(from < num_blocks_ ? find_block(from, target) : from);
  if (count_ == 0) return exhaust();
  idx_ = 0;
  idx_ = seek_in_block(target);
  if (idx_ == count_) return exhaust();
  return doc_ = docs_[idx_];
}

void PostingsCursor::load_block(uint32_t block) {
  const bool started = block_ >= 0;
  const DocId prev = doc_;
  exhaust();  // until the block has loaded: a throw leaves an exhausted cursor, not a half-loaded one
  if (block < num_blocks_)
    load_full_block(block);
  else
    load_tail();
  block_ = block;
  pos_at_ = nullptr;
  // Skip entries are trusted only as far as the data agrees with them; a
  // block that starts at or before the current doc means damage, and would
  // send callers backwards (or round in circles).
  if (started && count_ != 0 && docs_[0] <= prev) corrupt(blocks_, "doc ids not increasing across blocks");
}

void PostingsCursor::load_full_block(uint32_t block) {
  const uint64_t start = block == 0 ? 0 : skip_end(block - 1);
  const uint64_t end = skip_end(block);
  if (start > end || end > static_cast<uint64_t>(end_ - blocks_)) corrupt(blocks_ + std::min<uint64_t>(start, end_ - blocks_), "block runs past the end of the postings");
  const uint8_t* p = blocks_ + start;
  const uint8_t* block_end = blocks_ + end;
  const uint64_t prev = block == 0 ? uint64_t(-1) : skip_last_doc(block - 1);
  const uint64_t last = skip_last_doc(block);
  if (last > kMaxDoc || (block > 0 && prev >= last)) corrupt(p, "skip data: block last doc ids not increasing");
  if (p == block_end) corrupt(p, "empty block");
  const uint32_t width = *p;
  const uint8_t* freqs = for_decode(p, block_end, kBlockSize, docs_);
  if (freqs == nullptr) corrupt(p, "bad or truncated doc block");
  // Each doc adds at most 2^width to the previous one: if even that cannot
  // overflow, the fast 32-bit prefix sum is exact.
  const uint64_t next_min = prev + 1;  // 0 for the first block
  if (next_min + (uint64_t(kBlockSize) << width) - 1 <= kMaxDoc) {
    deltas_to_docs(docs_, static_cast<uint32_t>(prev));
  } else {
    uint64_t d = next_min;
    for (uint32_t i = 0; i < kBlockSize; ++i) {
      d += docs_[i];
      if (d > kMaxDoc) corrupt(p, "doc id overflow");
      docs_[i] = static_cast<DocId>(d++);
    }
  }
  if (docs_[kBlockSize - 1] != last) corrupt(p, "block disagrees with its skip entry");
  count_ = kBlockSize;
  block_last_ = static_cast<DocId>(last);
  freqs_at_ = freqs;
  block_end_ = block_end;
  freqs_ready_ = all_freqs_one_;
  if (all_freqs_one_) {
    // Written on the first full block rather than with the cursor: on an
    // index of many segments most cursors read only a tail.
    if (!ones_written_) std::fill(std::begin(freqs_), std::end(freqs_), 1u);
    ones_written_ = true;
    block_max_freq_ = 1;
  } else {
    const uint64_t m = skip_field(block, doc_width_ + end_width_, freq_width_) + 1;
    block_max_freq_ = static_cast<uint32_t>(std::min<uint64_t>(m, UINT32_MAX));
  }
  pos_block_start_ = block == 0 ? 0 : skip_positions_end(block - 1);
}

void PostingsCursor::load_tail() {
  const uint32_t n = doc_freq_ - num_blocks_ * kBlockSize;
  count_ = 0;
  if (n == 0) return;
  pos_block_start_ = num_blocks_ > 0 ? skip_positions_end(num_blocks_ - 1) : 0;
  block_max_freq_ = tail_max_freq_ = decode_tail(docs_, freqs_);
  count_ = n;
  block_last_ = docs_[n - 1];
  freqs_ready_ = true;
}

uint32_t PostingsCursor::decode_tail(DocId* docs, uint32_t* freqs) const {
  const uint32_t n = doc_freq_ - num_blocks_ * kBlockSize;
  uint64_t start = 0;
  uint64_t next_min = 0;  // previous doc + 1
  if (num_blocks_ > 0) {
    start = skip_end(num_blocks_ - 1);
    next_min = skip_last_doc(num_blocks_ - 1) + 1;
  }
  if (start > static_cast<uint64_t>(end_ - blocks_)) corrupt(end_, "tail starts past the end of the postings");
  const uint8_t* p = blocks_ + start;
  if (doc_freq_ == 1) {
    uint64_t delta;
    if (!read_varint(p, end_, delta)) corrupt(p, "truncated tail block");
    if (delta > kMaxDoc || next_min + delta > kMaxDoc) corrupt(p, "doc id overflow");
    docs[0] = static_cast<DocId>(next_min + delta);
    freqs[0] = static_cast<uint32_t>(total_freq_);
    return freqs[0];
  }
  // A tail is decoded wherever a cursor reaches it: once per term and
  // segment, so on an index of many segments it is most of a cheap query's
  // decoding. The doc ids are checked once at the end: the deltas are
  // below 2^32, so their sum cannot wrap, and the last doc is the largest.
  const uint8_t* const tail_start = p;
  uint64_t next = next_min, too_big = 0;
  uint32_t max_freq = 1;
  if (packed_tail_) {
    p = unpack_tail(p, n, docs);
    for (uint32_t i = 0; i < n; ++i) {
      next += docs[i];
      docs[i] = static_cast<DocId>(next++);
    }
    if (!all_freqs_one_) {
      unpack_tail(p, n, freqs);
      for (uint32_t i = 0; i < n; ++i) {
        if (freqs[i] == UINT32_MAX) corrupt(tail_start, "bad freq in tail block");
        max_freq = std::max(max_freq, ++freqs[i]);
      }
    }
  } else if (all_freqs_one_) {
    for (uint32_t i = 0; i < n; ++i) {
      uint64_t delta;
      if (!read_varint(p, end_, delta)) corrupt(p, "truncated tail block");
      too_big |= delta >> 32;
      next += delta;
      docs[i] = static_cast<DocId>(next++);
    }
  } else {
    for (uint32_t i = 0; i < n; ++i) {
      const uint8_t* at = p;
      uint64_t v;
      if (!read_varint(p, end_, v)) corrupt(at, "truncated tail block");
      uint32_t f = 1;
      if (!(v & 1)) {
        uint64_t coded;
        if (!read_varint(p, end_, coded) || coded > UINT32_MAX - 2) corrupt(at, "bad freq in tail block");
        f = static_cast<uint32_t>(coded) + 2;
      }
      freqs[i] = f;
      max_freq = std::max(max_freq, f);
      too_big |= v >> 33;
      next += v >> 1;
      docs[i] = static_cast<DocId>(next++);
    }
  }
  if (too_big != 0 || next - 1 > kMaxDoc) corrupt(tail_start, "doc id overflow");
  if (all_freqs_one_) std::fill(freqs, freqs + n, 1u);
  return max_freq;
}

const uint8_t* PostingsCursor::unpack_tail(const uint8_t* p, uint32_t n, uint32_t* out) const {
  if (p == end_) corrupt(p, "truncated tail block");
  const uint32_t width = *p++;
  const uint64_t bytes = (uint64_t(n) * width + 7) / 8;
  if (width > 32 || bytes > static_cast<uint64_t>(end_ - p)) corrupt(p - 1, "bad or truncated tail block");
  if (width == 0) {
    std::fill(out, out + n, 0u);
    return p;
  }
  for (uint32_t i = 0; i < n; ++i) out[i] = static_cast<uint32_t>(bits_at(p, end_, uint64_t(i) * width, width));
  return p + bytes;
}

int PostingsCursor::impact_column(Field field) const {
  if (impact_columns_ > 0 && impact_field_ == uint8_t(field)) return 0;
  if (impact_columns_ > 1 && field == Field::kAny) return 1;
  return -1;
}

PostingsCursor::Bound PostingsCursor::block_bound(DocId target, int column) {
  // Impacts are bounds only: damaged ones can cost ranking quality but
  // never a read outside the skip data (the block index stays in range).
  move_bound_block(target);
  if (bound_block_ >= num_blocks_) return {kNoMoreDocs, column_[column].tail, all_freqs_one_ ? 1u : UINT32_MAX};
  const uint64_t max_freq = all_freqs_one_ ? 1 : skip_field(bound_block_, doc_width_ + end_width_, freq_width_) + 1;
  return {static_cast<DocId>(std::min<uint64_t>(skip_last_doc(bound_block_), kMaxDoc)),
          skip_impact(bound_block_, column),
          static_cast<uint32_t>(std::min<uint64_t>(max_freq, UINT32_MAX))};
}

DocId PostingsCursor::skip_blocks_within(DocId target, int column, uint16_t limit) {
  move_bound_block(target);
  uint32_t b = bound_block_;
  while (b < num_blocks_ && skip_impact(b, column) <= limit) ++b;
  if (b == num_blocks_ && column_[column].tail <= limit) {
    bound_block_ = b;
    return kNoMoreDocs;  // the tail (or no tail) is within the limit too
  }
  if (b == bound_block_) return target;
  bound_block_ = b;
  return static_cast<DocId>(std::min<uint64_t>(skip_last_doc(b - 1) + 1, kNoMoreDocs));
}

uint32_t PostingsCursor::max_freq() const {
  if (all_freqs_one_) return 1;
  if (doc_freq_ == 1) return static_cast<uint32_t>(total_freq_);  // checked <= 2^32 - 1 at construction
  // Every full block's max freq - 1 fits the skip entries' freq width: a
  // bound at most twice the true one (BM25 saturates in freq), read in O(1).
  uint64_t m = num_blocks_ > 0 ? uint64_t(1) << freq_width_ : 1;
  if (doc_freq_ % kBlockSize != 0) {
    if (tail_max_freq_ == 0) {
      DocId docs[kBlockSize];
      uint32_t freqs[kBlockSize];
      tail_max_freq_ = decode_tail(docs, freqs);
    }
    m = std::max<uint64_t>(m, tail_max_freq_);
  }
  return static_cast<uint32_t>(std::min<uint64_t>(m, UINT32_MAX));
}

void PostingsCursor::decode_freqs() {
  if (count_ == 0) corrupt(blocks_, "freq() without a current doc");
  if (for_decode(freqs_at_, block_end_, kBlockSize, freqs_) == nullptr) corrupt(freqs_at_, "bad or truncated freq block");
  for (uint32_t i = 0; i < kBlockSize; ++i) freqs_[i] += 1;
  freqs_ready_ = true;
}

void PostingsCursor::positions_corrupt(const uint8_t* at, const char* what) const {
  throw_corrupt(std::string(path_) + " (positions)", static_cast<uint64_t>(at - pos_data_), what);
}

const uint8_t* PostingsCursor::locate_positions() {
  if (count_ == 0) corrupt(blocks_, "positions() without a current doc");
  if (pos_data_ == pos_end_) corrupt(blocks_, "positions requested from a field without positions");
  if (!freqs_ready_) decode_freqs();
  if (pos_at_ == nullptr || pos_doc_ > idx_) {
    const uint64_t size = static_cast<uint64_t>(pos_end_ - pos_data_);
    if (positions_offset_ > size || pos_block_start_ > size - positions_offset_)
      positions_corrupt(pos_end_, "positions offset beyond the end");
    pos_at_ = pos_data_ + positions_offset_ + pos_block_start_;
    pos_doc_ = 0;
  }
  // Skip the positions of the earlier docs of this block: count varint ends.
  // (A 32-bit sum: wrapped only by damaged freqs, which may misplace the
  // positions read but never a read past the end.)
  uint32_t skip = 0;
  for (uint32_t i = pos_doc_; i < idx_; ++i) skip += freqs_[i];
  const uint8_t* p = pos_at_;
  while (skip > 0 && pos_end_ - p >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    // The last byte of each varint has its high bit clear. They are
    // counted by a multiply (std::popcount is a library call on the
    // baseline x86-64 this is built for); the skip-th is found by clearing
    // the ones before it and taking the lowest left.
    uint64_t ends = ~w & 0x8080808080808080ull;
    const uint64_t count = ((ends >> 7) * 0x0101010101010101ull) >> 56;
    if (count >= skip) {
      while (--skip > 0) ends &= ends - 1;
      p += std::countr_zero(ends) / 8 + 1;
      break;
    }
    skip -= static_cast<uint32_t>(count);
    p += 8;
  }
  for (; skip > 0; ++p) {
    if (p == pos_end_) positions_corrupt(p, "positions run past the end");
    skip -= !(*p & 0x80);
  }
  if (freqs_[idx_] > static_cast<uint64_t>(pos_end_ - p)) positions_corrupt(p, "positions run past the end");
  // The next call starts here (the doc's own positions are skipped again
  // if it is a later doc; positions() moves past them as it reads them).
  pos_at_ = p;
  pos_doc_ = idx_;
  return p;
}

void PostingsCursor::positions(std::vector<uint32_t>& out) {
  PositionStream stream = position_stream();
  // Resized from the last doc's size, not from empty: only what it grows
  // by is zeroed (the merge reads positions once per doc).
  out.resize(stream.left_);
  for (uint32_t& pos : out) stream.next(pos);
  // The next doc's positions start where this doc's end.
  pos_at_ = stream.p_;
  pos_doc_ = idx_ + 1;
}

bool PostingsCursor::PositionStream::next_slow(uint32_t& pos) {
  if (p_ == end_) cursor_->positions_corrupt(p_, "positions run past the end");
  uint64_t delta;
  ByteReader in(p_, end_);
  if (!in.get_varint(delta) || delta > UINT32_MAX) cursor_->positions_corrupt(p_, "bad position");
  p_ = in.pos();
  if ((pos_ += delta) > UINT32_MAX) cursor_->positions_corrupt(p_, "bad position");
  pos = static_cast<uint32_t>(pos_);
  return true;
}

}  // namespace fts
