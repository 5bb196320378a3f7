// The reader never builds a DOM of the whole dump: it scans the uncompressed
// stream for <doc ...> ... </doc> with memchr, keeps only the current doc in
// a reused buffer, and hands each doc's bytes to pugixml in place. Comments,
// CDATA sections and processing instructions are skipped while scanning so
// that a "</doc>" inside them does not cut a doc short.
#include "dump/dump_reader.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "dump_doc_parser.h"
#include "dump_input.h"

namespace fts {
namespace {

// Uncompressed bytes requested per read; docs larger than this simply grow
// the buffer.
constexpr size_t kReadChunk = 256 * 1024;
// Bytes after '<' needed to classify a tag: "<![CDATA[" is the longest.
constexpr size_t kLookahead = 9;

bool is_xml_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// v starts with name (e.g. "<doc") followed by a character that ends a tag
// name, so "<docs>" is not "<doc". Byte compares: this runs for every tag.
template <size_t N>
bool starts_tag(std::string_view v, const char (&name)[N]) {
  constexpr size_t name_len = N - 1;
  if (v.size() <= name_len) return false;
  for (size_t i = 1; i < name_len; ++i) {  // v[0] is the '<' already found
    if (v[i] != name[i]) return false;
  }
  char next = v[name_len];
  return next == '>' || next == '/' || is_xml_space(next);
}

}  // namespace

struct DumpReader::Impl {
  enum class State {
    kOutside,   // between docs: looking for "<doc"
    kStartTag,  // inside "<doc ...": looking for its '>'
    kInDoc,     // inside a doc: looking for "</doc" (or a nested "<doc")
    kEndTag,    // inside "</doc ...": looking for its '>'
    kSkip,      // inside a comment, CDATA or PI: looking for its terminator
  };
  enum class Scan { kNeedMore, kDocReady, kNestedDoc };

  Impl(const std::string& path, Options opts) : options(std::move(opts)), input(path) {
    cap = 2 * kReadChunk;
    buf.reset(new char[cap]);
  }

  // ---- buffer: buf[0] is stream offset base; len bytes are valid ----
  char* at(uint64_t offset) { return buf.get() + (offset - base); }
  uint64_t end() const { return base + len; }
  bool in_doc() const {
    return state == State::kStartTag || state == State::kInDoc || state == State::kEndTag ||
           (state == State::kSkip && skip_return == State::kInDoc);
  }

  // Reads more input; false at the end of the input.
  bool fill() {
    if (in_doc() && !oversized && end() - doc_start > options.max_doc_bytes) oversized = true;
    // Keep the current doc (unless it is being skipped as oversized) and
    // everything from the scan position on.
    uint64_t keep = in_doc() && !oversized ? doc_start : pos;
    size_t drop = static_cast<size_t>(keep - base);
    if (cap - len < kReadChunk && drop > 0) {
      std::memmove(buf.get(), buf.get() + drop, len - drop);
      base += drop;
      len -= drop;
    }
    if (cap - len < kReadChunk) {
      // Doubling, but not far past the largest doc we are willing to hold.
      size_t limit = static_cast<size_t>(std::min<uint64_t>(options.max_doc_bytes, SIZE_MAX / 4)) + 2 * kReadChunk;
      size_t new_cap = std::max(std::min(2 * cap, limit), len + kReadChunk);
      std::unique_ptr<char[]> bigger(new char[new_cap]);
      std::memcpy(bigger.get(), buf.get(), len);
      buf = std::move(bigger);
      cap = new_cap;
    }
    size_t got = input.read(buf.get() + len, cap - len);
    len += got;
    return got > 0;
  }

  // A dump is XML: after an optional UTF-8 BOM and whitespace the first byte
  // must be '<'. Rejects images, archives and plain text at once instead of
  // scanning them to the end. False when more bytes are needed.
  bool check_start() {
    if (pos == 0 && len >= 3 && std::memcmp(buf.get(), "\xEF\xBB\xBF", 3) == 0) pos = 3;
    while (pos < end() && is_xml_space(*at(pos))) ++pos;
    if (pos == end()) return false;
    unsigned char c = static_cast<unsigned char>(*at(pos));
    if (c != '<') {
      static const char kHex[] = "0123456789ABCDEF";
      std::string byte = {'0', 'x', kHex[c >> 4], kHex[c & 15]};
      throw DumpError(input.name(), "not a dump: byte " + std::to_string(pos) + " is " + byte +
                      ", expected XML starting with '<'");
    }
    start_checked = true;
    return true;
  }

