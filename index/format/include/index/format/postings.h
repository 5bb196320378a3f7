// Postings of one term in one segment: doc ids and term frequencies in
// blocks of 128 (Frame of Reference: doc-id deltas and freqs each bit-packed
// with the block's own bit width), a bit-packed tail for the rest, skip
// data ahead of the blocks (per block: last doc id, byte offset, max freq,
// positions offset) so advance() jumps whole blocks without decoding them,
// and positions in their own stream so boolean queries never read them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "index/format/block_impact.h"
#include "index/format/fields.h"
#include "index/format/file_format.h"

namespace fts {

inline constexpr DocId kNoMoreDocs = std::numeric_limits<DocId>::max();
inline constexpr uint32_t kBlockSize = 128;
inline constexpr uint8_t kNoImpacts = 0xFF;  // impact field of a list without impacts

// Where a term's postings live, as the term dictionary records it.
struct TermInfo {
  uint32_t doc_freq = 0;
  uint64_t total_freq = 0;        // sum of freqs (collection frequency)
  uint64_t postings_offset = 0;   // into the postings payload
  uint64_t positions_offset = 0;  // into the positions payload (if any)
  bool operator==(const TermInfo&) const = default;
};

// One column of a list's impacts (block_impact.h), beside the per-block
// impacts in its skip entries.
struct ImpactColumn {
  float reference = 0;          // the average length the impacts were computed at
  uint16_t tail = 0, term = 0;  // of the tail (0: none) and of every doc
};

class PostingsWriter {
 public:
  // positions may be null for a field stored without positions.
  PostingsWriter(Sink& postings, Sink* positions);
  // docs strictly ascending, freqs[i] >= 1; positions holds freqs[i]
  // ascending positions for each doc in turn (empty when not stored).
  // lengths (of the segment's docs) give the blocks' score bounds as the
  // list is read under field; without them the list has none.
  // shared_with_any: a field list that kAny reads too (its term occurs in
  // that field only) gets kAny impacts besides its own.
  TermInfo write(std::span<const DocId> docs, std::span<const uint32_t> freqs,
                 std::span<const uint32_t> positions, const DocLengths* lengths = nullptr,
                 Field field = Field::kAny, bool shared_with_any = false);

 private:
  struct BlockSkip {
    DocId last_doc;
    uint64_t end;           // byte offset after the block, from the first block
    uint32_t max_freq;      // minus one
    uint64_t positions_end; // positions bytes of this term up to the block's end
    uint16_t impact[2];     // block_impact.h: own field, kAny
  };
  // Impacts of a list: column 0 for its own field, column 1 for kAny.
  struct Impacts {
    uint8_t field = kNoImpacts;  // of column 0; kNoImpacts without lengths
    int columns = 0;             // 2: a kAny column too
    ImpactColumn column[2];
  };
  void write_skip_data(std::span<const BlockSkip> skips, const Impacts& impacts);
  // u8 width, then values bit-packed at that width (LSB first), to scratch_.
  void put_packed(std::span<const uint32_t> values);

  Sink& postings_;
  Sink* positions_;
  std::string scratch_;      // blocks and tail
  std::string header_;       // header and skip data
  std::string pos_scratch_;  // this term's positions
  std::vector<uint32_t> values_;
  std::vector<BlockSkip> skips_;
};

// Iterates one term's postings over mapped payloads. Never reads outside
// them: damaged data throws IndexError. Allocation-free after construction.
class PostingsCursor {
 public:
  // version: of the postings file (format 2 has no impacts, formats before
  // 6 have varint tails). The path must
  // outlive the cursor: it is kept as a view, so making a cursor allocates
  // nothing.
  PostingsCursor(std::span<const uint8_t> postings, std::span<const uint8_t> positions,
                 const TermInfo& info, std::string_view path_for_errors, uint32_t version = kFormatVersion);

