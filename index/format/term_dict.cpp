// Term dictionary codec.
//
// Payload:
//   blocks      kTermsPerBlock entries each (the last block may hold fewer).
//               Entry 0 stores only its TermInfo (its key is in the block
//               index); entry i > 0 stores varint shared-prefix length with
//               the previous key, varint suffix length, the suffix bytes and
//               the TermInfo.
//   TermInfo    varint (doc_freq << 2 | total kind), then by kind: 0 no
//               more (total_freq == doc_freq: every freq is 1, the case of
//               most terms), 1 varint total_freq - doc_freq - 1, 2 varint
//               total_freq (only a TermInfo with total_freq < doc_freq needs
//               it); then zigzag varint deltas of postings_offset and
//               positions_offset from the previous entry of the block (from 0
//               for entry 0).
//   first keys  concatenated first keys of all blocks
//   u32 × (blocks + 1)  start of each first key in the first-key region
//   u64 × (blocks + 1)  start of each block (the last = end of the blocks)
//   u64 × blocks        (format 4) each block's first key's first 8 bytes,
//               zero-padded, big-endian, as a number (key_prefix())
//   tail        u64 term count, u64 block count, u64 first-key region start,
//               u64 u32-array start, u32 terms per block, u32 magic "TDIX"
//
// Opening reads only the tail: at 6,000,000 docs the block index is 133,000
// blocks, and reading it whole (and, before format 4, making the prefixes
// from the first keys) took longer than the rest of a cold query. Lookups
// binary search the prefixes, then the first keys, in place, check the
// offsets they read, and scan one block; check() verifies the whole index.
#include "index/format/term_dict.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>

#include "util/bytes.h"

