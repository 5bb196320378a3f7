#include "index/dump_doc_parser.h"

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

// Several elements of the same name are joined with one space.
void collect_field(pugi::xml_node doc_node, const char* name, std::string& out) {
  out.clear();
  bool first = true;
  for (pugi::xml_node el = doc_node.child(name); el; el = el.next_sibling(name)) {
    if (!first) out += ' ';
    first = false;
    append_text(el, out);
  }
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
  pugi::xml_node doc_node = dom_.document_element();
  collect_field(doc_node, "title", doc.title);
  strip_title_prefix(doc.title);
  collect_field(doc_node, "url", doc.url);
  trim(doc.url);
  collect_field(doc_node, "abstract", doc.abstract);

  // Anchors of <links><sublink><anchor>; one entry per sublink, so an empty
  // <anchor /> still counts as a link.
  size_t n = 0;
  for (pugi::xml_node links = doc_node.child("links"); links; links = links.next_sibling("links")) {
    for (pugi::xml_node sub = links.child("sublink"); sub; sub = sub.next_sibling("sublink")) {
      if (n == doc.links.size()) doc.links.emplace_back();
      collect_field(sub, "anchor", doc.links[n]);
      ++n;
    }
  }
  doc.links.resize(n);
  return true;
}

}  // namespace fts
