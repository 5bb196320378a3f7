// Near-duplicates: SimHash fingerprints, the banded search against brute
// force Hamming distance (random fingerprints, the sample, gcide), what a
// planted corpus collapses and what it does not (distances printed), the
// cluster ids across commits, deletes and merges, and collapsed searches
// against a model that groups the full ranking by cluster.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "analyzer/analyzer.h"
#include "dump/dump_reader.h"
#include "engine/fts.h"
#include "fts/index_writer.h"
#include "index/format/bloom_filter.h"
#include "index/writer/near_dupes.h"
#include "index/writer/simhash.h"
#include "support/test_support.h"

namespace fts {
namespace {

using Pair = std::pair<uint32_t, uint32_t>;

std::set<Pair> brute_pairs(const std::vector<uint64_t>& fps, unsigned k) {
  std::set<Pair> out;
  for (uint32_t i = 0; i < fps.size(); ++i) {
    for (uint32_t j = i + 1; j < fps.size(); ++j) {
      if (fps[i] != kNoFingerprint && fps[j] != kNoFingerprint && hamming(fps[i], fps[j]) <= k) out.insert({i, j});
    }
  }
  return out;
}

std::set<Pair> banded_pairs(const std::vector<uint64_t>& fps, unsigned k, unsigned blocks) {
  const std::vector<Pair> pairs = near_pairs(fps, k, blocks);
  return {pairs.begin(), pairs.end()};
}

// Connected components by brute force: the smallest index of each.
std::vector<uint32_t> brute_clusters(const std::vector<uint64_t>& fps, unsigned k) {
  std::vector<uint32_t> root(fps.size());
  for (uint32_t i = 0; i < fps.size(); ++i) root[i] = i;
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [a, b] : brute_pairs(fps, k)) {
      const uint32_t m = std::min(root[a], root[b]);
      if (root[a] != m || root[b] != m) {
        root[a] = root[b] = m;
        changed = true;
      }
    }
  }
  return root;
}

void expect_banded_finds_every_pair(const std::vector<uint64_t>& fps, unsigned k, const std::string& what) {
  const std::set<Pair> brute = brute_pairs(fps, k);
  const std::vector<uint32_t> clusters = brute_clusters(fps, k);
  EXPECT_EQ(cluster_fingerprints(fps, k), clusters) << what << ", distance " << k;
  // Every layout of the tables, from one block of key (the plain banding)
  // to the permuted tables of 10^6 docs and more.
  for (unsigned blocks = k + 1; blocks <= std::min(k + 4, 64u); ++blocks) {
    EXPECT_EQ(banded_pairs(fps, k, blocks), brute) << what << ", distance " << k << ", " << blocks << " blocks";
    EXPECT_EQ(cluster_fingerprints(fps, k, blocks), clusters) << what << ", distance " << k << ", " << blocks << " blocks";
  }
  std::printf("%s, distance %u: %zu pairs within distance, all found\n", what.c_str(), k, brute.size());
}

// Random fingerprints planted in families a few random bits apart, so that
// every distance up to k and just beyond occurs.
std::vector<uint64_t> planted_fingerprints(std::mt19937_64& rng, size_t families, unsigned max_flips) {
  std::vector<uint64_t> fps;
  for (size_t f = 0; f < families; ++f) {
    const uint64_t base = rng() | 1;
    fps.push_back(base);
    for (int member = 0; member < 4; ++member) {
      uint64_t fp = base;
      const unsigned flips = static_cast<unsigned>(rng() % (max_flips + 1));
      for (unsigned i = 0; i < flips; ++i) fp ^= 1ull << (rng() % 64);
      fps.push_back(fp == 0 ? 1 : fp);
    }
  }
  fps.push_back(kNoFingerprint);  // a doc without terms is nobody's duplicate
  fps.push_back(kNoFingerprint);
  std::shuffle(fps.begin(), fps.end(), rng);
  return fps;
}

TEST(NearDupes, BandedSearchMissesNothingOnRandomFingerprints) {
  std::mt19937_64 rng(14);
  for (unsigned k : {0u, 1u, 3u, 4u, 6u, 10u, 15u}) {
    expect_banded_finds_every_pair(planted_fingerprints(rng, 120, k + 3), k, "random families");
  }
}

