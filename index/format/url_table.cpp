#include "index/format/url_table.h"

#include <numeric>

#include "util/bytes.h"
#include "index/format/file_format.h"

namespace fts {

void UrlTableWriter::write(const std::string& path) const {
  std::vector<uint32_t> order(hashes_.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return hashes_[a] < hashes_[b]; });
  std::vector<uint32_t> sorted(hashes_.size());
  for (size_t i = 0; i < order.size(); ++i) sorted[i] = hashes_[order[i]];
  std::string header;
  put_u32(header, static_cast<uint32_t>(hashes_.size()));
  put_u32(header, 0);
  FileWriter out(path, FileKind::kUrls);
  out.write(header.data(), header.size());
  out.write(sorted.data(), sorted.size() * 4);  // little-endian host, as the format assumes
  out.write(order.data(), order.size() * 4);
  out.finish();
}

void UrlTableWriter::add_all(const UrlTable& table, const std::string& path) {
  table.check(path);  // every doc once: the copy below then fills every slot
  const size_t first = hashes_.size();
  hashes_.resize(first + table.docs_.size());
  for (size_t i = 0; i < table.docs_.size(); ++i) hashes_[first + table.docs_[i]] = table.hashes_[i];
}

UrlTable::UrlTable(std::span<const uint8_t> payload, uint32_t doc_count, const std::string& path) {
  if (payload.size() < 8) throw_corrupt(path, 0, "url table header truncated");
  const uint32_t count = load_u32(payload.data());
  if (count != doc_count || payload.size() != 8 + uint64_t(count) * 8) {
    throw_corrupt(path, 0, "url table of " + std::to_string(count) + " docs in " + std::to_string(payload.size()) +
                               " bytes for a segment of " + std::to_string(doc_count) + " docs");
  }
  // The payload starts 16-byte aligned in the mapping, the hashes 8 bytes in.
  const auto* words = reinterpret_cast<const uint32_t*>(payload.data() + 8);
  hashes_ = {words, count};
  docs_ = {words + count, count};
}

void UrlTable::check(const std::string& path) const {
  std::vector<bool> seen(docs_.size(), false);
  for (size_t i = 0; i < hashes_.size(); ++i) {
    if (i > 0 && (hashes_[i] < hashes_[i - 1] || (hashes_[i] == hashes_[i - 1] && docs_[i] <= docs_[i - 1]))) {
      throw_corrupt(path, 8 + i * 4, "url hashes out of order");
    }
    if (docs_[i] >= docs_.size() || seen[docs_[i]]) {
      throw_corrupt(path, 8 + (hashes_.size() + i) * 4, "url table names doc " + std::to_string(docs_[i]) + " twice or out of range");
    }
    seen[docs_[i]] = true;
  }
}

}  // namespace fts