  DocId doc() const { return doc_; }  // kNoMoreDocs when exhausted; before the first next(): undefined
  DocId next() {
    if (++idx_ < count_) return doc_ = docs_[idx_];
    return next_block();
  }
  // First doc >= target. Meant for target > doc(); a smaller target leaves
  // the cursor where it is. Jumps whole blocks by their skip data.
  DocId advance(DocId target) {
    if (count_ != 0 && target <= block_last_) {
      // In a conjunction of lists of like density the target is most
      // often the next doc: checked here, before a call. (The next doc
      // exists: the current one is below target <= block_last_.)
      if (docs_[idx_] < target && docs_[idx_ + 1] >= target) return doc_ = docs_[++idx_];
      return doc_ = docs_[idx_ = seek_in_block(target)];
    }
    return advance_to_block(target);
  }
  uint32_t freq() {  // of the current doc; decodes the block's freqs on first use
    if (!freqs_ready_) decode_freqs();
    return freqs_[idx_];
  }
  uint32_t cost() const { return doc_freq_; }
  // Docs from doc() on: every block before the loaded one holds
  // kBlockSize, the tail comes last. Counts the rest of a list at no cost.
  uint32_t remaining() const {
    if (doc_ == kNoMoreDocs) return 0;
    return doc_freq_ - static_cast<uint32_t>(block_) * kBlockSize - idx_;
  }
  // Copies up to max docs from doc() on (the rest of the loaded block at
  // most) into out and moves to the doc after them; 0 once exhausted. For
  // readers of whole lists (counts, id lists), at a copy per doc.
  size_t read_docs(DocId* out, size_t max) {
    if (doc_ == kNoMoreDocs || max == 0) return 0;
    return read_docs_to(max >= count_ - idx_ ? count_ : idx_ + static_cast<uint32_t>(max), out);
  }
  // read_docs() of the docs up to last: at most the rest of the loaded
  // block, none when doc() > last.
  size_t read_docs_through(DocId last, DocId* out) {
    if (doc_ == kNoMoreDocs || doc_ > last) return 0;
    return read_docs_to(last >= block_last_ ? count_ : seek_in_block(last + 1), out);
  }
  // Moves a and b to their first common doc from their docs on (both
  // positioned, neither exhausted: else kNoMoreDocs). Lists of like length
  // are merged a loaded block against a loaded block, a compare and two
  // branch-free steps per doc, where leapfrogging advance()s would take
  // a mispredicted branch about every other doc; a block that runs out is
  // left by advance(), which jumps by the skip data.
  static DocId align_pair(PostingsCursor& a, PostingsCursor& b) {
    for (;;) {
      if (a.doc_ == kNoMoreDocs || b.doc_ == kNoMoreDocs) return kNoMoreDocs;
      // A loaded block wholly below the other's doc is jumped, not walked.
      if (a.block_last_ < b.doc_) {
        a.advance(b.doc_);
        continue;
      }
      if (b.block_last_ < a.doc_) {
        b.advance(a.doc_);
        continue;
      }
      uint32_t i = a.idx_, j = b.idx_;
      const uint32_t na = a.count_, nb = b.count_;
      while (i < na && j < nb) {
        const DocId x = a.docs_[i], y = b.docs_[j];
        if (x == y) {
          a.idx_ = i, b.idx_ = j;
          return a.doc_ = b.doc_ = x;
        }
        i += x < y;
        j += y < x;
      }
      // One block ran out below the other's doc (both cannot: they step
      // together only on a common doc); the other moves to that doc.
      if (i == na) {
        b.idx_ = j, b.doc_ = b.docs_[j];
      } else {
        a.idx_ = i, a.doc_ = a.docs_[i];
      }
    }
  }
  // The docs a and b share from align_pair(a, b) on that take(d, n)
  // accepts, up to max of them, into docs, with their freqs in each list.
  // take(d, n) returns d to accept d as the n-th, another doc to pass it,
  // kNoMoreDocs to stop there. Each cursor moves to its first doc not yet
  // ruled out (past the last common doc looked at); 0 when they share no
  // more docs or take() stopped before accepting one. The merge of
  // align_pair() that goes on past each common doc instead of returning on
  // it: for ranking every match of a conjunction a batch at a time. A
  // block's freqs are decoded when it holds a doc taken.
  template <class Take>
  static size_t take_common(PostingsCursor& a, PostingsCursor& b, DocId* docs, uint32_t* freqs_a,
                            uint32_t* freqs_b, size_t max, Take&& take) {
    size_t n = 0;
    bool stop = false;
    while (!stop && n < max && align_pair(a, b) != kNoMoreDocs) {
      uint32_t i = a.idx_, j = b.idx_;  // on a common doc
      const uint32_t na = a.count_, nb = b.count_;
      for (;;) {
        const DocId d = a.docs_[i];
        const DocId verdict = take(d, n);
        if (verdict == d) {
          if (!a.freqs_ready_) a.decode_freqs();
          if (!b.freqs_ready_) b.decode_freqs();
          docs[n] = d;
          freqs_a[n] = a.freqs_[i];
          freqs_b[n++] = b.freqs_[j];
        }
        stop = verdict == kNoMoreDocs;
        ++i;
        ++j;
        if (n == max || stop) break;
        while (i < na && j < nb) {
          const DocId x = a.docs_[i], y = b.docs_[j];
          if (x == y) break;
          i += x < y;
          j += y < x;
        }
        if (i == na || j == nb) break;
      }
      // Each on its first doc after the last common one looked at (in the
      // next block where its own ran out).
      a.idx_ = i - 1;
      a.next();
      b.idx_ = j - 1;
      b.next();
    }
    return n;
  }
  // Positions of the current doc, ascending, into out (replacing what it
  // held; left unspecified when the positions are damaged).
  void positions(std::vector<uint32_t>& out);
  // The positions of the current doc read one at a time, ascending, with
  // nothing copied: a phrase merges one per offset. Valid until the
  // cursor moves; damaged positions throw IndexError as positions() does.
  class PositionStream {
   public:
    PositionStream() = default;  // holds no position
    // The next position into pos; false after the doc's last.
    bool next(uint32_t& pos) {
      if (left_ == 0) return false;
      --left_;
      if (p_ != end_ && *p_ < 0x80) {  // mostly a one-byte delta
        pos_ += *p_++;
        if (pos_ > UINT32_MAX) cursor_->positions_corrupt(p_, "bad position");
        pos = static_cast<uint32_t>(pos_);
        return true;
      }
      return next_slow(pos);
    }