// On 200,000 fingerprints, too many for brute force, the permuted tables
// (m - k blocks of key) must find the clusters of the plain banding (one
// block of key), itself checked against brute force above.
TEST(NearDupes, PermutedTablesClusterAsThePlainBanding) {
  std::mt19937_64 rng(41);
  std::vector<uint64_t> fps = planted_fingerprints(rng, 2000, 7);
  while (fps.size() < 200000) fps.push_back(rng() | 1);
  for (unsigned k : {3u, 4u}) {
    const std::vector<uint32_t> plain = cluster_fingerprints(fps, k, k + 1);
    EXPECT_EQ(cluster_fingerprints(fps, k), plain) << "distance " << k;
    EXPECT_EQ(cluster_fingerprints(fps, k, 0, 3), plain) << "distance " << k << ", tables on 3 threads";
    for (unsigned blocks : {k + 2, k + 3}) {
      EXPECT_EQ(cluster_fingerprints(fps, k, blocks), plain) << "distance " << k << ", " << blocks << " blocks";
    }
  }
  for (size_t n : {size_t{0}, size_t{1}, size_t{300}, size_t{6000000}, size_t{1} << 32}) {
    for (unsigned k = 0; k <= kMaxDupeDistance; ++k) {
      const unsigned m = cluster_blocks(n, k);
      EXPECT_GT(m, k);
      EXPECT_LE(m, 64u);
    }
  }
  EXPECT_EQ(cluster_blocks(300, 4), 5u);      // a small segment: the fewest tables
  EXPECT_EQ(cluster_blocks(6000000, 4), 6u);  // the enwiki dump: 15 tables of 21-bit keys
  EXPECT_THROW(cluster_fingerprints(fps, 4, 4), ArgumentError);
}

// SimHash by its definition: each distinct term's hash votes +1 or -1 on
// every bit; a bit is set where the votes are positive.
uint64_t reference_simhash(const std::vector<std::string>& terms) {
  std::set<uint64_t> hashes;
  for (const std::string& t : terms) hashes.insert(bloom_hash(t));
  int votes[64] = {};
  for (uint64_t h : hashes) {
    for (int bit = 0; bit < 64; ++bit) votes[bit] += (h >> bit) & 1 ? 1 : -1;
  }
  uint64_t fp = 0;
  for (int bit = 0; bit < 64; ++bit) fp |= uint64_t(votes[bit] > 0) << bit;
  return fp == 0 ? 1 : fp;
}

// The hasher counts votes 8 bits at a time in byte-wide counters that it
// empties every 255 features, and keeps only the distinct hashes past
// 65,536: around and past both, and with repeats.
TEST(NearDupes, SimHashVotesAsItsDefinition) {
  std::mt19937_64 rng(9);
  SimHasher hasher;
  for (size_t n : {1, 2, 3, 40, 254, 255, 256, 510, 511, 1000, 3000, 200000}) {
    std::vector<std::string> terms;
    for (size_t i = 0; i < n; ++i) terms.push_back("t" + std::to_string(rng() % (2 * n)));
    std::vector<std::string_view> views(terms.begin(), terms.end());
    const size_t title = n / 3;
    EXPECT_EQ(hasher.fingerprint(std::span(views).first(title), std::span(views).subspan(title)),
              reference_simhash(terms))
        << n << " terms";
  }
  EXPECT_EQ(hasher.fingerprint({}, {}), kNoFingerprint);
}

std::vector<uint64_t> fingerprints_of(const std::string& dump, size_t limit) {
  Analyzer analyzer(Stopwords::defaults());
  SimHasher hasher;
  DumpReader reader(dump, DumpReader::Options{});
  Document doc;
  std::vector<uint64_t> fps;
  while (fps.size() < limit && reader.next(doc)) {
    std::vector<std::string> title = analyzer.analyze(doc.title), abstract = analyzer.analyze(doc.abstract);
    std::vector<std::string_view> t(title.begin(), title.end()), a(abstract.begin(), abstract.end());
    fps.push_back(hasher.fingerprint(t, a));
  }
  return fps;
}

TEST(NearDupes, BandedSearchMissesNothingOnTheSample) {
  const std::vector<uint64_t> fps = fingerprints_of(test::source_path("data/sample.xml"), 1000);
  for (unsigned k : {2u, 4u, 8u}) expect_banded_finds_every_pair(fps, k, "data/sample.xml");
}

