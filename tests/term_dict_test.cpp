// Term dictionary against std::map: lookups, iteration, seek, prefixes, and
// damaged payloads (errors, never crashes).
#include "index/format/term_dict.h"

#include <zlib.h>

#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

#include "support/test_support.h"

namespace fts {
namespace {

using Map = std::map<std::string, TermInfo>;  // std::string orders bytes as unsigned

// Encoded files are held in vectors of exactly their size: ASan then sees
// a read one byte past the end (a std::string keeps a NUL there, and short
// ones live inside the string object).
using Bytes = std::vector<uint8_t>;

std::span<const uint8_t> as_span(const Bytes& b) { return {b.data(), b.size()}; }

Bytes build(const Map& m) {
  VectorSink sink;
  TermDictWriter w(sink);
  for (const auto& [k, v] : m) w.add(k, v);
  w.finish();
  EXPECT_EQ(w.size(), m.size());
  return Bytes(sink.bytes.begin(), sink.bytes.end());
}

TermInfo random_info(std::mt19937_64& rng, uint64_t& postings, uint64_t& positions) {
  TermInfo t;
  t.doc_freq = static_cast<uint32_t>(1 + rng() % (rng() % 4 == 0 ? 1'000'000 : 20));
  t.total_freq = t.doc_freq + rng() % 100;
  postings += rng() % 5000;
  positions += rng() % 50000;
  t.postings_offset = postings;
  t.positions_offset = rng() % 10 == 0 ? 0 : positions;  // some fields have none
  return t;
}

// Keys with shared prefixes, every byte value, and some very long ones.
Map random_map(std::mt19937_64& rng, size_t n) {
  Map m;
  uint64_t post = 0, pos = 0;
  std::vector<std::string> stems = {"", "a", "ab", "abc", std::string(1, '\0'), "\xff\xfe", "zz"};
  while (m.size() < n) {
    std::string k = stems[rng() % stems.size()];
    size_t len = rng() % 100 == 0 ? 1000 + rng() % 2000 : rng() % 12;
    for (size_t i = 0; i < len; ++i) {
      k.push_back(rng() % 3 == 0 ? static_cast<char>(rng()) : static_cast<char>('a' + rng() % 4));
    }
    if (rng() % 5 == 0) stems.push_back(k);
    m.emplace(k, TermInfo{});
  }
  for (auto& [k, v] : m) v = random_info(rng, post, pos);
  return m;
}

void check_against(const TermDictReader& d, const Map& m, std::mt19937_64& rng) {
  ASSERT_EQ(d.size(), m.size());
  // Every key is found; near misses are not.
  for (const auto& [k, v] : m) {
    auto got = d.find(k);
    ASSERT_TRUE(got) << "missing key of size " << k.size();
    EXPECT_EQ(*got, v);
    for (std::string probe : {k + '\0', k + "a", k.substr(0, k.size() / 2), k.empty() ? "" : k.substr(1)}) {
      EXPECT_EQ(d.find(probe).has_value(), m.count(probe) > 0);
    }
  }
  // Full iteration.
  auto it = d.begin();
  for (const auto& [k, v] : m) {
    ASSERT_TRUE(it.valid());
    ASSERT_EQ(it.key(), k);
    ASSERT_EQ(it.info(), v);
    it.next();
  }
  EXPECT_FALSE(it.valid());
  // Seek to random strings and to neighbours of keys.
  std::vector<std::string> keys;
  for (const auto& kv : m) keys.push_back(kv.first);
  for (int i = 0; i < 300; ++i) {
    std::string probe;
    if (!keys.empty() && i % 2 == 0) {
      probe = keys[rng() % keys.size()];
      if (i % 4 == 0 && !probe.empty()) probe.back() = static_cast<char>(probe.back() + 1);
    } else {
      for (size_t j = rng() % 6; j > 0; --j) probe.push_back(static_cast<char>('a' + rng() % 5));
    }
    auto want = m.lower_bound(probe);
    auto got = d.seek(probe);
    for (int step = 0; step < 40 && want != m.end(); ++step, ++want, got.next()) {
      ASSERT_TRUE(got.valid());
      ASSERT_EQ(got.key(), want->first);
      ASSERT_EQ(got.info(), want->second);
    }
    if (want == m.end()) {
      EXPECT_FALSE(got.valid());
    }
  }
  // Prefix enumeration.
  for (std::string prefix : {"", "a", "ab", "abc", "zz", "\xff", "q"}) {
    std::vector<std::string> want, got;
    for (auto p = m.lower_bound(prefix); p != m.end() && p->first.starts_with(prefix); ++p) want.push_back(p->first);
    d.for_each_prefix(prefix, [&](std::string_view k, const TermInfo& info) {
      got.emplace_back(k);
      EXPECT_EQ(info, m.at(std::string(k)));
    });
    EXPECT_EQ(got, want) << "prefix " << prefix;
  }
}

// Gives m's keys random infos, builds their dictionary and checks it
// against m; returns its bytes.
Bytes with_random_infos_checked(Map& m, std::mt19937_64& rng) {
  uint64_t post = 0, pos = 0;
  for (auto& [k, v] : m) v = random_info(rng, post, pos);
  Bytes bytes = build(m);
  TermDictReader d(as_span(bytes), "test.dict");
  check_against(d, m, rng);
  return bytes;
}

TEST(TermDict, MatchesMapOnRandomKeys) {
  std::mt19937_64 rng(1);
  for (size_t n : {size_t{2000}, size_t{20000}}) {
    Map m = random_map(rng, n);
    Bytes bytes = build(m);
    TermDictReader d(as_span(bytes), "test.dict");
    check_against(d, m, rng);
  }
}

TEST(TermDict, BlockBoundarySizes) {
  std::mt19937_64 rng(2);
  for (size_t n : {1, 2, 31, 32, 33, 63, 64, 65, 96, 97}) {
    Map m = random_map(rng, n);
    Bytes bytes = build(m);
    TermDictReader d(as_span(bytes), "test.dict");
    check_against(d, m, rng);
  }
}

TEST(TermDict, Empty) {
  Bytes bytes = build({});
  TermDictReader d(as_span(bytes), "empty.dict");
  EXPECT_EQ(d.size(), 0u);
  EXPECT_FALSE(d.find("").has_value());
  EXPECT_FALSE(d.find("x").has_value());
  EXPECT_FALSE(d.begin().valid());
  EXPECT_FALSE(d.seek("m").valid());
  int calls = 0;
  d.for_each_prefix("", [&](std::string_view, const TermInfo&) { ++calls; });
  EXPECT_EQ(calls, 0);
  TermDictReader defaulted;
  EXPECT_EQ(defaulted.size(), 0u);
  EXPECT_FALSE(defaulted.find("x").has_value());
  EXPECT_FALSE(defaulted.begin().valid());
}

TEST(TermDict, EmptyKeyAndExtremeInfos) {
  Map m;
  m[""] = TermInfo{0, 0, 0, 0};
  m[std::string(1, '\0')] = TermInfo{UINT32_MAX, UINT64_MAX, UINT64_MAX, 0};
  m["a"] = TermInfo{7, 3, 5, UINT64_MAX};  // total below doc_freq still round-trips
  m["b"] = TermInfo{1, 1, 0, 1};           // offsets going backwards
  Bytes bytes = build(m);
  TermDictReader d(as_span(bytes), "x.dict");
  std::mt19937_64 rng(3);
  check_against(d, m, rng);
}

// Lookups order blocks by their first keys' 8-byte prefixes: keys that share
// those bytes (long common prefixes, short keys padded with what a NUL byte
// spells, trailing NULs) are told apart by the whole key.
TEST(TermDict, KeysSharingTheirFirstEightBytes) {
  Map m;
  const std::string shared = "\x02" "abcdefghij";
  for (int i = 0; i < 3000; ++i) m[shared + std::to_string(i * 7919 % 100000)] = TermInfo{};
  for (std::string k : {std::string("\x02" "abc"), std::string("\x02" "abc\0", 5), std::string("\x02" "abc\0\0\0\0\0", 9),
                        std::string("\x02" "abcdefg"), std::string("\x02" "abcdefgh"), std::string("\x02" "abcdefgh\0", 10),
                        std::string("\x02" "abcdefgi"), std::string("\x02" "abcdefg\xff"), std::string("\x02"), std::string()}) {
    m[k] = TermInfo{};
  }
  std::mt19937_64 rng(5);
  const Bytes bytes = with_random_infos_checked(m, rng);
  TermDictReader d(as_span(bytes), "shared.dict");
  for (std::string probe : {shared, shared + "z", shared.substr(0, 8), std::string("\x02" "abcdefgh\0\0", 11),
                            std::string("\x02" "abcdefgj"), std::string("\x03")}) {
    EXPECT_EQ(d.find(probe).has_value(), m.count(probe) > 0) << probe;
  }
}

// Format 4 stores each block's key prefix before the tail; a format 3
// dictionary (the same bytes without them) makes them at open and answers
// the same.
TEST(TermDict, AFormat3DictionaryWithoutStoredPrefixesReadsTheSame) {
  std::mt19937_64 rng(7);
  Map m = random_map(rng, 3000);
  const Bytes v4 = with_random_infos_checked(m, rng);
  const size_t tail = 4 * 8 + 4 + 4, blocks = (m.size() + 15) / 16;
  Bytes v3(v4.begin(), v4.end() - static_cast<std::ptrdiff_t>(tail + blocks * 8));
  v3.insert(v3.end(), v4.end() - static_cast<std::ptrdiff_t>(tail), v4.end());
  EXPECT_THROW(TermDictReader(as_span(v3), "v3.dict"), IndexError);  // read as format 4
  TermDictReader d(as_span(v3), "v3.dict", 3);
  check_against(d, m, rng);
  EXPECT_NO_THROW(d.check());
}

// Opening reads only the tail: check() is what finds a damaged block index
// or a stored prefix that disagrees with its block's first key (which would
// send lookups of present keys to the wrong block).
TEST(TermDict, CheckFindsADamagedBlockIndex) {
  std::mt19937_64 rng(8);
  Map m = random_map(rng, 1000);
  const Bytes bytes = with_random_infos_checked(m, rng);
  EXPECT_NO_THROW(TermDictReader(as_span(bytes), "ok.dict").check());
  const size_t tail = 4 * 8 + 4 + 4, blocks = (m.size() + 15) / 16;
  const size_t prefixes = bytes.size() - tail - blocks * 8, block_starts = prefixes - (blocks + 1) * 8;
  for (size_t at : {prefixes + 8 * (blocks / 2) + 7, prefixes + 3, block_starts + 8 * (blocks / 2) + 5}) {
    Bytes damaged = bytes;
    damaged[at] ^= 0x10;
    TermDictReader d(as_span(damaged), "bad.dict");
    try {
      d.check();
      ADD_FAILURE() << "check() passed a flipped byte at " << at;
    } catch (const IndexError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("bad.dict: ", 0), 0u) << e.what();
    }
  }
}

TEST(TermDict, TermKeyPutsFieldFirst) {
  EXPECT_EQ(term_key(Field::kTitle, "cat"), "\x01" "cat");
  EXPECT_LT(term_key(Field::kAny, "zzz"), term_key(Field::kTitle, "a"));
}

TEST(TermDict, RejectsUnorderedKeys) {
  VectorSink sink;
  TermDictWriter w(sink);
  w.add("b", {});
  EXPECT_THROW(w.add("b", {}), std::logic_error);
  EXPECT_THROW(w.add("a", {}), std::logic_error);
  w.add("\x80", {});  // bytes compare unsigned: 0x80 sorts after 'b'
  EXPECT_THROW(w.add("c", {}), std::logic_error);
}

// Damage must give IndexError or (for bytes that decode validly) some
// answer, never a crash, hang or out-of-bounds read (run under ASan).
void exercise(const Bytes& bytes, const Map& m) {
  try {
    TermDictReader d(as_span(bytes), "bad.dict");
    for (const auto& kv : m) (void)d.find(kv.first);
    (void)d.find("zzzz");
    size_t n = 0;
    for (auto it = d.begin(); it.valid() && n <= m.size() * 2; it.next()) ++n;
    (void)d.seek("ab").valid();
    d.for_each_prefix("a", [](std::string_view, const TermInfo&) {});
  } catch (const IndexError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("bad.dict: ", 0), 0u) << e.what();
  }
}

