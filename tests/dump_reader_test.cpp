// DumpReader: fields and XML quirks, plain/gzip/stdin input, damage handling
// (every fatal case is one DumpError naming the file), chunk boundaries and
// the shared corpora.
#include "dump/dump_reader.h"
#include "dump/dump_slices.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <fstream>
#include <sstream>
#include <vector>

#include "support/test_support.h"

namespace fts {
namespace {

using test::TempDir;
using test::write_file;

struct ReadResult {
  std::vector<Document> docs;
  std::vector<std::string> warnings;
  uint64_t skipped = 0;
};

ReadResult read_all(const std::string& path, DumpReader::Options options = {}) {
  ReadResult r;
  options.warn = [&r](const std::string& w) { r.warnings.push_back(w); };
  DumpReader reader(path, options);
  Document doc;
  while (reader.next(doc)) r.docs.push_back(doc);
  r.skipped = reader.docs_skipped();
  return r;
}

// Reads an XML string written to a temp file.
ReadResult read_xml(const std::string& xml, DumpReader::Options options = {}) {
  TempDir dir;
  write_file(dir.str("dump.xml"), xml);
  return read_all(dir.str("dump.xml"), options);
}

// The message of the DumpError that reading path throws ("" if none).
std::string read_error(const std::string& path, DumpReader::Options options = {}) {
  try {
    read_all(path, options);
  } catch (const DumpError& e) {
    return e.what();
  }
  return "";
}

std::string gzip(const std::string& data, int level = 6) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&zs, data.size()) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

std::string doc_xml(const std::string& title, const std::string& abstract, const std::string& links = "") {
  return "<doc>\n<title>Wikipedia: " + title + "</title>\n<url>https://en.wikipedia.org/wiki/" + title +
         "</url>\n<abstract>" + abstract + "</abstract>\n<links>" + links + "</links>\n</doc>\n";
}

std::string feed(const std::string& docs) { return "<feed>\n" + docs + "</feed>\n"; }

size_t count_code_points(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

TEST(DumpReader, ReadsFieldsAndStripsTitlePrefix) {
  auto r = read_xml(feed(doc_xml("Kit-Cat Klock", "A clock shaped like a cat.",
                                 "<sublink linktype=\"nav\"><anchor>History</anchor><link>x#History</link></sublink>"
                                 "<sublink linktype=\"nav\"><anchor>See also</anchor><link>x#See</link></sublink>") +
                         doc_xml("Second", "Another.")));
  ASSERT_EQ(r.docs.size(), 2u);
  EXPECT_EQ(r.docs[0].title, "Kit-Cat Klock");
  EXPECT_EQ(r.docs[0].url, "https://en.wikipedia.org/wiki/Kit-Cat Klock");
  EXPECT_EQ(r.docs[0].abstract, "A clock shaped like a cat.");
  EXPECT_EQ(r.docs[0].links, (std::vector<std::string>{"History", "See also"}));
  EXPECT_EQ(r.docs[1].title, "Second");
  EXPECT_TRUE(r.docs[1].links.empty());  // capacity reuse must not leak links
  EXPECT_TRUE(r.warnings.empty());
}

TEST(DumpReader, DecodesEveryEntityForm) {
  auto r = read_xml(feed(
      "<doc><title>Wikipedia: AT&amp;T</title><url>u?a=1&amp;b=2</url>"
      "<abstract>&amp;amp; &lt;b&gt; &quot;q&quot; it&#39;s it&#039;s caf&#233; &#x4E2D;&#x6587; &apos;</abstract>"
      "<links><sublink><anchor>Q&amp;A</anchor></sublink></links></doc>"));
  ASSERT_EQ(r.docs.size(), 1u);
  EXPECT_EQ(r.docs[0].title, "AT&T");
  EXPECT_EQ(r.docs[0].url, "u?a=1&b=2");
  EXPECT_EQ(r.docs[0].abstract, "&amp; <b> \"q\" it's it's caf\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87 '");
  EXPECT_EQ(r.docs[0].links, (std::vector<std::string>{"Q&A"}));
}

TEST(DumpReader, EmptyAndWhitespaceAbstracts) {
  auto r = read_xml(feed("<doc><title>Wikipedia: A</title><abstract /></doc>"
                         "<doc><title>Wikipedia: B</title><abstract></abstract></doc>"
                         "<doc><title>Wikipedia: C</title><abstract>   </abstract></doc>"));
  ASSERT_EQ(r.docs.size(), 3u);
  EXPECT_EQ(r.docs[0].abstract, "");
  EXPECT_EQ(r.docs[1].abstract, "");
  EXPECT_EQ(r.docs[2].abstract, "   ");
}

TEST(DumpReader, MissingElementsGiveEmptyFields) {
  auto r = read_xml(feed("<doc></doc><doc><abstract>only an abstract</abstract></doc><doc/>"
                         "<doc><title>Wikipedia: T</title></doc>"));
  ASSERT_EQ(r.docs.size(), 4u);  // each still takes a doc id
  EXPECT_EQ(r.docs[0].title, "");
  EXPECT_EQ(r.docs[0].abstract, "");
  EXPECT_EQ(r.docs[1].abstract, "only an abstract");
  EXPECT_EQ(r.docs[2].title, "");
  EXPECT_EQ(r.docs[3].title, "T");
  EXPECT_EQ(r.docs[3].url, "");
  EXPECT_TRUE(r.warnings.empty());
}

TEST(DumpReader, WhitespaceAndIndentationBetweenElements) {
  auto r = read_xml(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- a comment with <doc> inside -->\n"
      "<feed>\r\n  <doc>\r\n    <title>\n\t  Wikipedia: Indented</title>\n    <url>  https://x/y \n</url>\n"
      "    <abstract>\n      text on\n      two lines\n    </abstract>\n    <links>\n      <sublink linktype=\"nav\">\n"
      "        <anchor>A</anchor>\n      </sublink>\n    </links>\n  </doc>\n</feed>\n");
  ASSERT_EQ(r.docs.size(), 1u);
  EXPECT_EQ(r.docs[0].title, "Indented");
  EXPECT_EQ(r.docs[0].url, "https://x/y");
  EXPECT_EQ(r.docs[0].abstract, "\n      text on\n      two lines\n    ");
  EXPECT_EQ(r.docs[0].links, (std::vector<std::string>{"A"}));
}

TEST(DumpReader, TitlePrefixOnlyRemovedAtTheStart) {
  auto r = read_xml(feed("<doc><title>About Wikipedia: X</title></doc><doc><title>Wikipedia:X</title></doc>"
                         "<doc><title>Wikipedia: Wikipedia: X</title></doc>"));
  ASSERT_EQ(r.docs.size(), 3u);
  EXPECT_EQ(r.docs[0].title, "About Wikipedia: X");
  EXPECT_EQ(r.docs[1].title, "Wikipedia:X");
  EXPECT_EQ(r.docs[2].title, "Wikipedia: X");
}

TEST(DumpReader, CdataAndMixedContent) {
  // A "</doc>" or "<doc>" inside CDATA must not cut or nest the doc.
  auto r = read_xml(feed("<doc><title>Wikipedia: CDATA</title>"
                         "<abstract>a <![CDATA[cdata <text> & </doc><doc> more]]> b</abstract></doc>"
                         "<doc><title>Wikipedia: Nested</title><abstract>outer <b>bold <i>cat</i></b> tail</abstract></doc>"
                         "<doc><title>Wikipedia: Comment</title><abstract>x<!-- </doc> -->y</abstract></doc>"));
  ASSERT_EQ(r.docs.size(), 3u);
  EXPECT_EQ(r.docs[0].abstract, "a cdata <text> & </doc><doc> more b");
  EXPECT_EQ(r.docs[1].abstract, "outer bold cat tail");
  EXPECT_EQ(r.docs[2].abstract, "xy");
  EXPECT_TRUE(r.warnings.empty());
}

TEST(DumpReader, SeveralElementsOfOneNameAreJoinedWithASpace) {
  auto r = read_xml(feed("<doc><title>Wikipedia: One</title><title>Two</title>"
                         "<abstract>first</abstract><abstract/><abstract>third</abstract></doc>"));
  ASSERT_EQ(r.docs.size(), 1u);
  EXPECT_EQ(r.docs[0].title, "One Two");
  EXPECT_EQ(r.docs[0].abstract, "first  third");
}

TEST(DumpReader, DocTagMatching) {
  auto r = read_xml("<feed><docs><title>not a doc</title></docs>"
                    "<doc id=\"7\" kind='x'><title>Wikipedia: Attr</title></doc >"
                    "<doc\n><title>Wikipedia: Newline</title></doc\n></feed>");
  ASSERT_EQ(r.docs.size(), 2u);
  EXPECT_EQ(r.docs[0].title, "Attr");
  EXPECT_EQ(r.docs[1].title, "Newline");
}

TEST(DumpReader, ByteOffsetsPointAtDocStartTags) {
  std::string xml = feed(doc_xml("A", "x") + "  \n" + doc_xml("B", "caf\xC3\xA9") + doc_xml("C", ""));
  auto r = read_xml(xml);
  ASSERT_EQ(r.docs.size(), 3u);
  uint64_t previous = 0;
  for (const auto& d : r.docs) {
    EXPECT_EQ(xml.compare(d.byte_offset, 5, "<doc>"), 0) << d.byte_offset;
    EXPECT_GT(d.byte_offset, previous);
    previous = d.byte_offset;
  }
  EXPECT_EQ(r.docs[0].byte_offset, xml.find("<doc>"));
}

TEST(DumpReader, ProgressCountersReachTheInputSize) {
  TempDir dir;
  std::string xml = feed(doc_xml("A", "x") + doc_xml("B", "y"));
  write_file(dir.str("d.xml"), xml);
  std::string gz = gzip(xml);
  write_file(dir.str("d.gz"), gz);
  for (auto [name, size] : {std::pair{"d.xml", xml.size()}, std::pair{"d.gz", gz.size()}}) {
    DumpReader reader(dir.str(name), {});
    EXPECT_EQ(reader.input_size(), size);
    Document doc;
    while (reader.next(doc)) {
    }
    EXPECT_EQ(reader.input_bytes_read(), size) << name;
    EXPECT_EQ(reader.xml_bytes_read(), xml.size()) << name;
  }
}

TEST(DumpReader, GzipIsDetectedFromContentNotName) {
  TempDir dir;
  std::string xml = feed(doc_xml("Zipped", "inside a gzip file"));
  write_file(dir.str("looks-plain.xml"), gzip(xml));
  write_file(dir.str("looks-zipped.xml.gz"), xml);
  for (const char* name : {"looks-plain.xml", "looks-zipped.xml.gz"}) {
    auto r = read_all(dir.str(name));
    ASSERT_EQ(r.docs.size(), 1u) << name;
    EXPECT_EQ(r.docs[0].abstract, "inside a gzip file");
  }
}

TEST(DumpReader, ConcatenatedGzipMembers) {
  // Members split in the middle of a doc: the reader sees one stream.
  std::string xml = feed(doc_xml("One", "first") + doc_xml("Two", "second") + doc_xml("Three", "third"));
  size_t cut1 = xml.find("second") + 2, cut2 = xml.find("Three");
  TempDir dir;
  write_file(dir.str("multi.gz"), gzip(xml.substr(0, cut1)) + gzip(xml.substr(cut1, cut2 - cut1), 1) +
                                      gzip(xml.substr(cut2), 9) + std::string(16, '\0'));
  auto r = read_all(dir.str("multi.gz"));
  ASSERT_EQ(r.docs.size(), 3u);
  EXPECT_EQ(r.docs[1].abstract, "second");
  EXPECT_EQ(r.docs[2].title, "Three");
}

TEST(DumpReader, ReadsStdin) {
  TempDir dir;
  std::string xml = feed(doc_xml("Piped", "from standard input"));
  write_file(dir.str("in.gz"), gzip(xml));
  int saved = dup(STDIN_FILENO);
  int fd = open(dir.str("in.gz").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  dup2(fd, STDIN_FILENO);
  close(fd);
  ReadResult r;
  std::string error;
  try {
    r = read_all("-");
  } catch (const DumpError& e) {
    error = e.what();
  }
  dup2(saved, STDIN_FILENO);
  close(saved);
  EXPECT_EQ(error, "");
  ASSERT_EQ(r.docs.size(), 1u);
  EXPECT_EQ(r.docs[0].abstract, "from standard input");
}

TEST(DumpReader, TruncatedGzipIsAClearError) {
  std::string xml;
  for (int i = 0; i < 2000; ++i) xml += doc_xml("Doc " + std::to_string(i), "text number " + std::to_string(i));
  std::string gz = gzip(feed(xml));
  TempDir dir;
  for (size_t cut : {gz.size() - 4, gz.size() / 2, size_t{5}}) {
    write_file(dir.str("cut.xml.gz"), gz.substr(0, cut));
    std::string error = read_error(dir.str("cut.xml.gz"));
    EXPECT_NE(error.find("cut.xml.gz: truncated gzip"), std::string::npos) << cut << ": " << error;
    EXPECT_NE(error.find("compressed byte"), std::string::npos) << error;
  }
}

TEST(DumpReader, CorruptGzipIsAClearError) {
  std::string xml;
  for (int i = 0; i < 2000; ++i) xml += doc_xml("Doc " + std::to_string(i), "text number " + std::to_string(i));
  std::string gz = gzip(feed(xml));
  TempDir dir;
  std::string bad = gz;
  for (size_t i = gz.size() / 2; i < gz.size() / 2 + 64; ++i) bad[i] = static_cast<char>(bad[i] ^ 0x5A);
  write_file(dir.str("bad.gz"), bad);
  std::string error = read_error(dir.str("bad.gz"));
  EXPECT_NE(error.find("bad.gz: corrupt gzip"), std::string::npos) << error;

  // A flipped CRC: every byte inflates, the check at the end fails.
  std::string bad_crc = gz;
  bad_crc[gz.size() - 8] = static_cast<char>(bad_crc[gz.size() - 8] ^ 1);
  write_file(dir.str("crc.gz"), bad_crc);
  error = read_error(dir.str("crc.gz"));
  EXPECT_NE(error.find("crc.gz: corrupt gzip"), std::string::npos) << error;

  write_file(dir.str("trailing.gz"), gz + "garbage");
  error = read_error(dir.str("trailing.gz"));
  EXPECT_NE(error.find("trailing garbage"), std::string::npos) << error;
}

TEST(DumpReader, TruncatedPlainXmlIsAClearError) {
  std::string xml = feed(doc_xml("A", "complete") + doc_xml("B", "cut in the middle"));
  size_t second = xml.find("<doc>", 10);
  TempDir dir;
  write_file(dir.str("cut.xml"), xml.substr(0, xml.find("middle")));
  ReadResult r;
  std::string error;
  DumpReader reader(dir.str("cut.xml"), {});
  Document doc;
  try {
    while (reader.next(doc)) r.docs.push_back(doc);
  } catch (const DumpError& e) {
    error = e.what();
  }
  EXPECT_EQ(r.docs.size(), 1u);  // the complete doc came out first
  EXPECT_NE(error.find("cut.xml: truncated: doc at byte " + std::to_string(second)), std::string::npos) << error;

  // Cut between docs: the unclosed <feed> gives it away.
  write_file(dir.str("nofeedend.xml"), xml.substr(0, second));
  error = read_error(dir.str("nofeedend.xml"));
  EXPECT_NE(error.find("nofeedend.xml: truncated: <feed> at byte 0 is not closed"), std::string::npos) << error;

  // Cut inside a CDATA section of a doc.
  write_file(dir.str("cdata.xml"), "<feed><doc><abstract><![CDATA[ never ends");
  error = read_error(dir.str("cdata.xml"));
  EXPECT_NE(error.find("truncated: doc at byte 6"), std::string::npos) << error;
}

TEST(DumpReader, NonDumpFilesAreRejected) {
  TempDir dir;
  write_file(dir.str("image.png"), std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  std::string error = read_error(dir.str("image.png"));
  EXPECT_NE(error.find("image.png: not a dump"), std::string::npos) << error;
  EXPECT_NE(error.find("0x89"), std::string::npos) << error;

  write_file(dir.str("notes.txt"), "just some plain text\nwith <angle> brackets later\n");
  EXPECT_NE(read_error(dir.str("notes.txt")).find("notes.txt: not a dump"), std::string::npos);

  write_file(dir.str("page.html"), "<html><body><p>no docs</p></body></html>");
  EXPECT_NE(read_error(dir.str("page.html")).find("page.html: not a dump: no <feed> or <doc>"), std::string::npos);

  write_file(dir.str("empty.xml"), "");
  EXPECT_NE(read_error(dir.str("empty.xml")).find("empty.xml: not a dump"), std::string::npos);

  write_file(dir.str("zipped-text.gz"), gzip("hello"));
  EXPECT_NE(read_error(dir.str("zipped-text.gz")).find("zipped-text.gz: not a dump"), std::string::npos);

  // An empty feed is a valid dump with no docs.
  write_file(dir.str("empty-feed.xml"), "\xEF\xBB\xBF<feed>\n</feed>\n");
  EXPECT_EQ(read_all(dir.str("empty-feed.xml")).docs.size(), 0u);
}

TEST(DumpReader, MissingFileAndDirectoryAreErrors) {
  TempDir dir;
  std::string error;
  try {
    DumpReader reader(dir.str("nope.xml"), {});
  } catch (const DumpError& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("nope.xml: cannot open"), std::string::npos) << error;
  error.clear();
  try {
    DumpReader reader(dir.str(), {});
  } catch (const DumpError& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
}

TEST(DumpReader, MalformedDocIsSkippedWithItsOffset) {
  std::string bad = "<doc><title>Wikipedia: Bad</title><abstract>unclosed <b> tag</abstract></doc>\n";
  std::string xml = feed(doc_xml("Good1", "x") + bad + doc_xml("Good2", "y"));
  size_t bad_offset = xml.find(bad);
  auto r = read_xml(xml);
  ASSERT_EQ(r.docs.size(), 2u);
  EXPECT_EQ(r.docs[1].title, "Good2");
  EXPECT_EQ(r.skipped, 1u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("dump.xml: doc at byte " + std::to_string(bad_offset) + " skipped: "), std::string::npos)
      << r.warnings[0];

  DumpReader::Options strict;
  strict.strict = true;
  TempDir dir;
  write_file(dir.str("bad.xml"), xml);
  std::string error = read_error(dir.str("bad.xml"), strict);
  EXPECT_NE(error.find("bad.xml: doc at byte " + std::to_string(bad_offset) + " skipped"), std::string::npos) << error;
}

TEST(DumpReader, NestedDocSkipsTheOuterOne) {
  // A doc cut short and followed by a whole one: the whole one survives.
  std::string xml = "<feed><doc><title>Wikipedia: Cut</title><abstr" + doc_xml("Whole", "kept") + "</feed>";
  auto r = read_xml(xml);
  ASSERT_EQ(r.docs.size(), 1u);
  EXPECT_EQ(r.docs[0].title, "Whole");
  EXPECT_EQ(r.skipped, 1u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("doc at byte 6 skipped: nested <doc>"), std::string::npos) << r.warnings[0];
}

TEST(DumpReader, OversizedDocIsSkippedNotBuffered) {
  std::string big = doc_xml("Big", std::string(3'000'000, 'x'));
  std::string xml = feed(doc_xml("Before", "a") + big + doc_xml("After", "b"));
  DumpReader::Options options;
  options.max_doc_bytes = 1'000'000;
  auto r = read_xml(xml, options);
  ASSERT_EQ(r.docs.size(), 2u);
  EXPECT_EQ(r.docs[1].title, "After");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("doc at byte " + std::to_string(xml.find(big)) + " skipped: larger than"),
            std::string::npos)
      << r.warnings[0];
}

TEST(DumpReader, HugeAbstract) {
  std::string text;
  text.reserve(20'000'000);
  for (int i = 0; text.size() < 20'000'000; ++i) text += "word" + std::to_string(i % 977) + " &amp; ";
  std::string xml = feed(doc_xml("Huge", text) + doc_xml("Small", "tail"));
  TempDir dir;
  write_file(dir.str("huge.xml.gz"), gzip(xml, 1));
  auto r = read_all(dir.str("huge.xml.gz"));
  ASSERT_EQ(r.docs.size(), 2u);
  std::string expected;
  for (size_t p = 0;;) {  // decode &amp; the slow obvious way
    size_t q = text.find("&amp;", p);
    expected += text.substr(p, q == std::string::npos ? q : q - p);
    if (q == std::string::npos) break;
    expected += '&';
    p = q + 5;
  }
  EXPECT_EQ(r.docs[0].abstract.size(), expected.size());
  EXPECT_TRUE(r.docs[0].abstract == expected);
  EXPECT_EQ(r.docs[1].abstract, "tail");
}

TEST(DumpReader, DocsAcrossReadChunkBoundaries) {
  // Docs from a few bytes to several times the reader's chunk size, so that
  // chunk boundaries fall inside tags, entities, CDATA markers and UTF-8.
  std::string xml = "<feed>\n";
  std::vector<std::string> abstracts;
  uint32_t seed = 12345;
  auto rnd = [&seed] { return seed = seed * 1103515245u + 12345u, (seed >> 8); };
  for (int i = 0; i < 600; ++i) {
    size_t n = (i % 50 == 0) ? 300'000 + rnd() % 900'000 : rnd() % 3000;
    std::string raw, escaped;
    for (size_t j = 0; j < n; ++j) {
      switch (rnd() % 40) {
        case 0: raw += "&"; escaped += "&amp;"; break;
        case 1: raw += "<"; escaped += "&lt;"; break;
        case 2: raw += "\xC3\xA9"; escaped += "\xC3\xA9"; break;
        case 3: raw += "\xE4\xB8\xAD"; escaped += "&#x4E2D;"; break;
        default: raw += static_cast<char>('a' + rnd() % 26); escaped += raw.back(); break;
      }
    }
    if (i % 7 == 0) {
      raw = "[" + raw + "]";
      escaped = "<![CDATA[[]]>" + escaped + "<![CDATA[]]]>";
    }
    abstracts.push_back(raw);
    xml += doc_xml("D" + std::to_string(i), escaped);
  }
  xml += "</feed>\n";
  TempDir dir;
  write_file(dir.str("chunks.xml"), xml);
  write_file(dir.str("chunks.xml.gz"), gzip(xml, 1));
  for (const char* name : {"chunks.xml", "chunks.xml.gz"}) {
    auto r = read_all(dir.str(name));
    ASSERT_EQ(r.docs.size(), abstracts.size()) << name;
    for (size_t i = 0; i < abstracts.size(); ++i) {
      ASSERT_EQ(r.docs[i].title, "D" + std::to_string(i)) << name;
      ASSERT_TRUE(r.docs[i].abstract == abstracts[i]) << name << " doc " << i;
      ASSERT_EQ(xml.compare(r.docs[i].byte_offset, 5, "<doc>"), 0);
    }
    EXPECT_TRUE(r.warnings.empty());
  }
}

TEST(DumpReader, RandomDamageNeverCrashes) {
  // Truncations and byte flips anywhere (plain and gzip) end in docs, skipped
  // docs or one DumpError: never a crash, a hang or another exception type.
  std::string xml = feed(doc_xml("A", "x &amp; y") + "<doc><title>Wikipedia: B</title><abstract><![CDATA[c]]>" +
                         "</abstract><!-- c --></doc>\n" + doc_xml("C", "caf&#233;", "<sublink><anchor>Z</anchor></sublink>"));
  TempDir dir;
  uint32_t seed = 99;
  auto rnd = [&seed] { return seed = seed * 1103515245u + 12345u, (seed >> 8); };
  size_t errors = 0, runs = 0;
  for (int round = 0; round < 400; ++round) {
    std::string damaged = xml.substr(0, rnd() % (xml.size() + 1));
    for (int flips = rnd() % 4; flips > 0 && !damaged.empty(); --flips) {
      damaged[rnd() % damaged.size()] = "<>/&;!?[]-d\0\x89"[rnd() % 14];
    }
    if (round % 2) damaged = gzip(damaged).substr(0, 10 + rnd() % 200);
    write_file(dir.str("d"), damaged);
    try {
      auto r = read_all(dir.str("d"));
      EXPECT_LE(r.docs.size(), 6u);  // each flip adds at most one "<doc"
    } catch (const DumpError&) {
      ++errors;
    }
    ++runs;
  }
  EXPECT_EQ(runs, 400u);
  EXPECT_GT(errors, 0u);
}

TEST(DumpReader, QuirksMatchExpectedValues) {
  FTS_REQUIRE_SHARED(xml, "corpus/quirks.xml");
  FTS_REQUIRE_SHARED(tsv, "corpus/quirks-expected.tsv");
  auto r = read_all(xml);
  EXPECT_TRUE(r.warnings.empty());
  std::ifstream in(tsv);
  std::string line;
  std::getline(in, line);  // header
  size_t rows = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string col; std::getline(ss, col, '\t');) cols.push_back(col);
    ASSERT_EQ(cols.size(), 6u) << line;
    size_t i = std::stoul(cols[0]) - 1;
    ASSERT_LT(i, r.docs.size());
    const Document& d = r.docs[i];
    std::string title = cols[1];
    if (title.rfind("Wikipedia: ", 0) == 0) title.erase(0, 11);
    EXPECT_EQ(d.title, title) << line;
    EXPECT_EQ(d.url, cols[2]) << line;
    EXPECT_EQ(count_code_points(d.abstract), std::stoul(cols[3])) << line;
    EXPECT_EQ(d.abstract.size(), std::stoul(cols[4])) << line;
    EXPECT_EQ(d.links.size(), std::stoul(cols[5])) << line;
    ++rows;
  }
  EXPECT_EQ(rows, r.docs.size());
  EXPECT_EQ(rows, 18u);
}

TEST(DumpReader, SharedCorpusDocCounts) {
  FTS_REQUIRE_SHARED(dir, "corpus");
  for (auto [name, count] : {std::pair{"gcide.xml.gz", 126'236u}, std::pair{"foldoc.xml.gz", 12'014u},
                             std::pair{"jargon.xml.gz", 2'307u}, std::pair{"enwiki-abridged.xml.gz", 49u}}) {
    DumpReader::Options options;
    options.strict = true;
    DumpReader reader(dir + "/" + name, options);
    Document doc;
    uint64_t n = 0, empty_titles = 0;
    while (reader.next(doc)) {
      ++n;
      empty_titles += doc.title.empty();
    }
    EXPECT_EQ(n, count) << name;
    EXPECT_EQ(empty_titles, 0u) << name;
    EXPECT_EQ(reader.docs_skipped(), 0u) << name;
  }
}

TEST(DumpReader, BundledSampleReadsCleanly) {
  auto r = read_all(test::source_path("data/sample.xml"));
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_GE(r.docs.size(), 250u);
  size_t with_links = 0, empty_abstracts = 0;
  for (const auto& d : r.docs) {
    EXPECT_FALSE(d.title.empty());
    EXPECT_EQ(d.title.rfind("Wikipedia:", 0), std::string::npos) << d.title;
    with_links += !d.links.empty();
    empty_abstracts += d.abstract.empty();
  }
  EXPECT_GT(with_links, 0u);
  EXPECT_GT(empty_abstracts, 0u);
}

}  // namespace
}  // namespace fts

namespace fts {
namespace {

// Slices (a distributed build's ranks): docs of a CDATA, a comment, a
// malformed doc and an empty one among them; every cut of the files gives
// every doc once, in order, and each malformed one is skipped by one slice.
TEST(DumpSlices, EverySliceCutGivesEachDocOnceInOrder) {
  TempDir dir;
  std::string docs;
  for (int i = 0; i < 40; ++i) {
    docs += doc_xml("T" + std::to_string(i), i % 7 == 3 ? "<![CDATA[ <doc> inside ]]> text" : "abstract " + std::to_string(i));
    if (i == 11) docs += "<!-- <doc>not a doc</doc> -->\n<doc><title>broken</doc>\n";
    if (i == 20) docs += "<doc/>\n";
  }
  const std::string a = feed(docs), b = feed(doc_xml("Last", "the end"));
  write_file(dir.str("a.xml"), a);
  write_file(dir.str("b.gz"), gzip(b));
  const std::vector<std::string> files = {dir.str("a.xml"), dir.str("b.gz")};
  EXPECT_EQ(dump_xml_size(files[0]), a.size());
  EXPECT_EQ(dump_xml_size(files[1]), b.size());
  std::vector<std::string> whole;
  uint64_t whole_skipped = 0;
  for (const auto& f : files) {
    auto r = read_all(f);
    for (const auto& d : r.docs) whole.push_back(d.title);
    whole_skipped += r.skipped;
  }
  ASSERT_EQ(whole.size(), 42u);  // 40, the empty doc, "Last"
  ASSERT_EQ(whole_skipped, 1u);
  const std::vector<uint64_t> sizes = {a.size(), b.size()};
  for (unsigned ranks : {1u, 2u, 3u, 5u, 16u, 97u}) {
    std::vector<std::string> titles;
    uint64_t skipped = 0;
    for (unsigned rank = 0; rank < ranks; ++rank) {
      for (const DumpSlice& s : dump_slices(sizes, rank, ranks)) {
        DumpReader::Options o;
        o.slice_begin = s.begin;
        o.slice_end = s.end;
        auto r = read_all(files[s.file], o);
        for (const auto& d : r.docs) titles.push_back(d.title);
        skipped += r.skipped;
      }
    }
    EXPECT_EQ(titles, whole) << ranks << " ranks";
    EXPECT_EQ(skipped, whole_skipped) << ranks << " ranks";
  }
}

TEST(DumpSlices, RangesMeetAndCoverTheFiles) {
  const std::vector<uint64_t> sizes = {100, 0, 50, 7};
  for (unsigned ranks = 1; ranks <= 9; ++ranks) {
    // Per file: the slices' ranges, in rank order, must tile [0, end).
    std::vector<uint64_t> next(sizes.size(), 0);
    std::vector<bool> to_end(sizes.size(), false);
    for (unsigned rank = 0; rank < ranks; ++rank) {
      for (const DumpSlice& s : dump_slices(sizes, rank, ranks)) {
        EXPECT_FALSE(to_end[s.file]) << "a slice after the one that read to the end";
        EXPECT_EQ(s.begin, next[s.file]) << ranks << " ranks, rank " << rank;
        EXPECT_LT(s.begin, s.end);
        next[s.file] = s.end;
        to_end[s.file] = s.end == UINT64_MAX;
      }
    }
    for (size_t f = 0; f < sizes.size(); ++f) {
      if (sizes[f] > 0) {
        EXPECT_TRUE(to_end[f]) << "file " << f << " not read to its end, " << ranks << " ranks";
      }
    }
  }
  EXPECT_TRUE(dump_slices({}, 0, 3).empty());
}

}  // namespace
}  // namespace fts
