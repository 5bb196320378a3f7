#include "engine/snippet.h"

#include <algorithm>
#include <unordered_set>

#include "engine/fts.h"

namespace fts {

namespace {

// Terms of the positive leaves: a negated term never matches a hit.
void positive_terms(const QueryNode* node, std::unordered_set<std::string>& out) {
  if (!node || node->kind == QueryNode::Kind::kNot) return;
  for (const auto& t : node->terms) out.insert(t);
  for (const auto& c : node->children) positive_terms(c.get(), out);
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Moves i back to the start of a UTF-8 sequence.
size_t utf8_start(const std::string& s, size_t i) {
  while (i > 0 && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
  return i;
}

}  // namespace

void make_snippet(const std::string& abstract, const QueryNode* query, Analyzer& analyzer, size_t max_bytes,
                  std::string& snippet, std::vector<Highlight>& highlights) {
  std::unordered_set<std::string> terms;
  positive_terms(query, terms);
  // Words as separated by whitespace; a word matches when one of its
  // analyzed terms is a query term.
  std::vector<Highlight> matches;
  for (size_t i = 0; i < abstract.size();) {
    while (i < abstract.size() && is_space(abstract[i])) ++i;
    size_t j = i;
    while (j < abstract.size() && !is_space(abstract[j])) ++j;
    if (j > i && !terms.empty()) {
      bool hit = false;
      analyzer.for_each_term(std::string_view(abstract).substr(i, j - i),
                             [&](std::string_view t) { hit = hit || terms.count(std::string(t)); });
      if (hit) matches.push_back({i, j});
    }
    i = j;
  }
  size_t begin = 0;
  if (!matches.empty() && matches.front().end > max_bytes) {
    begin = utf8_start(abstract, matches.front().begin > max_bytes / 4 ? matches.front().begin - max_bytes / 4 : 0);
    while (begin > 0 && !is_space(abstract[begin - 1])) begin = utf8_start(abstract, begin - 1);
  }
  size_t end = std::min(abstract.size(), begin + max_bytes);
  if (end < abstract.size()) {
    size_t cut = end;
    while (cut > begin && !is_space(abstract[cut])) --cut;
    end = cut > begin ? cut : utf8_start(abstract, end);
  }
  std::string prefix = begin > 0 ? "..." : "";
  snippet = prefix + abstract.substr(begin, end - begin) + (end < abstract.size() ? "..." : "");
  highlights.clear();
  for (const Highlight& m : matches) {
    if (m.begin >= begin && m.end <= end) highlights.push_back({m.begin - begin + prefix.size(), m.end - begin + prefix.size()});
  }
}

}  // namespace fts