TEST(NearDupes, BandedSearchMissesNothingOnGcide) {
  FTS_REQUIRE_SHARED(gcide, "corpus/gcide.xml.gz");
  const std::vector<uint64_t> fps = fingerprints_of(gcide, 3000);  // brute force is quadratic
  for (unsigned k : {3u, 4u, 6u}) expect_banded_finds_every_pair(fps, k, "gcide, first 3000 docs");
}

// ---- planted corpus ------------------------------------------------------

const char* kBase =
    "Kestrelford is a village in the administrative district of Gmina Wola, within Lowland County, in the north "
    "of the country. It lies about twelve kilometres east of the regional capital, beside the river Marr. The "
    "village has a stone church built in the fourteenth century and a railway station on the line to the coast.";

// kBase with words replaced: {from, to} pairs.
std::string changed(std::initializer_list<std::pair<const char*, const char*>> edits) {
  std::string s = kBase;
  for (const auto& [from, to] : edits) s.replace(s.find(from), std::string(from).size(), to);
  return s;
}

struct Planted {
  const char* what;
  std::string title, abstract;
  // In doc 0's cluster at the default distance (4) and at distance 10.
  bool at_default, at_10;
};

std::vector<Planted> planted_corpus() {
  return {
      {"original", "Kestrelford", kBase, true, true},
      {"same text, different title", "Kestrelford (village)", kBase, true, true},
      {"1 word changed", "Kestrelford", changed({{"twelve", "fifteen"}}), false, true},
      {"2 words changed", "Kestrelford", changed({{"twelve", "fifteen"}, {"stone", "brick"}}), false, true},
      {"3 words changed", "Kestrelford", changed({{"twelve", "fifteen"}, {"stone", "brick"}, {"coast", "sea"}}),
       false, true},
      {"sentences reordered", "Kestrelford",
       "The village has a stone church built in the fourteenth century and a railway station on the line to the "
       "coast. It lies about twelve kilometres east of the regional capital, beside the river Marr. Kestrelford is "
       "a village in the administrative district of Gmina Wola, within Lowland County, in the north of the country.",
       true, true},
      {"same template, other village", "Marrow Heath",
       "Marrow Heath is a village in the administrative district of Gmina Dolna, within Upland County, in the south "
       "of the country. It lies about thirty kilometres west of the regional capital, beside the river Tiv. The "
       "village has a wooden church built in the eighteenth century and a bus station on the road to the hills.",
       false, false},
      {"shares many words, other topic", "Lowland County railway",
       "The railway of Lowland County runs north from the regional capital to the coast, with a station in every "
       "village of the district. Its line was built in the fourteenth year of the century; the river Marr is "
       "crossed by a stone bridge twelve kilometres east of the church.",
       false, false},
  };
}

TEST(NearDupes, PlantedCorpusCollapsesTheNearCopiesOnly) {
  const std::vector<Planted> planted = planted_corpus();
  Analyzer analyzer(Stopwords::defaults());
  SimHasher hasher;
  auto fp = [&](const Planted& p, SimHashFeatures features) {
    std::vector<std::string> t = analyzer.analyze(p.title), a = analyzer.analyze(p.abstract);
    std::vector<std::string_view> tv(t.begin(), t.end()), av(a.begin(), a.end());
    return hasher.fingerprint(tv, av, features);
  };
  // The measurement behind the choice of terms over shingles.
  std::printf("%-32s %6s %9s\n", "bits from the original", "terms", "shingles");
  for (const Planted& p : planted) {
    std::printf("%-32s %6u %9u\n", p.what,
                hamming(fp(planted[0], SimHashFeatures::kTerms), fp(p, SimHashFeatures::kTerms)),
                hamming(fp(planted[0], SimHashFeatures::kShingles), fp(p, SimHashFeatures::kShingles)));
  }

  for (unsigned k : {IndexWriterOptions{}.dupe_distance, 10u}) {
    SCOPED_TRACE("distance " + std::to_string(k));
    test::TempDir dir;
    {
      IndexWriter writer(dir.str("index"), {.dupe_distance = k});
      for (const Planted& p : planted) writer.add({.title = p.title, .url = p.title, .abstract = p.abstract});
      writer.commit();
    }
    Index index = Index::open(dir.str("index"));
    const IndexReader& reader = InternalAccess::reader(index);
    auto cluster = [&](DocId d) {
      auto found = reader.find(d);
      return found->first->cluster(found->second);
    };
    std::map<DocId, uint32_t> members;  // by cluster
    for (DocId d = 0; d < planted.size(); ++d) {
      const bool expected = k == 10 ? planted[d].at_10 : planted[d].at_default;
      EXPECT_EQ(cluster(d) == 0, expected) << planted[d].what;
      ++members[cluster(d)];
    }
    Results r = index.search("village", {.limit = 10, .collapse = true});
    EXPECT_EQ(r.total_hits, planted.size());
    EXPECT_EQ(r.collapsed_hits, members.size());
    ASSERT_EQ(r.hits.size(), r.collapsed_hits);
    for (const Hit& h : r.hits) EXPECT_EQ(h.duplicates, members[cluster(h.doc)] - 1) << h.title;
  }
}