namespace fts {
namespace {

// A lookup decodes half a block on average: 16 halves the cost of the 32
// used before (on 20 segments, field.txt's lookups took 6.8 M instructions
// instead of 11.8 M), for 0.6% more index and twice the block index that
// opening turns into key prefixes.
constexpr uint32_t kTermsPerBlock = 16;
constexpr uint32_t kTailMagic = 0x58494454;  // "TDIX"
constexpr size_t kTailSize = 4 * 8 + 4 + 4;

uint64_t zigzag(uint64_t delta) {
  auto v = static_cast<int64_t>(delta);
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
uint64_t unzigzag(uint64_t u) { return (u >> 1) ^ (~(u & 1) + 1); }


// The first 8 bytes of key, zero-padded, as a number that orders as the
// bytes do: comparing two prefixes is comparing the keys, unless equal.
uint64_t key_prefix(std::string_view key) {
  uint64_t p = 0;
  if (key.size() >= 8) {
    std::memcpy(&p, key.data(), 8);
  } else if (!key.empty()) {  // data() may be null
    std::memcpy(&p, key.data(), key.size());
  }
  if constexpr (std::endian::native == std::endian::little) p = __builtin_bswap64(p);  // first byte on top
  return p;
}

size_t common_prefix(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size()), i = 0;
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

void put_info(std::string& out, const TermInfo& info, const TermInfo& prev) {
  const uint64_t df = info.doc_freq;
  if (info.total_freq == df) {
    put_varint(out, df << 2);
  } else if (info.total_freq > df) {
    put_varint(out, df << 2 | 1);
    put_varint(out, info.total_freq - df - 1);
  } else {
    put_varint(out, df << 2 | 2);
    put_varint(out, info.total_freq);
  }
  put_varint(out, zigzag(info.postings_offset - prev.postings_offset));
  put_varint(out, zigzag(info.positions_offset - prev.positions_offset));
}

// Decodes one TermInfo at p over the previous entry's (in place); false
// when the bytes are bad. A lookup decodes up to a block's 32 of these.
inline bool get_info(const uint8_t*& p, const uint8_t* end, TermInfo& info) {
  uint64_t df, total = 0, post, pos;
  if (!read_varint(p, end, df) || (df >> 2) > UINT32_MAX) return false;
  const uint64_t kind = df & 3;
  if (kind == 3 || (kind != 0 && !read_varint(p, end, total))) return false;
  if (!read_varint(p, end, post) || !read_varint(p, end, pos)) return false;
  info.doc_freq = static_cast<uint32_t>(df >> 2);
  info.total_freq = kind == 0 ? info.doc_freq : kind == 1 ? info.doc_freq + total + 1 : total;
  info.postings_offset += unzigzag(post);
  info.positions_offset += unzigzag(pos);
  return true;
}

// Reads an entry's key delta: shared length and suffix. The shared length
// must not exceed the previous key's length.
inline bool get_key_delta(const uint8_t*& p, const uint8_t* end, size_t prev_len, uint64_t& shared,
                          std::string_view& suffix) {
  uint64_t suffix_len;
  if (!read_varint(p, end, shared) || shared > prev_len) return false;
  if (!read_varint(p, end, suffix_len) || suffix_len > static_cast<uint64_t>(end - p)) return false;
  suffix = std::string_view(reinterpret_cast<const char*>(p), suffix_len);
  p += suffix_len;
  return true;
}

}  // namespace

// ---- writer ----------------------------------------------------------------

TermDictWriter::TermDictWriter(Sink& out) : out_(out) {}

void TermDictWriter::add(std::string_view key, const TermInfo& info) {
  if (finished_) throw std::logic_error("TermDictWriter::add after finish");
  if (count_ > 0 && !(std::string_view(prev_key_) < key)) {
    throw std::logic_error("TermDictWriter::add: keys must be strictly increasing");
  }
  if (in_block_ == 0) {
    block_starts_.push_back(written_);
    if (first_keys_.size() + key.size() > UINT32_MAX) throw std::length_error("term dictionary: first keys exceed 4 GiB");
    first_key_starts_.push_back(static_cast<uint32_t>(first_keys_.size()));
    first_keys_.append(key);
    put_info(block_, info, TermInfo{});
  } else {
    size_t shared = common_prefix(prev_key_, key);
    put_varint(block_, shared);
    put_varint(block_, key.size() - shared);
    block_.append(key.substr(shared));
    put_info(block_, info, prev_info_);
  }
  prev_key_.assign(key);
  prev_info_ = info;
  ++count_;
  if (++in_block_ == kTermsPerBlock) flush_block();
}

void TermDictWriter::flush_block() {
  out_.write(block_.data(), block_.size());
  written_ += block_.size();
  block_.clear();
  in_block_ = 0;
}

void TermDictWriter::finish() {
  if (finished_) throw std::logic_error("TermDictWriter::finish called twice");
  finished_ = true;
  if (in_block_ > 0) flush_block();
  uint64_t keys_start = written_;
  out_.write(first_keys_.data(), first_keys_.size());
  uint64_t index_start = keys_start + first_keys_.size();
  std::string index;
  index.reserve((block_starts_.size() + 1) * 12 + kTailSize);
  for (uint32_t s : first_key_starts_) put_u32(index, s);
  put_u32(index, static_cast<uint32_t>(first_keys_.size()));
  for (uint64_t s : block_starts_) put_u64(index, s);
  put_u64(index, keys_start);
  for (uint32_t i = 0; i < first_key_starts_.size(); ++i) {
    const uint32_t end = i + 1 < first_key_starts_.size() ? first_key_starts_[i + 1] : static_cast<uint32_t>(first_keys_.size());
    put_u64(index, key_prefix(std::string_view(first_keys_).substr(first_key_starts_[i], end - first_key_starts_[i])));
  }
  put_u64(index, count_);
  put_u64(index, block_starts_.size());
  put_u64(index, keys_start);
  put_u64(index, index_start);
  put_u32(index, kTermsPerBlock);
  put_u32(index, kTailMagic);
  out_.write(index.data(), index.size());
}

// ---- reader ----------------------------------------------------------------

TermDictReader::TermDictReader(std::span<const uint8_t> payload, std::string path_for_errors, uint32_t version)
    : payload_(payload), path_(std::move(path_for_errors)) {
  const uint8_t* base = payload.data();
  const uint64_t size = payload.size();
  if (size < kTailSize) throw_corrupt(path_, 0, "term dictionary shorter than its tail (" + std::to_string(size) + " bytes)");
  const uint64_t tail_at = size - kTailSize;
  ByteReader tail(base + tail_at, base + size);
  uint64_t index_start = 0;
  uint32_t magic = 0;
  tail.get_u64(count_);
  tail.get_u64(n_blocks_);
  tail.get_u64(keys_start_);
  tail.get_u64(index_start);
  tail.get_u32(per_block_);
  tail.get_u32(magic);
  if (magic != kTailMagic) throw_corrupt(path_, size - 4, "bad term dictionary tail magic");
  if (per_block_ == 0 || per_block_ > (1u << 16)) throw_corrupt(path_, tail_at + 32, "bad terms-per-block count");
  if (n_blocks_ != (count_ + per_block_ - 1) / per_block_ || n_blocks_ > size) {
    throw_corrupt(path_, tail_at, "term count and block count disagree");
  }
  const bool stored_prefixes = version >= 4;
  if (keys_start_ > index_start || index_start > tail_at ||
      tail_at - index_start != (n_blocks_ + 1) * 12 + (stored_prefixes ? n_blocks_ * 8 : 0)) {
    throw_corrupt(path_, tail_at, "bad block index bounds");
  }
  keys_len_ = index_start - keys_start_;
  first_keys_ = base + keys_start_;
  first_key_starts_ = base + index_start;
  block_starts_ = first_key_starts_ + (n_blocks_ + 1) * 4;
  if (stored_prefixes) {
    prefixes_ = block_starts_ + (n_blocks_ + 1) * 8;
  } else {
    computed_prefixes_.reserve(n_blocks_);
    for (uint64_t i = 0; i < n_blocks_; ++i) computed_prefixes_.push_back(key_prefix(first_key(i)));
    prefixes_ = reinterpret_cast<const uint8_t*>(computed_prefixes_.data());
  }
}

void TermDictReader::check() const {
  for (uint64_t i = 0; i <= n_blocks_; ++i) {
    const uint32_t k = load_u32(first_key_starts_ + i * 4);
    const uint64_t b = load_u64(block_starts_ + i * 8);
    const bool first = i == 0, last = i == n_blocks_;
    if ((first && k != 0) || (last && k != keys_len_) || (!first && k < load_u32(first_key_starts_ + (i - 1) * 4)) ||
        k > keys_len_) {
      corrupt(first_key_starts_ + i * 4, "bad first-key offset");
    }
    if ((first && b != 0) || (last && b != keys_start_) || (!first && b <= load_u64(block_starts_ + (i - 1) * 8))) {
      corrupt(block_starts_ + i * 8, "bad block offset");
    }
    if (!last && prefix(i) != key_prefix(first_key(i))) corrupt(prefixes_ + i * 8, "a block's key prefix disagrees with its first key");
  }
}

void TermDictReader::corrupt(const uint8_t* at, const std::string& what) const {
  // An offset into the payload, or 0 for the prefixes computed at open
  // (compared as integers: at may point into another object).
  const auto where = reinterpret_cast<uintptr_t>(at), start = reinterpret_cast<uintptr_t>(payload_.data());
  const bool in_payload = where >= start && where - start < payload_.size();
  throw_corrupt(path_, in_payload ? uint64_t{where - start} : 0, "term dictionary: " + what);
}

std::string_view TermDictReader::first_key(uint64_t block) const {
  const uint32_t start = load_u32(first_key_starts_ + block * 4);
  const uint32_t end = load_u32(first_key_starts_ + (block + 1) * 4);
  if (start > end || end > keys_len_) corrupt(first_key_starts_ + block * 4, "bad first-key offset");
  return {reinterpret_cast<const char*>(first_keys_) + start, end - start};
}

void TermDictReader::block_bytes(uint64_t block, const uint8_t** begin, const uint8_t** end) const {
  const uint64_t from = load_u64(block_starts_ + block * 8), to = load_u64(block_starts_ + (block + 1) * 8);
  if (from >= to || to > keys_start_) corrupt(block_starts_ + block * 8, "bad block offset");
  *begin = payload_.data() + from;
  *end = payload_.data() + to;
}

uint32_t TermDictReader::entries_in(uint64_t block) const {
  return block + 1 < n_blocks_ ? per_block_ : static_cast<uint32_t>(count_ - block * per_block_);
}

uint64_t TermDictReader::block_for(std::string_view key) const {
  // First block whose first key > key, minus one. The blocks whose first
  // keys' prefixes are below or above key's are found on the prefixes
  // alone (one array, no key bytes read); only a run of equal prefixes
  // needs the keys (keys that share their first 8 bytes).
  const uint64_t p = key_prefix(key);
  // lo: the first block whose prefix is >= p (binary search).
  uint64_t lo = 0;
  for (uint64_t n = n_blocks_; n > 0;) {
    const uint64_t half = n / 2;
    if (prefix(lo + half) < p) {
      lo += half + 1;
      n -= half + 1;
    } else {
      n = half;
    }
  }
  // hi: the first block past lo whose prefix is > p. Runs of equal
  // prefixes are short (mostly none): gallop over one, then bisect.
  uint64_t run_end = lo;
  for (uint64_t step = 1; run_end < n_blocks_ && prefix(run_end) == p; step *= 2) {
    run_end = n_blocks_ - run_end > step ? run_end + step : n_blocks_;
  }
  uint64_t hi = lo;
  for (uint64_t n = run_end - lo; n > 0;) {
    const uint64_t half = n / 2;
    if (prefix(hi + half) <= p) {
      hi += half + 1;
      n -= half + 1;
    } else {
      n = half;
    }
  }
  // A zero-padded prefix equals that of a longer key starting with key's
  // bytes and zeros; the keys decide within the run.
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (key < first_key(mid)) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo == 0 ? n_blocks_ : lo - 1;
}

std::optional<TermInfo> TermDictReader::find(std::string_view key) const {
  uint64_t block = block_for(key);
  if (block >= n_blocks_) return std::nullopt;
  const uint8_t *p, *end;
  block_bytes(block, &p, &end);
  TermInfo info;
  if (!get_info(p, end, info)) corrupt(p, "bad entry");
  std::string_view first = first_key(block);
  if (first == key) return info;
  // Scan without rebuilding keys: `matched` is the common prefix length of
  // the previous key (which is < key) and key. An entry sharing more than
  // that with the previous key is still < key; one sharing less is > key.
  size_t matched = common_prefix(first, key);
  size_t prev_len = first.size();
  const uint32_t n = entries_in(block);
  for (uint32_t i = 1; i < n; ++i) {
    uint64_t shared;
    std::string_view suffix;
    if (!get_key_delta(p, end, prev_len, shared, suffix) || !get_info(p, end, info)) corrupt(p, "bad entry");
    prev_len = shared + suffix.size();
    if (shared > matched) continue;
    if (shared < matched) return std::nullopt;
    std::string_view rest = key.substr(matched);
    size_t j = common_prefix(suffix, rest);
    if (j == suffix.size() && j == rest.size()) return info;
    if (j == rest.size()) return std::nullopt;  // key is a proper prefix of this entry
    if (j < suffix.size() && static_cast<uint8_t>(suffix[j]) > static_cast<uint8_t>(rest[j])) return std::nullopt;
    matched += j;
  }
  return std::nullopt;
}

// ---- iterator --------------------------------------------------------------

bool TermDictReader::Iterator::valid() const { return dict_ != nullptr; }
std::string_view TermDictReader::Iterator::key() const { return key_; }
const TermInfo& TermDictReader::Iterator::info() const { return info_; }

void TermDictReader::Iterator::load_block(uint64_t block) {
  if (block >= dict_->n_blocks_) {
    dict_ = nullptr;
    return;
  }
  block_ = block;
  entry_ = 0;
  entries_ = dict_->entries_in(block);
  const uint8_t* p;
  dict_->block_bytes(block, &p, &end_);
  info_ = TermInfo{};
  if (!get_info(p, end_, info_)) dict_->corrupt(p, "bad entry");
  pos_ = p;
  key_.assign(dict_->first_key(block));
}

void TermDictReader::Iterator::next() {
  if (dict_ == nullptr) return;
  if (++entry_ == entries_) {
    if (pos_ != end_) dict_->corrupt(pos_, "block longer than its entries");
    load_block(block_ + 1);
    return;
  }
  const uint8_t* p = pos_;
  uint64_t shared;
  std::string_view suffix;
  if (!get_key_delta(p, end_, key_.size(), shared, suffix) || !get_info(p, end_, info_)) dict_->corrupt(p, "bad entry");
  key_.resize(shared);
  key_.append(suffix);
  pos_ = p;
}

TermDictReader::Iterator TermDictReader::seek(std::string_view start) const {
  Iterator it;
  if (n_blocks_ == 0) return it;
  uint64_t block = block_for(start);
  it.dict_ = this;
  it.load_block(block >= n_blocks_ ? 0 : block);
  while (it.valid() && it.key() < start) it.next();
  return it;
}

}  // namespace fts
