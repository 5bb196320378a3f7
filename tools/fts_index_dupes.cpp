#include "fts_index_dupes.h"

#include <algorithm>
#include <map>

#include <boost/program_options.hpp>
#include <fmt/core.h>

#include "common/cli.h"
#include "engine/fts.h"
#include "index/writer/near_dupes.h"

namespace po = boost::program_options;

namespace fts {

namespace {

// Precision and recall of the clusters as pairs, over the first n docs:
// brute force gives every pair within distance; the banded search must find
// each (its recall is 1 by construction); a cluster's pairs are precise when
// within distance (single linkage chains past it), and the pairs within
// distance are recalled when they share a cluster (across commits a bridge
// may leave two apart: index/FORMAT.md).
void measure(const std::vector<ClusteredDoc>& docs, size_t n, unsigned distance) {
  std::vector<uint64_t> fps(n);
  for (size_t i = 0; i < n; ++i) fps[i] = docs[i].fingerprint;
  uint64_t near = 0, same = 0, same_and_near = 0;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      const bool is_near = fps[i] != kNoFingerprint && fps[j] != kNoFingerprint && hamming(fps[i], fps[j]) <= distance;
      const bool together = docs[i].cluster == docs[j].cluster;
      near += is_near;
      same += together;
      same_and_near += is_near && together;
    }
  }
  const uint64_t banded = near_pairs(fps, distance).size();
  auto ratio = [](uint64_t a, uint64_t b) { return b == 0 ? 1.0 : double(a) / double(b); };
  fmt::print("{} docs, distance {}: {} pairs within distance (brute force), {} found by the banded search "
             "(recall {:.4f})\n",
             n, distance, near, banded, ratio(banded, near));
  fmt::print("cluster pairs: {}, within distance {} (precision {:.4f}); pairs within distance in one cluster {} "
             "(recall {:.4f})\n",
             same, same_and_near, ratio(same_and_near, same), same_and_near, ratio(same_and_near, near));
}

}  // namespace

int dupes(const std::vector<std::string>& args) {
  po::options_description named("dupes options");
  named.add_options()("index", po::value<std::string>()->required(), "index directory")(
      "distance", po::value<unsigned>(), "recluster at this distance (default: the clusters the index stores)")(
      "limit", po::value<size_t>()->default_value(10), "clusters to list")(
      "titles", po::value<size_t>()->default_value(5), "titles to list per cluster")(
      "measure", po::value<size_t>(),
      "instead: the clusters of the first N docs against brute-force Hamming distance (pairs)");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(named).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw cli::UsageError(e.what());
  }
  const bool recluster = vm.count("distance") > 0;
  const unsigned distance = recluster ? vm["distance"].as<unsigned>() : 0;
  if (distance > kMaxDupeDistance) {
    throw cli::UsageError("--distance must be at most " + std::to_string(kMaxDupeDistance));
  }
  const std::string dir = vm["index"].as<std::string>();
  auto reader = IndexReader::open(dir);
  std::optional<unsigned> stored;
  for (const auto& s : reader->segments()) {
    if (!s.reader->cluster_ids().empty()) stored = s.reader->cluster_ids().distance();
  }
  const std::vector<ClusteredDoc> docs = clustered_docs(*reader, recluster, distance);
  if (docs.empty() && reader->live_count() > 0) {
    throw IndexError(dir, "no near-duplicate fingerprints (built with --no-near-dupes or by an older fts)");
  }
  if (vm.count("measure")) {
    measure(docs, std::min(vm["measure"].as<size_t>(), docs.size()), recluster ? distance : stored.value_or(0));
    return cli::kOk;
  }
  std::map<DocId, std::vector<const ClusteredDoc*>> clusters;
  for (const ClusteredDoc& d : docs) clusters[d.cluster].push_back(&d);
  std::vector<const std::vector<const ClusteredDoc*>*> largest;
  uint64_t clustered = 0;
  for (const auto& [id, members] : clusters) {
    if (members.size() < 2) continue;
    largest.push_back(&members);
    clustered += members.size();
  }
  std::stable_sort(largest.begin(), largest.end(), [](auto* a, auto* b) { return a->size() > b->size(); });
  fmt::print("{} docs with fingerprints, {} in {} clusters of 2 or more (distance {}{})\n", docs.size(), clustered,
             largest.size(), recluster ? distance : stored.value_or(0),
             recluster ? ", reclustered" : ", as stored");
  const size_t limit = vm["limit"].as<size_t>(), titles = vm["titles"].as<size_t>();
  for (size_t c = 0; c < std::min(limit, largest.size()); ++c) {
    const auto& members = *largest[c];
    fmt::print("\ncluster {}: {} docs\n", members.front()->cluster, members.size());
    const uint64_t first = members.front()->fingerprint;
    for (size_t i = 0; i < std::min(titles, members.size()); ++i) {
      fmt::print("  {:>9}  {:>2} bits  {}\n", members[i]->doc, hamming(first, members[i]->fingerprint),
                 reader->stored(members[i]->doc).title);
    }
    if (members.size() > titles) fmt::print("  ... and {} more\n", members.size() - titles);
  }
  return cli::kOk;
}

}  // namespace fts