// ---- clusters across commits, deletes and merges ----------------------------

// Docs of a few families: each a random abstract over a small vocabulary,
// its members one or two words changed, spread over several commits.
std::vector<Document> family_docs(std::mt19937& rng, size_t families, size_t members) {
  static const std::vector<std::string> words = {
      "alder", "basin", "cedar", "delta", "ember", "fjord", "grove", "heath", "inlet", "juniper", "knoll",
      "larch", "marsh", "nettle", "oxbow", "pine", "quarry", "ridge", "sedge", "tarn", "upland", "vale",
      "willow", "yarrow", "zephyr", "bramble", "copse", "dune", "esker", "fen", "glen", "holm"};
  std::vector<std::vector<std::string>> bases;
  for (size_t f = 0; f < families; ++f) {
    std::vector<std::string> text;
    for (int i = 0; i < 30; ++i) text.push_back(words[rng() % words.size()] + std::to_string(rng() % 40));
    bases.push_back(text);
  }
  std::vector<Document> docs;
  for (size_t m = 0; m < members; ++m) {
    for (size_t f = 0; f < families; ++f) {
      std::vector<std::string> text = bases[f];
      for (size_t c = 0; c < m % 3; ++c) text[rng() % text.size()] = "changed" + std::to_string(rng() % 1000);
      std::string abstract = "common";
      for (const auto& w : text) abstract += " " + w;
      docs.push_back({.title = "family " + std::to_string(f), .url = "u" + std::to_string(docs.size()),
                      .abstract = abstract});
    }
  }
  return docs;
}

// Collapsing as a model: the full ranking grouped by cluster, the first of
// each kept, the rest counted into it.
void expect_collapse_matches_model(const Index& index, const std::string& query, SearchOptions::Sort sort) {
  const IndexReader& reader = InternalAccess::reader(index);
  SearchOptions all{.limit = 100000, .sort = sort, .stored_fields = false};
  const Results full = index.search(query, all);
  std::map<DocId, size_t> position;  // cluster -> index into kept
  std::vector<std::pair<DocId, uint32_t>> kept;
  for (const Hit& h : full.hits) {
    auto found = reader.find(h.doc);
    const DocId cluster = found->first->cluster(found->second);
    auto [it, fresh] = position.try_emplace(cluster, kept.size());
    if (fresh) {
      kept.push_back({h.doc, 0});
    } else {
      ++kept[it->second].second;
    }
  }
  for (size_t offset : {0u, 3u}) {
    SearchOptions o{.limit = 7, .offset = offset, .sort = sort, .stored_fields = false, .collapse = true};
    const Results r = index.search(query, o);
    EXPECT_EQ(r.total_hits, full.total_hits) << query;
    EXPECT_EQ(r.collapsed_hits, kept.size()) << query;
    std::vector<std::pair<DocId, uint32_t>> got, want;
    for (const Hit& h : r.hits) got.push_back({h.doc, h.duplicates});
    for (size_t i = offset; i < std::min(kept.size(), offset + 7); ++i) want.push_back(kept[i]);
    EXPECT_EQ(got, want) << query << " offset " << offset;
  }
}