TEST(TermDict, TruncatedPayloadsAreErrors) {
  std::mt19937_64 rng(4);
  Map m = random_map(rng, 100);
  Bytes bytes = build(m);
  for (size_t len = 0; len < bytes.size(); ++len) {
    Bytes cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(len));
    EXPECT_THROW(TermDictReader(as_span(cut), "bad.dict"), IndexError) << len;
    exercise(cut, m);
  }
}

TEST(TermDict, FlippedBytesNeverCrash) {
  std::mt19937_64 rng(5);
  Map m = random_map(rng, 100);
  Bytes bytes = build(m);
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t mask : {0x01, 0x40, 0x80, 0xff}) {
      Bytes damaged = bytes;
      damaged[i] ^= mask;
      exercise(damaged, m);
    }
  }
}

TEST(TermDict, ThroughAMappedFile) {
  test::TempDir dir;
  std::mt19937_64 rng(6);
  Map m = random_map(rng, 500);
  {
    FileWriter f(dir.str("seg.dict"), FileKind::kTermDict);
    TermDictWriter w(f);
    for (const auto& [k, v] : m) w.add(k, v);
    w.finish();
    f.finish();
  }
  MappedFile file(dir.str("seg.dict"), FileKind::kTermDict);
  file.verify_checksum();
  TermDictReader d(file.payload(), file.path());
  check_against(d, m, rng);
}

// The dictionary of a real vocabulary: the words of GCIDE (bench/
// term_dict_bench.cpp measures its size and speed).
TEST(TermDict, RealVocabulary) {
  FTS_REQUIRE_SHARED(words_path, "corpus/gcide.xml.gz");
  gzFile gz = gzopen(words_path.c_str(), "rb");
  ASSERT_NE(gz, nullptr);
  std::unordered_set<std::string> words;
  std::string word;
  char buf[1 << 16];
  for (int n; (n = gzread(gz, buf, sizeof buf)) > 0;) {
    for (int i = 0; i < n; ++i) {
      char c = buf[i];
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
        word.push_back(static_cast<char>(c | 0x20));
      } else if (!word.empty()) {
        words.insert(word);
        word.clear();
      }
    }
  }
  gzclose(gz);
  Map m;
  for (const auto& w : words) m.emplace(term_key(Field::kAbstract, w), TermInfo{});
  ASSERT_GT(m.size(), 1000u);
  std::mt19937_64 rng(7);
  with_random_infos_checked(m, rng);
}

}  // namespace
}  // namespace fts