  // At a "<!" or "<?" tag: enters kSkip until its terminator.
  bool begin_skip(std::string_view v, State return_to) {
    if (v.size() < 2 || (v[1] != '!' && v[1] != '?')) return false;  // the common case
    if (v.substr(0, 4) == "<!--") {
      skip_term = "-->";
      pos += 4;
    } else if (v.substr(0, 9) == "<![CDATA[") {
      skip_term = "]]>";
      pos += 9;
    } else if (v.substr(0, 2) == "<?") {
      skip_term = "?>";
      pos += 2;
    } else if (v.substr(0, 2) == "<!" && return_to == State::kOutside) {
      skip_term = ">";  // <!DOCTYPE ...>
      pos += 2;
    } else {
      return false;
    }
    skip_return = return_to;
    state = State::kSkip;
    return true;
  }

  // Finds the next '<' from pos and the view of the tag start there; false
  // (with pos at the end) when there is none or not enough lookahead yet.
  bool next_tag(std::string_view& v) {
    const char* from = at(pos);
    const char* lt = static_cast<const char*>(std::memchr(from, '<', static_cast<size_t>(end() - pos)));
    if (!lt) {
      pos = end();
      return false;
    }
    pos += static_cast<uint64_t>(lt - from);
    size_t avail = static_cast<size_t>(end() - pos);
    if (avail < kLookahead && !eof) return false;
    v = std::string_view(lt, std::min(avail, kLookahead));
    return true;
  }

  // Advances the scan over the buffered bytes.
  Scan scan() {
    std::string_view v;
    for (;;) {
      switch (state) {
        case State::kOutside:
          if (!start_checked && !check_start()) return Scan::kNeedMore;
          if (!next_tag(v)) return Scan::kNeedMore;
          if (starts_tag(v, "<doc")) {
            doc_start = pos;
            pos += 4;
            oversized = false;
            seen_doc = true;
            state = State::kStartTag;
          } else if (starts_tag(v, "<feed")) {
            if (!seen_feed) feed_start = pos;
            seen_feed = feed_open = true;
            pos += 5;
          } else if (starts_tag(v, "</feed")) {
            feed_open = false;
            pos += 6;
          } else if (!begin_skip(v, State::kOutside)) {
            pos += 1;
          }
          break;
        case State::kStartTag:
        case State::kEndTag: {
          const char* from = at(pos);
          const char* gt = static_cast<const char*>(std::memchr(from, '>', static_cast<size_t>(end() - pos)));
          if (!gt) {
            pos = end();
            return Scan::kNeedMore;
          }
          pos += static_cast<uint64_t>(gt - from) + 1;
          // "<doc/>" is a complete (empty) doc.
          if (state == State::kEndTag || (gt != buf.get() && gt[-1] == '/')) {
            state = State::kOutside;
            doc_end = pos;
            return Scan::kDocReady;
          }
          state = State::kInDoc;
          break;
        }
        case State::kInDoc:
          if (!next_tag(v)) return Scan::kNeedMore;
          if (starts_tag(v, "</doc")) {
            pos += 5;
            state = State::kEndTag;
          } else if (starts_tag(v, "<doc")) {
            // The outer doc is damaged (often a truncated doc followed by a
            // whole one): skip it and resume at the inner doc.
            doc_end = pos;
            state = State::kOutside;
            return Scan::kNestedDoc;
          } else if (!begin_skip(v, State::kInDoc)) {
            pos += 1;
          }
          break;
        case State::kSkip: {
          const char* from = at(pos);
          size_t avail = static_cast<size_t>(end() - pos);
          const void* hit = memmem(from, avail, skip_term.data(), skip_term.size());
          if (!hit) {
            // Keep a possible partial terminator for the next round.
            pos = end() - std::min<uint64_t>(avail, skip_term.size() - 1);
            return Scan::kNeedMore;
          }
          pos += static_cast<uint64_t>(static_cast<const char*>(hit) - from) + skip_term.size();
          state = skip_return;
          break;
        }
      }
    }
  }