// What is guaranteed across commits (index/FORMAT.md): docs within distance
// in one segment share a cluster; a doc within distance of a doc of an
// earlier segment has a cluster id no larger than that doc's (it joined that
// cluster, or one with a smaller id it is also near); a cluster id is never
// above the doc's own id. The histories below label segments in id order.
void expect_cluster_guarantees(const IndexReader& reader, unsigned k) {
  const std::vector<ClusteredDoc> docs = clustered_docs(reader, false, 0);
  std::map<DocId, const IndexReader::Segment*> segment_of;
  for (const auto& s : reader.segments()) {
    for (DocId d = 0; d < s.reader->doc_count(); ++d) segment_of[s.global(d)] = &s;
  }
  for (const ClusteredDoc& a : docs) {
    EXPECT_LE(a.cluster, a.doc);
    for (const ClusteredDoc& b : docs) {
      if (a.doc >= b.doc || hamming(a.fingerprint, b.fingerprint) > k) continue;
      if (segment_of[a.doc] == segment_of[b.doc]) {
        EXPECT_EQ(a.cluster, b.cluster) << a.doc << " " << b.doc;
      } else {
        // b's segment holds later ids: it was given its cluster ids after a's.
        EXPECT_LE(b.cluster, a.cluster) << a.doc << " " << b.doc;
      }
    }
  }
}

TEST(NearDupes, CollapseAcrossSegmentsDeletesAndMerges) {
  std::mt19937 rng(7);
  const std::vector<Document> docs = family_docs(rng, 12, 6);  // 72 docs, families interleaved
  test::TempDir dir;
  const std::string path = dir.str("index");
  IndexWriterOptions options;
  options.merge = false;
  options.dupe_distance = 6;
  // Six commits of 12: every family spans six segments.
  for (size_t c = 0; c < 6; ++c) {
    IndexWriter writer(path, options);
    for (size_t i = c * 12; i < (c + 1) * 12; ++i) writer.add(docs[i]);
    writer.commit();
  }
  auto check_all = [&](const char* when) {
    SCOPED_TRACE(when);
    Index index = Index::open(path);
    for (const char* q : {"common", "family", "alder1 OR basin2 OR cedar3", "common -grove5"}) {
      expect_collapse_matches_model(index, q, SearchOptions::Sort::kScore);
      expect_collapse_matches_model(index, q, SearchOptions::Sort::kDocId);
    }
    expect_cluster_guarantees(InternalAccess::reader(index), options.dupe_distance);
    ASSERT_EQ(test::run({test::tool_path("fts-index"), "check", path}).exit_code, 0);
  };
  check_all("six commits");
  {
    // Each segment's ids are what its commit gave it looking its docs up in
    // the segments before: the same with the tables of every layout.
    Index index = Index::open(path);
    const auto& segments = InternalAccess::reader(index).segments();
    ASSERT_EQ(segments.size(), 6u);
    for (size_t i = 1; i < segments.size(); ++i) {
      std::vector<const IndexReader::Segment*> known;
      for (size_t j = 0; j < i; ++j) known.push_back(&segments[j]);
      const IndexReader::Segment* fresh[] = {&segments[i]};
      std::vector<DocId> stored;
      for (DocId d = 0; d < segments[i].reader->doc_count(); ++d) stored.push_back(segments[i].cluster(d));
      for (unsigned blocks = options.dupe_distance + 1; blocks <= options.dupe_distance + 3; ++blocks) {
        EXPECT_EQ(cluster_ids_of(fresh, known, options.dupe_distance, blocks)[0], stored)
            << "segment " << i << ", " << blocks << " blocks";
      }
    }
  }
  {
    Index index = Index::open(path);
    // The unchanged members of a family (two in six) are identical: one cluster across segments.
    const Results r = index.search("family", {.limit = 100, .collapse = true});
    EXPECT_LT(r.collapsed_hits, 72u);
    std::printf("six commits: 72 hits collapse to %llu\n", static_cast<unsigned long long>(r.collapsed_hits));
  }
  {
    IndexWriter writer(path, options);
    for (DocId d = 0; d < 72; d += 5) writer.delete_doc(d);  // the first doc of some clusters too
    writer.commit();
  }
  check_all("after deletes");
  {
    IndexWriter writer(path, options);
    writer.force_merge(2);
    writer.commit();
  }
  check_all("merged into two");
  {
    IndexWriter writer(path, options);
    writer.force_merge(1);
    writer.commit();
  }
  check_all("merged into one");
  // One segment: its clusters are exactly those of all its fingerprints at once.
  Index index = Index::open(path);
  const std::vector<ClusteredDoc> stored = clustered_docs(InternalAccess::reader(index), false, 0);
  const std::vector<ClusteredDoc> fresh = clustered_docs(InternalAccess::reader(index), true, options.dupe_distance);
  ASSERT_EQ(stored.size(), fresh.size());
  for (size_t i = 0; i < stored.size(); ++i) {
    // The merge keeps the id of a cluster whose first doc was deleted, so
    // compare the partitions, not the ids.
    for (size_t j = 0; j < stored.size(); ++j) {
      EXPECT_EQ(stored[i].cluster == stored[j].cluster, fresh[i].cluster == fresh[j].cluster) << i << " " << j;
    }
  }
}