   private:
    friend class PostingsCursor;
    PositionStream(const PostingsCursor* cursor, const uint8_t* p, uint32_t freq)
        : cursor_(cursor), p_(p), end_(cursor->pos_end_), left_(freq) {}
    bool next_slow(uint32_t& pos);
    const PostingsCursor* cursor_ = nullptr;
    const uint8_t* p_ = nullptr;
    const uint8_t* end_ = nullptr;
    uint32_t left_ = 0;
    uint64_t pos_ = 0;
  };
  PositionStream position_stream() {
    const uint8_t* p = locate_positions();
    return PositionStream(this, p, freqs_[idx_]);
  }

  // At least the largest freq of any doc of the term (top-k pruning): from
  // the skip header and the tail, without reading the full blocks.
  uint32_t max_freq() const;

  // The current block's last doc id and max freq, once next() or advance()
  // has been called.
  DocId block_last_doc() const { return count_ != 0 ? block_last_ : kNoMoreDocs; }
  uint32_t block_max_freq() const { return block_max_freq_; }

  // Score bounds (block_impact.h) in the impact column for a field (-1:
  // the list has none for it): the impact of every doc of the term, and of
  // the docs from target on up to a block's last doc, found from the skip
  // data without decoding or moving the cursor (targets must not decrease).
  struct Bound {
    DocId last;       // kNoMoreDocs: to the end of the list
    uint16_t impact;
    // The largest freq of a full block, exact from its skip entry; for the
    // tail, 1 when every freq is 1, else UINT32_MAX (not read).
    uint32_t max_freq;
  };
  int impact_column(Field field) const;
  float reference_average(int column) const { return column_[column].reference; }
  uint16_t term_impact(int column) const { return column_[column].term; }
  Bound block_bound(DocId target, int column);
  // From the block holding target on, past every block (and the tail)
  // whose impact in column is at most limit: the first doc id a block
  // beyond them may hold, kNoMoreDocs when none is left, target when the
  // first block is above limit. Skip data only, read in one tight loop:
  // for top-k pruning of a term with many blocks below the k-th score.
  DocId skip_blocks_within(DocId target, int column, uint16_t limit);

