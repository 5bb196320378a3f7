#include "index/format/live_docs.h"

#include <roaring/roaring.h>

#include <algorithm>
#include <bit>
#include <memory>

#include "index/format/file_format.h"
#include "util/bytes.h"

namespace fts {

namespace {

struct FreeBitmap {
  void operator()(roaring_bitmap_t* b) const { roaring_bitmap_free(b); }
};
using Bitmap = std::unique_ptr<roaring_bitmap_t, FreeBitmap>;

}  // namespace

std::string live_docs_file(const std::string& dir, const std::string& segment, uint64_t generation) {
  return dir + "/" + segment + "." + std::to_string(generation) + ".live";
}

LiveDocs::LiveDocs(uint32_t doc_count)
    : bits_((uint64_t(doc_count) + 63) / 64, ~uint64_t(0)), doc_count_(doc_count), live_(doc_count) {
  if (doc_count % 64 != 0) bits_.back() = (uint64_t(1) << (doc_count % 64)) - 1;
}

uint64_t LiveDocs::count_from(DocId from) const {
  size_t w = from >> 6;
  if (w >= bits_.size()) return 0;
  uint64_t n = static_cast<uint64_t>(std::popcount(bits_[w] & (~uint64_t(0) << (from & 63))));
  while (++w < bits_.size()) n += static_cast<uint64_t>(std::popcount(bits_[w]));
  return n;
}

bool LiveDocs::remove(DocId local) {
  if (!is_live(local)) return false;
  bits_[local >> 6] &= ~(uint64_t(1) << (local & 63));
  --live_;
  return true;
}

LiveDocs LiveDocs::read(const std::string& path, uint32_t doc_count) {
  MappedFile file(path, FileKind::kLiveDocs);
  file.verify_checksum();
  auto payload = file.payload();
  if (payload.size() < 4) throw_corrupt(path, 0, "live docs truncated");
  uint32_t stored_count = load_u32(payload.data());
  if (stored_count != doc_count) {
    throw_corrupt(path, 0, "live docs of " + std::to_string(stored_count) + " docs for a segment of " +
                               std::to_string(doc_count));
  }
  const char* bytes = reinterpret_cast<const char*>(payload.data() + 4);
  const size_t size = payload.size() - 4;
  Bitmap bitmap(roaring_bitmap_portable_deserialize_safe(bytes, size));
  if (!bitmap) throw_corrupt(path, 4, "not a Roaring bitmap");
  if (roaring_bitmap_portable_size_in_bytes(bitmap.get()) != size) {
    throw_corrupt(path, 4, "trailing bytes after the Roaring bitmap");
  }
  if (!roaring_bitmap_is_empty(bitmap.get()) && roaring_bitmap_maximum(bitmap.get()) >= doc_count) {
    throw_corrupt(path, 4, "live doc " + std::to_string(roaring_bitmap_maximum(bitmap.get())) +
                               " beyond the segment's " + std::to_string(doc_count) + " docs");
  }
  // Live docs are most of a segment: set every bit and clear the deleted
  // ones (the complement, cheap to take of run containers), so a reopen
  // after a small delete costs the deletes, not the segment's size.
  LiveDocs live(doc_count);
  const uint64_t live_count = roaring_bitmap_get_cardinality(bitmap.get());
  if (live_count >= doc_count / 2) {
    Bitmap deleted(roaring_bitmap_flip(bitmap.get(), 0, doc_count));
    roaring_uint32_iterator_t it;
    roaring_init_iterator(deleted.get(), &it);
    for (; it.has_value; roaring_advance_uint32_iterator(&it)) {
      live.bits_[it.current_value >> 6] &= ~(uint64_t(1) << (it.current_value & 63));
    }
  } else {
    std::fill(live.bits_.begin(), live.bits_.end(), 0);
    roaring_uint32_iterator_t it;
    roaring_init_iterator(bitmap.get(), &it);
    for (; it.has_value; roaring_advance_uint32_iterator(&it)) {
      live.bits_[it.current_value >> 6] |= uint64_t(1) << (it.current_value & 63);
    }
  }
  live.live_ = static_cast<uint32_t>(live_count);
  return live;
}

void LiveDocs::write(const std::string& path) const {
  // Added as runs of live docs: a few ranges, not a call per doc.
  Bitmap bitmap(roaring_bitmap_create());
  uint64_t d = 0;
  while (d < doc_count_) {
    while (d < doc_count_ && !is_live(static_cast<DocId>(d))) ++d;
    const uint64_t first = d;
    while (d < doc_count_ && is_live(static_cast<DocId>(d))) ++d;
    if (d > first) roaring_bitmap_add_range(bitmap.get(), first, d);
  }
  roaring_bitmap_run_optimize(bitmap.get());  // live docs are mostly long runs
  std::string buf;
  put_u32(buf, doc_count_);
  const size_t at = buf.size();
  buf.resize(at + roaring_bitmap_portable_size_in_bytes(bitmap.get()));
  roaring_bitmap_portable_serialize(bitmap.get(), buf.data() + at);
  FileWriter out(path, FileKind::kLiveDocs);
  out.write(buf.data(), buf.size());
  out.finish();
}

}  // namespace fts