  void skip_doc(const std::string& why) {
    ++docs_skipped;
    DumpError error(input.name(), "doc at byte " + std::to_string(doc_start) + " skipped: " + why);
    if (options.strict) throw error;
    if (options.warn) options.warn(error.what());
  }

  // The end of the input: damage shows as an unfinished doc or feed.
  void finish() {
    std::string at_end = " at the end of the input (byte " + std::to_string(end()) + ")";
    if (in_doc()) {
      throw DumpError(input.name(), "truncated: doc at byte " + std::to_string(doc_start) + " is not closed" +
                      at_end);
    }
    if (!seen_feed && !seen_doc) {
      throw DumpError(input.name(), "not a dump: no <feed> or <doc> element found" + at_end);
    }
    if (feed_open) {
      throw DumpError(input.name(), "truncated: <feed> at byte " + std::to_string(feed_start) +
                      " is not closed" + at_end);
    }
    finished = true;
  }

  // Whether the doc just scanned is the slice's; past the slice the reading
  // ends (the rest of the input is other slices').
  bool in_slice() {
    if (doc_start >= options.slice_end) finished = true;
    return !finished && doc_start >= options.slice_begin;
  }

  bool next(Document& doc) {
    while (!finished) {
      switch (scan()) {
        case Scan::kNeedMore:
          if (!fill()) {
            if (!eof) {
              eof = true;  // one more scan: short lookaheads are final now
            } else {
              finish();
            }
          }
          break;
        case Scan::kNestedDoc:
          if (!in_slice()) break;
          skip_doc("nested <doc> at byte " + std::to_string(doc_end));
          break;
        case Scan::kDocReady: {
          if (!in_slice()) break;
          if (oversized) {
            skip_doc("larger than " + std::to_string(options.max_doc_bytes) + " bytes");
            break;
          }
          if (parser.parse(at(doc_start), static_cast<size_t>(doc_end - doc_start), doc, parse_error)) {
            doc.byte_offset = doc_start;
            return true;
          }
          skip_doc(parse_error);
          break;
        }
      }
    }
    return false;
  }

  Options options;
  DumpInput input;
  DumpDocParser parser;
  std::string parse_error;

  std::unique_ptr<char[]> buf;
  size_t cap = 0, len = 0;
  uint64_t base = 0;

  State state = State::kOutside;
  State skip_return = State::kOutside;
  std::string_view skip_term;
  uint64_t pos = 0;        // scan position (stream offset)
  uint64_t doc_start = 0;  // "<doc" of the current doc
  uint64_t doc_end = 0;    // one past its end
  bool oversized = false;
  bool start_checked = false;
  bool seen_feed = false, feed_open = false, seen_doc = false;
  uint64_t feed_start = 0;
  bool eof = false, finished = false;
  uint64_t docs_skipped = 0;
};

DumpReader::DumpReader(const std::string& path, Options options)
    : impl_(std::make_unique<Impl>(path, std::move(options))) {}
DumpReader::~DumpReader() = default;

bool DumpReader::next(Document& doc) { return impl_->next(doc); }
uint64_t DumpReader::docs_skipped() const { return impl_->docs_skipped; }
uint64_t DumpReader::input_bytes_read() const { return impl_->input.file_bytes_consumed(); }
uint64_t DumpReader::input_size() const { return impl_->input.file_size(); }
uint64_t DumpReader::xml_bytes_read() const { return impl_->pos; }

uint64_t dump_xml_size(const std::string& path) {
  DumpInput input(path);
  if (!input.is_gzip() && input.file_size() > 0) return input.file_size();
  std::unique_ptr<char[]> chunk(new char[kReadChunk]);
  uint64_t total = 0;
  while (size_t got = input.read(chunk.get(), kReadChunk)) total += got;
  return total;
}

}  // namespace fts