TEST(NearDupes, OneCommitsSegmentsClusterAsOne) {
  // Six segments flushed by one commit, families spread over all of them:
  // the commit clusters their docs together, so the clusters are those of
  // all the fingerprints at once, as a one-segment build has them.
  std::mt19937 rng(11);
  const std::vector<Document> docs = family_docs(rng, 12, 6);
  test::TempDir dir;
  const std::string path = dir.str("index");
  IndexWriterOptions options;
  options.merge = false;
  options.max_segment_docs = 12;
  options.dupe_distance = 6;
  {
    IndexWriter writer(path, options);
    for (const auto& d : docs) writer.add(d);
    writer.commit();
  }
  Index index = Index::open(path);
  ASSERT_EQ(InternalAccess::reader(index).segments().size(), 6u);
  const std::vector<ClusteredDoc> stored = clustered_docs(InternalAccess::reader(index), false, 0);
  const std::vector<ClusteredDoc> fresh = clustered_docs(InternalAccess::reader(index), true, options.dupe_distance);
  ASSERT_EQ(stored.size(), docs.size());
  size_t across = 0;  // pairs of one cluster in two segments
  for (size_t i = 0; i < stored.size(); ++i) {
    EXPECT_EQ(stored[i].cluster, fresh[i].cluster) << stored[i].doc;
    for (size_t j = i + 1; j < stored.size(); ++j) across += stored[i].cluster == stored[j].cluster && i / 12 != j / 12;
  }
  EXPECT_GT(across, 0u) << "the families should span segments";
}

// The sample in three segments at distance 8 (some 14 clusters): queries
// matching hundreds of clusters grow the collector's table several times.
TEST(NearDupes, CollapseOfTheSampleMatchesTheModel) {
  test::TempDir dir;
  IndexWriterOptions options;
  options.merge = false;
  options.max_segment_docs = 100;
  options.dupe_distance = 8;
  {
    IndexWriter writer(dir.str("index"), options);
    DumpReader reader(test::source_path("data/sample.xml"), DumpReader::Options{});
    Document doc;
    while (reader.next(doc)) writer.add(std::move(doc));
    writer.commit();
  }
  Index index = Index::open(dir.str("index"));
  ASSERT_EQ(InternalAccess::reader(index).segments().size(), 3u);
  for (const char* q : {"-zzzzunknown", "the OR a OR places OR music", "places", "title:music"}) {
    expect_collapse_matches_model(index, q, SearchOptions::Sort::kScore);
    expect_collapse_matches_model(index, q, SearchOptions::Sort::kDocId);
  }
  EXPECT_LT(index.search("-zzzzunknown", {.collapse = true}).collapsed_hits, index.doc_count());
}

TEST(NearDupes, AnIndexWithoutNearDupesCollapsesNothing) {
  test::TempDir dir;
  IndexWriterOptions options;
  options.near_dupes = false;
  {
    IndexWriter writer(dir.str("index"), options);
    for (int i = 0; i < 3; ++i) writer.add({.title = "same", .url = std::to_string(i), .abstract = kBase});
    writer.commit();
  }
  EXPECT_FALSE(std::filesystem::exists(dir.str("index/seg-1-0.sim")));
  const Results r = Index::open(dir.str("index")).search("village", {.collapse = true});
  EXPECT_EQ(r.total_hits, 3u);
  EXPECT_EQ(r.collapsed_hits, 3u);
  // Appending with fingerprints to it: the new docs collapse among themselves.
  {
    IndexWriter writer(dir.str("index"));
    for (int i = 0; i < 2; ++i) writer.add({.title = "same", .url = "n" + std::to_string(i), .abstract = kBase});
    writer.commit();
  }
  const Results after = Index::open(dir.str("index")).search("village", {.collapse = true});
  EXPECT_EQ(after.total_hits, 5u);
  EXPECT_EQ(after.collapsed_hits, 4u);
  EXPECT_THROW(IndexWriter(dir.str("other"), IndexWriterOptions{.dupe_distance = 16}), ArgumentError);
}

}  // namespace
}  // namespace fts
