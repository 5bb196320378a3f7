#include "dump_doc_parser.h"

#include <cstring>
#include <string_view>

namespace fts {
namespace {

// parse_ws_pcdata keeps whitespace-only text: `<abstract>   </abstract>` is
// three spaces, and `<i>a</i> <i>b</i>` keeps its separating space.
constexpr unsigned kParseOptions = pugi::parse_default | pugi::parse_ws_pcdata;

// Appends the character data of every text and CDATA descendant of root, in
// document order (what an XML parser's itertext() yields). Iterative, so
// deeply nested junk cannot overflow the stack.
void append_text(pugi::xml_node root, std::string& out) {
  pugi::xml_node node = root.first_child();
  while (node) {
    pugi::xml_node_type type = node.type();
    if (type == pugi::node_pcdata || type == pugi::node_cdata) {
      out += node.value();
    } else if (type == pugi::node_element && node.first_child()) {
      node = node.first_child();
      continue;
    }
    while (!node.next_sibling() && node != root) node = node.parent();
    if (node == root) break;
    node = node.next_sibling();
  }
}

// Appends one element's text to a field; several elements of the same name
// are joined with one space.
void add_to_field(pugi::xml_node el, std::string& out, bool& seen) {
  if (seen) out += ' ';
  seen = true;
  append_text(el, out);
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

void trim(std::string& s) {
  size_t end = s.size();
  while (end > 0 && is_space(s[end - 1])) --end;
  size_t begin = 0;
  while (begin < end && is_space(s[begin])) ++begin;
  s.erase(end);
  s.erase(0, begin);
}

}  // namespace

void strip_title_prefix(std::string& title) {
  constexpr std::string_view kPrefix = "Wikipedia: ";
  size_t begin = 0;
  while (begin < title.size() && is_space(title[begin])) ++begin;
  if (std::string_view(title).substr(begin, kPrefix.size()) == kPrefix) begin += kPrefix.size();
  title.erase(0, begin);
}

bool DumpDocParser::parse(char* bytes, size_t size, Document& doc, std::string& error) {
  pugi::xml_parse_result result = dom_.load_buffer_inplace(bytes, size, kParseOptions, pugi::encoding_utf8);
  if (!result) {
    error = std::string(result.description()) + " at byte " + std::to_string(result.offset) + " of the doc";
    return false;
  }
  // One pass over the doc's children (rather than a name lookup per field):
  // the scan is on the hot path of indexing.
  doc.title.clear();
  doc.url.clear();
  doc.abstract.clear();
  bool seen_title = false, seen_url = false, seen_abstract = false;
  size_t n = 0;
  for (pugi::xml_node el = dom_.document_element().first_child(); el; el = el.next_sibling()) {
    if (el.type() != pugi::node_element) continue;
    const char* name = el.name();
    if (std::strcmp(name, "title") == 0) {
      add_to_field(el, doc.title, seen_title);
    } else if (std::strcmp(name, "abstract") == 0) {
      add_to_field(el, doc.abstract, seen_abstract);
    } else if (std::strcmp(name, "url") == 0) {
      add_to_field(el, doc.url, seen_url);
    } else if (std::strcmp(name, "links") == 0) {
      // One entry per <sublink>, so an empty <anchor /> still counts as a link.
      for (pugi::xml_node sub = el.child("sublink"); sub; sub = sub.next_sibling("sublink")) {
        if (n == doc.links.size()) doc.links.emplace_back();
        std::string& anchor = doc.links[n++];
        anchor.clear();
        bool seen_anchor = false;
        for (pugi::xml_node a = sub.child("anchor"); a; a = a.next_sibling("anchor")) {
          add_to_field(a, anchor, seen_anchor);
        }
      }
    }
  }
  strip_title_prefix(doc.title);
  trim(doc.url);
  doc.links.resize(n);
  return true;
}

}  // namespace fts
