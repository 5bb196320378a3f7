#include "distributed/distributed_build.h"

#include <chrono>
#include <filesystem>

#include "dump/dump_reader.h"
#include "dump/dump_slices.h"
#include "index/format/manifest.h"
#include "index/format/shard_manifest.h"
#include "index/reader/index_reader.h"

namespace fts {

namespace {

namespace fs = std::filesystem;

// Rank 0, first: an existing sharded index stops being visible (its shards
// are about to be rewritten one by one), and an index of one directory is
// not overwritten by shards beside it.
void prepare_dir(const std::string& dir) {
  if (manifest_exists(dir)) {
    throw IndexError(dir, "holds an index of one directory: remove it, or build the sharded index elsewhere");
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw IoError(dir, "cannot create directory: " + ec.message());
  if (shard_manifest_exists(dir) && !fs::remove(shard_manifest_path(dir), ec)) {
    throw IoError(shard_manifest_path(dir), "cannot remove: " + ec.message());
  }
}

// Shards of an earlier build with more ranks, past the new last one.
void remove_stale_shards(const std::string& dir, unsigned ranks) {
  for (unsigned r = ranks;; ++r) {
    std::error_code ec;
    const fs::path stale = fs::path(dir) / shard_name(r);
    if (!fs::exists(stale, ec)) break;
    fs::remove_all(stale, ec);
  }
}

// The uncompressed size of every dump, each measured by one rank.
std::vector<uint64_t> dump_sizes(const Comm& comm, const std::vector<std::string>& dumps) {
  std::vector<uint64_t> sizes(dumps.size(), 0);
  comm.agree([&] {
    for (size_t i = comm.rank(); i < dumps.size(); i += comm.size()) {
      if (dumps[i] == "-") throw DumpError("-", "a distributed build reads files, not stdin");
      sizes[i] = dump_xml_size(dumps[i]);
    }
  });
  comm.sum(sizes);
  return sizes;
}

}  // namespace

DistributedBuildReport build_distributed(const Comm& comm, const std::string& dir,
                                         const std::vector<std::string>& dumps, IndexWriterOptions writer,
                                         const DumpOptions& dump) {
  comm.agree([&] {
    if (comm.is_root()) prepare_dir(dir);
  });
  const std::vector<uint64_t> sizes = dump_sizes(comm, dumps);
  DistributedBuildReport report;
  // docs, skipped, then the field lengths: what SHARDS records of each rank.
  std::vector<uint64_t> mine(2 + kFieldCount, 0);
  comm.agree([&] {
    const auto start = std::chrono::steady_clock::now();
    writer.mode = IndexWriterOptions::Mode::kReplace;
    const std::string shard_dir = dir + "/" + shard_name(comm.rank());
    {
      IndexWriter out(shard_dir, writer);
      for (const DumpSlice& slice : dump_slices(sizes, comm.rank(), comm.size())) {
        DumpOptions options = dump;
        options.slice_begin = slice.begin;
        options.slice_end = slice.end;
        DumpReader reader(dumps[slice.file], options);
        Document doc;
        while (reader.next(doc)) out.add(std::move(doc));
        mine[1] += reader.docs_skipped();
      }
      out.commit();
    }
    auto shard = IndexReader::open(shard_dir);
    mine[0] = shard->doc_count();
    for (int f = 0; f < kFieldCount; ++f) mine[2 + f] = shard->total_field_length(static_cast<Field>(f));
    report.rank_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  });
  const std::vector<uint64_t> all = comm.all_gather(mine);
  ShardManifest manifest;
  for (int r = 0; r < comm.size(); ++r) {
    const uint64_t* rank = &all[r * mine.size()];
    ShardInfo shard;
    shard.name = shard_name(r);
    shard.base = static_cast<DocId>(manifest.doc_count);
    shard.doc_count = static_cast<uint32_t>(rank[0]);
    manifest.shards.push_back(shard);
    manifest.doc_count += rank[0];
    report.skipped += rank[1];
    for (int f = 0; f < kFieldCount; ++f) manifest.total_length[f] += rank[2 + f];
  }
  report.docs = manifest.doc_count;
  report.rank_docs = mine[0];
  comm.agree([&] {
    if (!comm.is_root()) return;
    if (manifest.doc_count >= kNoMoreDocs) {
      throw IndexError(dir, std::to_string(manifest.doc_count) + " docs: more than doc ids can number");
    }
    write_shard_manifest(dir, manifest);  // the index becomes visible
    remove_stale_shards(dir, comm.size());
  });
  return report;
}

}  // namespace fts
