// Doc store: round trip, random access, threads, huge fields, damage.
#include "index/format/doc_store.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "support/test_support.h"

namespace fts {
namespace {

// Encoded files are held in vectors of exactly their size: ASan then sees
// a read one byte past the end (a std::string keeps a NUL there, and short
// ones live inside the string object).
using Bytes = std::vector<uint8_t>;

std::span<const uint8_t> as_span(const Bytes& b) { return {b.data(), b.size()}; }

std::string random_text(std::mt19937_64& rng, size_t max_len) {
  static const std::vector<std::string> pieces = {"cat ", "dog ", "Zürich ", "日本語 ", "\xff\xfe", std::string(1, '\0'),
                                                  "the ", "quick ", "Ωμέγα ", "\n"};
  std::string s;
  size_t len = rng() % (max_len + 1);
  while (s.size() < len) s += pieces[rng() % pieces.size()];
  return s;
}

std::vector<StoredDoc> random_docs(std::mt19937_64& rng, size_t n) {
  std::vector<StoredDoc> docs(n);
  for (auto& d : docs) {
    d.title = random_text(rng, 40);
    d.url = rng() % 10 == 0 ? "" : "https://en.wikipedia.org/wiki/" + random_text(rng, 20);
    d.abstract = rng() % 7 == 0 ? "" : random_text(rng, rng() % 50 == 0 ? 20000 : 600);
  }
  return docs;
}

Bytes build(const std::vector<StoredDoc>& docs) {
  VectorSink sink;
  DocStoreWriter w(sink);
  for (const auto& d : docs) w.add(d.title, d.url, d.abstract);
  w.finish();
  return Bytes(sink.bytes.begin(), sink.bytes.end());
}

void expect_doc(const StoredDoc& got, const StoredDoc& want, size_t id) {
  EXPECT_EQ(got.title, want.title) << "doc " << id;
  EXPECT_EQ(got.url, want.url) << "doc " << id;
  EXPECT_EQ(got.abstract, want.abstract) << "doc " << id;
}

TEST(DocStore, RoundTripInRandomOrder) {
  std::mt19937_64 rng(1);
  auto docs = random_docs(rng, 3000);
  Bytes bytes = build(docs);
  DocStoreReader r(as_span(bytes), "test.docs");
  ASSERT_EQ(r.size(), docs.size());
  std::vector<DocId> order(docs.size());
  for (DocId i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (DocId id : order) expect_doc(r.get(id), docs[id], id);
  for (DocId id = 0; id < docs.size(); ++id) expect_doc(r.get(id), docs[id], id);  // sequential: cache hits
  EXPECT_THROW(r.get(static_cast<DocId>(docs.size())), std::out_of_range);
  EXPECT_THROW(r.get(UINT32_MAX), std::out_of_range);
}

TEST(DocStore, CopiedBlocksReadBackAmongAddedDocs) {
  std::mt19937_64 rng(4);
  const auto copied = random_docs(rng, 700), before = random_docs(rng, 5), after = random_docs(rng, 9);
  const Bytes source_bytes = build(copied);
  const DocStoreReader source(as_span(source_bytes), "source.docs");
  ASSERT_GT(source.block_count(), 2u);
  VectorSink sink;
  DocStoreWriter w(sink);
  for (const auto& d : before) w.add(d.title, d.url, d.abstract);
  for (uint64_t b = 0; b < source.block_count(); ++b) w.add_block(source.block(b));
  for (const auto& d : after) w.add(d.title, d.url, d.abstract);
  w.finish();
  EXPECT_THROW(source.block(source.block_count()), std::out_of_range);

  std::vector<StoredDoc> want = before;
  want.insert(want.end(), copied.begin(), copied.end());
  want.insert(want.end(), after.begin(), after.end());
  const Bytes bytes(sink.bytes.begin(), sink.bytes.end());
  DocStoreReader r(as_span(bytes), "merged.docs");
  ASSERT_EQ(r.size(), want.size());
  for (DocId id = 0; id < want.size(); ++id) expect_doc(r.get(id), want[id], id);
}

TEST(DocStore, TwoReadersDoNotShareCachedBlocks) {
  std::mt19937_64 rng(2);
  auto a = random_docs(rng, 50), b = random_docs(rng, 50);
  Bytes ba = build(a), bb = build(b);
  DocStoreReader ra(as_span(ba), "a"), rb(as_span(bb), "b");
  for (DocId i = 0; i < 50; ++i) {
    expect_doc(ra.get(i), a[i], i);
    expect_doc(rb.get(i), b[i], i);
  }
}

TEST(DocStore, EmptyStoreAndEmptyFields) {
  Bytes bytes = build({});
  DocStoreReader r(as_span(bytes), "empty.docs");
  EXPECT_EQ(r.size(), 0u);
  EXPECT_THROW(r.get(0), std::out_of_range);
  DocStoreReader defaulted;
  EXPECT_EQ(defaulted.size(), 0u);
  EXPECT_THROW(defaulted.get(0), std::out_of_range);

  std::vector<StoredDoc> blanks(300);
  Bytes b2 = build(blanks);
  DocStoreReader r2(as_span(b2), "blank.docs");
  ASSERT_EQ(r2.size(), 300u);
  for (DocId i = 0; i < 300; i += 7) expect_doc(r2.get(i), blanks[i], i);
}

TEST(DocStore, HugeAbstract) {
  std::mt19937_64 rng(3);
  std::vector<StoredDoc> docs = random_docs(rng, 10);
  std::string huge(50 << 20, '\0');
  for (size_t i = 0; i < huge.size(); i += 8) {  // poorly compressible
    uint64_t v = rng();
    std::memcpy(&huge[i], &v, std::min<size_t>(8, huge.size() - i));
  }
  docs.insert(docs.begin() + 5, StoredDoc{"Huge", "u", huge});
  Bytes bytes = build(docs);
  DocStoreReader r(as_span(bytes), "huge.docs");
  for (DocId i : {10u, 5u, 4u, 6u, 0u}) expect_doc(r.get(i), docs[i], i);
}

TEST(DocStore, ConcurrentReaders) {
  std::mt19937_64 rng(4);
  auto docs = random_docs(rng, 2000);
  Bytes bytes = build(docs);
  const DocStoreReader r(as_span(bytes), "mt.docs");
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 local(static_cast<unsigned>(t));
      for (int i = 0; i < 3000; ++i) {
        DocId id = local() % docs.size();
        StoredDoc d = r.get(id);
        if (d.title != docs[id].title || d.url != docs[id].url || d.abstract != docs[id].abstract) ++mismatches[t];
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

// Damage gives IndexError naming the file, never a crash (run under ASan).
void exercise(const Bytes& bytes, size_t n) {
  try {
    DocStoreReader r(as_span(bytes), "bad.docs");
    for (DocId i = 0; i < std::min<size_t>(n, r.size()); ++i) (void)r.get(i);
  } catch (const IndexError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("bad.docs: ", 0), 0u) << e.what();
  }
}

TEST(DocStore, TruncationIsAnError) {
  std::mt19937_64 rng(5);
  auto docs = random_docs(rng, 400);
  Bytes bytes = build(docs);
  for (size_t len = 0; len < bytes.size(); len += 1 + len / 50) {
    Bytes cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(len));
    EXPECT_THROW(DocStoreReader(as_span(cut), "bad.docs"), IndexError) << len;
    exercise(cut, docs.size());
  }
}

TEST(DocStore, FlippedBytesAreCaught) {
  std::mt19937_64 rng(6);
  auto docs = random_docs(rng, 400);
  Bytes bytes = build(docs);
  int detected = 0, trials = 0;
  for (size_t i = 0; i < bytes.size(); i += 1 + rng() % 23) {
    Bytes damaged = bytes;
    damaged[i] ^= static_cast<uint8_t>(1 << (rng() % 8));
    ++trials;
    try {
      DocStoreReader r(as_span(damaged), "bad.docs");
      bool same = true;
      for (DocId d = 0; d < docs.size(); ++d) {
        StoredDoc got = r.get(d);
        same = same && got.title == docs[d].title && got.url == docs[d].url && got.abstract == docs[d].abstract;
      }
      // zstd's frame checksum catches damage inside a block; only bytes
      // the format ignores (e.g. a sentinel's unused size) may pass.
      if (same) continue;
      ADD_FAILURE() << "flip at " << i << " returned wrong documents silently";
    } catch (const IndexError& e) {
      ++detected;
      EXPECT_EQ(std::string(e.what()).rfind("bad.docs: offset ", 0), 0u) << e.what();
    }
  }
  EXPECT_GT(detected, trials * 9 / 10);
}

// Opening reads only the tail; check() verifies the whole block table, and
// get() the entries it reads.
TEST(DocStore, CheckFindsADamagedTable) {
  std::mt19937_64 rng(7);
  auto docs = random_docs(rng, 400);
  const Bytes bytes = build(docs);
  DocStoreReader pristine(as_span(bytes), "ok.docs");
  ASSERT_GT(pristine.block_count(), 2u);
  EXPECT_NO_THROW(pristine.check());
  // Entry i: u64 offset, u64 raw size, u32 first doc; then the 24-byte tail.
  const size_t entry = 20, table = bytes.size() - 24 - (pristine.block_count() + 1) * entry;
  const size_t middle = table + entry * (pristine.block_count() / 2);
  for (size_t at : {middle + 5, middle + 16 + 3}) {  // an offset's high byte, a first doc's
    Bytes damaged = bytes;
    damaged[at] ^= 0x40;
    DocStoreReader r(as_span(damaged), "bad.docs");
    EXPECT_THROW(r.check(), IndexError) << at;
    bool caught = false;
    for (DocId d = 0; d < docs.size() && !caught; ++d) {
      try {
        (void)r.get(d);
      } catch (const IndexError&) {
        caught = true;
      }
    }
    EXPECT_TRUE(caught) << "get() read through a damaged table entry at " << at;
  }
}

TEST(DocStore, ThroughAMappedFile) {
  test::TempDir dir;
  std::mt19937_64 rng(7);
  auto docs = random_docs(rng, 500);
  {
    FileWriter f(dir.str("seg.docs"), FileKind::kDocStore);
    DocStoreWriter w(f);
    for (const auto& d : docs) w.add(d.title, d.url, d.abstract);
    w.finish();
    f.finish();
  }
  MappedFile file(dir.str("seg.docs"), FileKind::kDocStore);
  file.verify_checksum();
  DocStoreReader r(file.payload(), file.path());
  for (DocId i = 0; i < docs.size(); i += 3) expect_doc(r.get(i), docs[i], i);
}

}  // namespace
}  // namespace fts