 private:
  DocId next_block();
  DocId advance_to_block(DocId target);
  uint32_t seek_in_block(DocId target) const;
  // Copies the loaded block's docs [idx_, stop) and moves to the next doc.
  size_t read_docs_to(uint32_t stop, DocId* out) {
    std::copy(docs_ + idx_, docs_ + stop, out);
    const size_t n = stop - idx_;
    idx_ = stop - 1;
    next();
    return n;
  }
  uint32_t find_block(uint32_t from, DocId target) const;
  void load_block(uint32_t block);  // block == num_blocks_ loads the tail
  void load_full_block(uint32_t block);
  void load_tail();
  // Decodes the tail into docs and freqs (freqs untouched when all are 1);
  // returns its max freq.
  uint32_t decode_tail(DocId* docs, uint32_t* freqs) const;
  // n values of a packed tail at p (u8 width, then the bits) into out; returns
  // the end of its bytes.
  const uint8_t* unpack_tail(const uint8_t* p, uint32_t n, uint32_t* out) const;
  void decode_freqs();
  // Where the current doc's positions start, its freq checked against the
  // bytes left; the next call skips from there.
  const uint8_t* locate_positions();
  [[noreturn]] void positions_corrupt(const uint8_t* at, const char* what) const;
  DocId exhaust();
  uint64_t skip_field(uint32_t block, uint32_t bit_offset, uint32_t width) const;
  uint64_t skip_last_doc(uint32_t block) const { return last_doc0_ + skip_field(block, 0, doc_width_); }
  uint16_t skip_impact(uint32_t block, int column) const {
    const uint32_t offset = doc_width_ + end_width_ + freq_width_ + pos_width_ + (column == 1 ? impact_width_[0] : 0);
    return static_cast<uint16_t>(skip_field(block, offset, impact_width_[column]));
  }
  // Moves bound_block_ to the block holding target (num_blocks_: the tail).
  void move_bound_block(DocId target) {
    if (bound_block_ < num_blocks_ && skip_last_doc(bound_block_) < target) bound_block_ = find_block(bound_block_, target);
  }
  uint64_t skip_end(uint32_t block) const { return skip_field(block, doc_width_, end_width_); }
  uint64_t skip_positions_end(uint32_t block) const {
    return skip_field(block, doc_width_ + end_width_ + freq_width_, pos_width_);
  }
  [[noreturn]] void corrupt(const uint8_t* at, const std::string& what) const;

  // Payloads and where this term's parts of them start.
  const uint8_t* data_ = nullptr;  // postings payload
  const uint8_t* end_ = nullptr;
  const uint8_t* skip_ = nullptr;    // bit-packed skip entries
  const uint8_t* blocks_ = nullptr;  // first block (or the tail)
  const uint8_t* pos_data_ = nullptr;  // positions payload
  const uint8_t* pos_end_ = nullptr;
  uint64_t positions_offset_ = 0;
  uint64_t total_freq_ = 0;
  std::string_view path_;  // owned by whoever made the cursor (the segment reader); for errors only

  // Skip data layout: per full block a fixed-width entry of
  // last_doc - last_doc0_, end, max_freq - 1, positions_end.
  uint32_t num_blocks_ = 0;
  uint32_t last_doc0_ = 0;
  uint8_t doc_width_ = 0, end_width_ = 0, freq_width_ = 0, pos_width_ = 0, impact_width_[2] = {0, 0};
  uint8_t impact_field_ = kNoImpacts;
  uint32_t impact_columns_ = 0;
  ImpactColumn column_[2];
  uint32_t bound_block_ = 0;  // where block_bound() last looked
  uint32_t entry_bits_ = 0;
  bool all_freqs_one_ = false;  // total_freq == doc_freq: no freqs stored
  bool ones_written_ = false;   // all_freqs_one_: freqs_ holds 128 ones
  bool packed_tail_ = true;     // format 6 on: the tail bit-packed, not varints

  // The loaded block: block_ is -1 before the first load, num_blocks_ for
  // the tail, num_blocks_ + 1 once exhausted (then count_ == 0).
  int64_t block_ = -1;
  uint32_t idx_ = 0;
  uint32_t count_ = 0;
  DocId block_last_ = 0;
  uint32_t block_max_freq_ = 0;
  // The tail's largest freq once decoded (0 before): max_freq() of a list
  // that is all tail, on an index of many small segments most of them,
  // read it from the tail the cursor holds instead of decoding it again.
  mutable uint32_t tail_max_freq_ = 0;
  bool freqs_ready_ = false;
  const uint8_t* freqs_at_ = nullptr;  // FOR freqs of the loaded full block
  const uint8_t* block_end_ = nullptr;
  // Positions: the stream position of the loaded block's doc pos_doc_
  // (nullptr: not yet located; the block's positions start at
  // positions_offset_ + pos_block_start_).
  uint64_t pos_block_start_ = 0;
  const uint8_t* pos_at_ = nullptr;
  uint32_t pos_doc_ = 0;

  DocId doc_ = kNoMoreDocs;
  uint32_t doc_freq_ = 0;
  alignas(16) DocId docs_[kBlockSize];
  alignas(16) uint32_t freqs_[kBlockSize];
};

}  // namespace fts
