// Doc store codec.
//
// Payload:
//   blocks   zstd frames (with content size and checksum), each holding
//            whole documents: varint length + bytes of title, url and
//            abstract in turn. A block closes once it reaches
//            kTargetBlockBytes or kMaxDocsPerBlock documents; a huge
//            document gets a (huge) block of its own. Blocks copied from
//            another store (add_block) keep their size.
//   table    (blocks + 1) entries of u64 frame offset, u64 uncompressed
//            size, u32 first doc id; the last entry holds the table's own
//            offset and the doc count.
//   tail     u64 table offset, u64 block count, u32 doc count, u32 magic
//            "DSIX".
#include "index/format/doc_store.h"

#include <zstd.h>

#include <atomic>
#include <cstring>
#include <stdexcept>

#include "util/bytes.h"

namespace fts {
namespace {

// Block size trades size for fetch latency. On GCIDE (~200-byte docs):
// 32 KiB blocks compress 2.56x at ~30 us per random get, 16 KiB 2.45x at
// ~19 us, 8 KiB 2.32x at ~12 us. A result page fetches ~10 docs.
constexpr size_t kTargetBlockBytes = 16 * 1024;
constexpr uint32_t kMaxDocsPerBlock = 64;  // bounds the skip within a block
constexpr int kCompressionLevel = 3;
constexpr uint32_t kTailMagic = 0x58495344;  // "DSIX"
constexpr size_t kEntrySize = 8 + 8 + 4;
constexpr size_t kTailSize = 8 + 8 + 4 + 4;
// Blocks up to this size stay in the calling thread's cache; larger ones
// (a few huge documents) are not worth the memory.
constexpr uint64_t kCacheMaxBytes = 1 << 20;


void put_field(std::string& out, const std::string& s) {
  put_varint(out, s.size());
  out.append(s);
}

struct FreeDCtx {
  void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

// The last block this thread decompressed, keyed by reader id and block.
struct BlockCache {
  uint64_t reader = 0;
  uint64_t block = 0;
  std::string raw;
};

std::atomic<uint64_t> next_reader_id{1};

}  // namespace

// ---- writer ----------------------------------------------------------------

void DocStoreWriter::FreeCCtx::operator()(ZSTD_CCtx_s* c) const { ZSTD_freeCCtx(c); }

DocStoreWriter::DocStoreWriter(Sink& out) : out_(out), cctx_(ZSTD_createCCtx()) {
  if (!cctx_) throw std::bad_alloc();
  ZSTD_CCtx_setParameter(cctx_.get(), ZSTD_c_compressionLevel, kCompressionLevel);
  ZSTD_CCtx_setParameter(cctx_.get(), ZSTD_c_checksumFlag, 1);
  ZSTD_CCtx_setParameter(cctx_.get(), ZSTD_c_contentSizeFlag, 1);
}

DocStoreWriter::~DocStoreWriter() = default;

void DocStoreWriter::add(const std::string& title, const std::string& url, const std::string& abstract) {
  if (finished_) throw std::logic_error("DocStoreWriter::add after finish");
  if (doc_count_ == UINT32_MAX) throw std::length_error("doc store: too many documents");
  // A document far larger than a block gets a block of its own, so reading
  // its neighbours never pays for decompressing it.
  size_t incoming = title.size() + url.size() + abstract.size();
  if (block_docs_ > 0 && raw_.size() + incoming > 2 * kTargetBlockBytes) flush_block();
  put_field(raw_, title);
  put_field(raw_, url);
  put_field(raw_, abstract);
  ++doc_count_;
  if (++block_docs_ >= kMaxDocsPerBlock || raw_.size() >= kTargetBlockBytes) flush_block();
}

void DocStoreWriter::flush_block() {
  size_t bound = ZSTD_compressBound(raw_.size());
  if (compressed_.size() < bound) compressed_.resize(bound);
  size_t n = ZSTD_compress2(cctx_.get(), compressed_.data(), compressed_.size(), raw_.data(), raw_.size());
  if (ZSTD_isError(n)) throw std::runtime_error(std::string("doc store: zstd compression failed: ") + ZSTD_getErrorName(n));
  blocks_.push_back({written_, raw_.size(), doc_count_ - block_docs_});
  out_.write(compressed_.data(), n);
  written_ += n;
  raw_.clear();
  block_docs_ = 0;
  // Do not keep the buffers of one huge document for the rest of the run.
  if (raw_.capacity() > 8 * kTargetBlockBytes) {
    raw_.shrink_to_fit();
    compressed_.clear();
    compressed_.shrink_to_fit();
  }
}

void DocStoreWriter::add_block(const StoredBlock& block) {
  if (finished_) throw std::logic_error("DocStoreWriter::add_block after finish");
  if (block.doc_count == 0 || block.doc_count > UINT32_MAX - doc_count_) {
    throw std::length_error("doc store: a copied block of " + std::to_string(block.doc_count) + " docs");
  }
  if (block_docs_ > 0) flush_block();
  blocks_.push_back({written_, block.raw_size, doc_count_});
  out_.write(block.frame.data(), block.frame.size());
  written_ += block.frame.size();
  doc_count_ += block.doc_count;
}

void DocStoreWriter::finish() {
  if (finished_) throw std::logic_error("DocStoreWriter::finish called twice");
  finished_ = true;
  if (block_docs_ > 0) flush_block();
  std::string table;
  table.reserve((blocks_.size() + 1) * kEntrySize + kTailSize);
  for (const auto& b : blocks_) {
    put_u64(table, b.offset);
    put_u64(table, b.raw_size);
    put_u32(table, b.first_doc);
  }
  put_u64(table, written_);
  put_u64(table, 0);
  put_u32(table, doc_count_);
  put_u64(table, written_);
  put_u64(table, blocks_.size());
  put_u32(table, doc_count_);
  put_u32(table, kTailMagic);
  out_.write(table.data(), table.size());
}

// ---- reader ----------------------------------------------------------------

DocStoreReader::DocStoreReader(std::span<const uint8_t> payload, std::string path_for_errors)
    : payload_(payload), path_(std::move(path_for_errors)), id_(next_reader_id.fetch_add(1)) {
  const uint64_t size = payload.size();
  if (size < kTailSize) throw_corrupt(path_, 0, "doc store shorter than its tail (" + std::to_string(size) + " bytes)");
  const uint64_t tail_at = size - kTailSize;
  ByteReader tail(payload.data() + tail_at, payload.data() + size);
  uint64_t table_offset = 0;
  uint32_t magic = 0;
  tail.get_u64(table_offset);
  tail.get_u64(n_blocks_);
  tail.get_u32(count_);
  tail.get_u32(magic);
  if (magic != kTailMagic) throw_corrupt(path_, size - 4, "bad doc store tail magic");
  if (n_blocks_ > size / kEntrySize || table_offset > tail_at ||
      tail_at - table_offset != (n_blocks_ + 1) * kEntrySize || (n_blocks_ == 0) != (count_ == 0)) {
    throw_corrupt(path_, tail_at, "bad doc store table bounds");
  }
  table_ = payload.data() + table_offset;
  table_offset_ = table_offset;
  // The table is checked where it is read (check_block()), not here: at
  // 6,000,000 docs it has 94,000 entries, and reading them all made a
  // good part of opening the index.
}

void DocStoreReader::check() const {
  for (uint64_t i = 0; i <= n_blocks_; ++i) {
    uint64_t off = entry_offset(i);
    uint32_t first = entry_first_doc(i);
    bool is_first = i == 0, is_last = i == n_blocks_;
    if ((is_first && (off != 0 || first != 0)) || (is_last && (off != table_offset_ || first != count_)) ||
        (!is_first && (off <= entry_offset(i - 1) || first <= entry_first_doc(i - 1)))) {
      throw_corrupt(path_, table_offset_ + i * kEntrySize, "bad doc store table entry");
    }
  }
}

void DocStoreReader::check_block(uint64_t block) const {
  if (entry_offset(block) >= entry_offset(block + 1) || entry_offset(block + 1) > table_offset_ ||
      entry_first_doc(block) >= entry_first_doc(block + 1) || entry_first_doc(block + 1) > count_) {
    throw_corrupt(path_, table_offset_ + block * kEntrySize, "bad doc store table entry");
  }
}

uint64_t DocStoreReader::entry_offset(uint64_t block) const { return load_u64(table_ + block * kEntrySize); }
uint64_t DocStoreReader::entry_raw_size(uint64_t block) const { return load_u64(table_ + block * kEntrySize + 8); }
uint32_t DocStoreReader::entry_first_doc(uint64_t block) const { return load_u32(table_ + block * kEntrySize + 16); }

uint64_t DocStoreReader::block_of(DocId doc) const {
  uint64_t lo = 0, hi = n_blocks_;  // first block whose first doc > doc
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (doc < entry_first_doc(mid)) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  // The table's first entry starts at doc 0, unless damaged.
  if (lo == 0) throw_corrupt(path_, table_offset_, "bad doc store table entry");
  return lo - 1;
}

StoredBlock DocStoreReader::block(uint64_t i) const {
  if (i >= n_blocks_) throw std::out_of_range(path_ + ": doc store block " + std::to_string(i) + " out of range");
  check_block(i);
  const uint64_t offset = entry_offset(i);
  StoredBlock b{payload_.subspan(offset, entry_offset(i + 1) - offset), entry_raw_size(i),
                entry_first_doc(i + 1) - entry_first_doc(i)};
  if (ZSTD_getFrameContentSize(b.frame.data(), b.frame.size()) != b.raw_size) {
    throw_corrupt(path_, offset, "doc store block " + std::to_string(i) + ": size does not match the table");
  }
  return b;
}

StoredDoc DocStoreReader::get(DocId doc) const {
  if (doc >= count_) {
    throw std::out_of_range(path_ + ": doc id " + std::to_string(doc) + " out of range (" + std::to_string(count_) +
                            " docs)");
  }
  const uint64_t block = block_of(doc);
  check_block(block);
  if (doc < entry_first_doc(block) || doc >= entry_first_doc(block + 1)) {
    throw_corrupt(path_, table_offset_ + block * kEntrySize, "bad doc store table entry");
  }
  const uint64_t offset = entry_offset(block);
  const uint64_t raw_size = entry_raw_size(block);

  thread_local BlockCache cache;
  std::string uncached;
  const std::string* raw = &cache.raw;
  if (cache.reader != id_ || cache.block != block) {
    const uint8_t* src = payload_.data() + offset;
    const size_t src_size = entry_offset(block + 1) - offset;
    // Both the table and the frame header record the size; trusting either
    // alone would let one damaged byte request an absurd allocation.
    if (ZSTD_getFrameContentSize(src, src_size) != raw_size) {
      throw_corrupt(path_, offset, "doc store block " + std::to_string(block) + ": size does not match the table");
    }
    std::string& dst = raw_size <= kCacheMaxBytes ? cache.raw : uncached;
    cache.reader = 0;  // invalid until the fill succeeds
    dst.resize(raw_size);
    thread_local std::unique_ptr<ZSTD_DCtx, FreeDCtx> dctx(ZSTD_createDCtx());
    if (!dctx) throw std::bad_alloc();
    size_t n = ZSTD_decompressDCtx(dctx.get(), dst.data(), dst.size(), src, src_size);
    if (ZSTD_isError(n) || n != raw_size) {
      throw_corrupt(path_, offset,
                    "doc store block " + std::to_string(block) + ": " +
                        (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short block"));
    }
    if (&dst == &cache.raw) {
      cache.reader = id_;
      cache.block = block;
    }
    raw = &dst;
  }

  const auto* p = reinterpret_cast<const uint8_t*>(raw->data());
  ByteReader r(p, p + raw->size());
  auto bad = [&] {
    throw_corrupt(path_, offset, "doc store block " + std::to_string(block) + ": bad record of doc " + std::to_string(doc));
  };
  uint64_t len;
  for (uint32_t skip = doc - entry_first_doc(block); skip > 0; --skip) {
    for (int f = 0; f < 3; ++f)
      if (!r.get_varint(len) || !r.skip(len)) bad();
  }
  std::string_view fields[3];
  for (auto& field : fields)
    if (!r.get_varint(len) || !r.get_bytes(len, field)) bad();
  // The block must hold exactly the docs the table assigns to it, or a
  // damaged table could hand out a neighbour's fields under this id.
  uint64_t after = uint64_t{entry_first_doc(block + 1)} - doc - 1;
  for (; after > 0; --after) {
    for (int f = 0; f < 3; ++f)
      if (!r.get_varint(len) || !r.skip(len)) bad();
  }
  if (r.remaining() != 0) bad();
  return StoredDoc{std::string(fields[0]), std::string(fields[1]), std::string(fields[2])};
}

}  // namespace fts
