// Fuzzes opening and searching damaged indexes. A small index (2 segments,
// each with its Bloom filter, url table, fingerprints and cluster ids) is
// built once at startup; each input replaces one file:
//   byte 0: which file (sorted names, modulo the count)
//   byte 1: mode; even = the rest is the whole file, raw (framing damage);
//           odd = the rest is the payload, wrapped in a valid header and a
//           footer with the right length and CRC, so the damage gets past
//           the framing checks into the decoders (structural damage).
// Then open, a few searches (with stored fields) and check() must either
// work or throw fts::IndexError; any other exception, a crash, a hang or a
// huge allocation is a bug. The file is restored after each input.
// FTS_FUZZ_WRITE_SEEDS=DIR writes both modes of every undamaged file as seeds.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/fts.h"
#include "fuzz_support.h"

namespace fs = std::filesystem;

namespace {

struct IndexFile {
  fs::path path;
  std::string original;
};

std::vector<IndexFile>& files() {
  static std::vector<IndexFile>* out = [] {
    const fs::path dir = fts::fuzz::scratch_dir() / "index";
    {
      fts::IndexWriterOptions options;
      options.merge = false;
      options.max_segment_docs = 25;
      options.mode = fts::IndexWriterOptions::Mode::kReplace;  // the scratch directory may hold an earlier run's index
      fts::IndexWriter writer(dir.string(), options);
      fts::DumpReader reader(FTS_SOURCE_DIR "/data/sample.xml", {});
      fts::Document doc;
      for (int i = 0; i < 50 && reader.next(doc); ++i) writer.add(doc);
      writer.commit();
    }
    auto* out = new std::vector<IndexFile>;
    for (const auto& entry : fs::directory_iterator(dir)) {
      // Only the framed index files; LOCK is an empty file that guards writers.
      std::string bytes = fts::fuzz::read_bytes(entry.path());
      if (bytes.size() >= fts::kFileHeaderSize + fts::kFileFooterSize) out->push_back({entry.path(), std::move(bytes)});
    }
    std::sort(out->begin(), out->end(), [](const IndexFile& a, const IndexFile& b) { return a.path < b.path; });
    return out;
  }();
  return *out;
}

void put_u64(std::string& s, uint64_t v) { s.append(reinterpret_cast<const char*>(&v), 8); }
void put_u32(std::string& s, uint32_t v) { s.append(reinterpret_cast<const char*>(&v), 4); }

// header (from the original file) + payload + footer with a correct CRC.
std::string frame(const std::string& original, std::string_view payload) {
  std::string out = original.substr(0, fts::kFileHeaderSize);
  out += payload;
  const uint32_t crc = fts::crc32c(0, out.data(), out.size());
  put_u64(out, payload.size());
  put_u32(out, crc);
  out.append("\0STF", 4);
  return out;
}

std::string_view payload_of(const std::string& file) {
  return std::string_view(file).substr(fts::kFileHeaderSize, file.size() - fts::kFileHeaderSize - fts::kFileFooterSize);
}

void write_seeds(const std::string& seed_dir) {
  fs::create_directories(seed_dir);
  const auto& all = files();
  for (size_t i = 0; i < all.size(); ++i) {
    for (uint8_t mode : {0, 1}) {
      std::string seed{static_cast<char>(i), static_cast<char>(mode)};
      seed += mode ? std::string(payload_of(all[i].original)) : all[i].original;
      fts::fuzz::write_bytes(fs::path(seed_dir) / (all[i].path.filename().string() + (mode ? ".payload" : ".raw")), seed);
    }
  }
}

void exercise(const std::string& dir) {
  fts::Index index = fts::Index::open(dir);
  const uint32_t docs = index.doc_count();
  for (const char* q : {"the", "title:war OR abstract:\"of the\"", "-zzz", "a b c -d", "NOT (x OR y)"}) {
    fts::Results r = index.search(q, {.limit = 5});
    (void)index.count(q);
    for (const fts::Hit& hit : r.hits)
      if (hit.doc >= docs) throw fts::IndexError("search", "hit beyond doc count");  // fine as long as it is an IndexError
    // Pruned top-k reads the blocks' impacts, damaged or not.
    fts::SearchOptions pruned{.limit = 5};
    pruned.total_hits_threshold = 0;
    for (const fts::Hit& hit : index.search(q, pruned).hits)
      if (hit.doc >= docs) throw fts::IndexError("search", "hit beyond doc count");
    // Collapse reads the near-duplicate cluster ids (NAME.dup).
    for (const fts::Hit& hit : index.search(q, {.limit = 5, .collapse = true}).hits)
      if (hit.doc >= docs) throw fts::IndexError("search", "hit beyond doc count");
  }
  (void)index.search("-zzz", {.limit = 100, .sort = fts::SearchOptions::Sort::kDocId});
  fts::InternalAccess::reader(index).check();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  files();
  if (std::string seeds = fts::fuzz::seed_output_dir(); !seeds.empty()) write_seeds(seeds);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  auto& all = files();
  const IndexFile& target = all[data[0] % all.size()];
  const std::string_view rest(reinterpret_cast<const char*>(data + 2), size - 2);
  const bool framed = data[1] & 1;
  fts::fuzz::write_bytes(target.path, framed ? frame(target.original, rest) : std::string(rest));
  try {
    exercise(target.path.parent_path().string());
  } catch (const fts::IndexError&) {
    // The expected outcome for most damage.
  }
  fts::fuzz::write_bytes(target.path, target.original);
  return 0;
}
