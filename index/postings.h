// Postings of one term in one segment: doc ids and term frequencies in
// blocks of 128 (Frame of Reference: doc-id deltas and freqs each bit-packed
// with the block's own bit width), a varint tail block for the rest, skip
// data ahead of the blocks (per block: last doc id, byte offset, max freq,
// positions offset) so advance() jumps whole blocks without decoding them,
// and positions in their own stream so boolean queries never read them.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "index/document.h"
#include "index/file_format.h"

namespace fts {

inline constexpr DocId kNoMoreDocs = std::numeric_limits<DocId>::max();
inline constexpr uint32_t kBlockSize = 128;

// Where a term's postings live, as the term dictionary records it.
struct TermInfo {
  uint32_t doc_freq = 0;
  uint64_t total_freq = 0;        // sum of freqs (collection frequency)
  uint64_t postings_offset = 0;   // into the postings payload
  uint64_t positions_offset = 0;  // into the positions payload (if any)
  bool operator==(const TermInfo&) const = default;
};

class PostingsWriter {
 public:
  // positions may be null for a field stored without positions.
  PostingsWriter(Sink& postings, Sink* positions);
  // docs strictly ascending, freqs[i] >= 1; positions holds freqs[i]
  // ascending positions for each doc in turn (empty when not stored).
  TermInfo write(std::span<const DocId> docs, std::span<const uint32_t> freqs,
                 std::span<const uint32_t> positions);

 private:
  Sink& postings_;
  Sink* positions_;
  std::string scratch_;
};

// Iterates one term's postings over mapped payloads. Never reads outside
// them: damaged data throws IndexError. Allocation-free after construction.
class PostingsCursor {
 public:
  PostingsCursor(std::span<const uint8_t> postings, std::span<const uint8_t> positions,
                 const TermInfo& info, const std::string& path_for_errors);

  DocId doc() const { return doc_; }  // kNoMoreDocs when exhausted; before the first next(): undefined
  DocId next();
  DocId advance(DocId target);  // first doc >= target; target > doc()
  uint32_t freq();              // of the current doc
  uint32_t cost() const { return doc_freq_; }
  // Positions of the current doc, ascending, into out (cleared first).
  void positions(std::vector<uint32_t>& out);

  // Block-max data for top-k pruning: the current block's last doc id and
  // max freq.
  DocId block_last_doc() const;
  uint32_t block_max_freq() const;

 private:
  // Private state is the implementation's own (decoded block buffers,
  // skip-data pointers, positions stream position).
  DocId doc_ = kNoMoreDocs;
  uint32_t doc_freq_ = 0;
};

}  // namespace fts
