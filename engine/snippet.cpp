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

// Calls visit(begin, end) for each run of token characters in text (the
// analyzer's: letters and digits, where its tokenizer splits), so a
// highlight covers the matched word and not the punctuation around it
// ("cat," marks "cat").
template <class Visit>
void for_each_token_run(std::string_view text, Visit&& visit) {
  const auto* base = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = base + text.size();
  const unsigned char* run = nullptr;
  for (const unsigned char* p = base; p < end;) {
    size_t n = 1;
    bool token;
    if (*p < 0x80) {
      token = detail::kAsciiTokenLower[*p] != 0;
    } else {
      char32_t cp;
      n = detail::decode_utf8(p, end, cp);
      token = cp != detail::kNotToken && detail::lowered_token_code_point(cp) != detail::kNotToken;
    }
    if (token && !run) run = p;
    if (!token && run) {
      visit(static_cast<size_t>(run - base), static_cast<size_t>(p - base));
      run = nullptr;
    }
    p += n;
  }
  if (run) visit(static_cast<size_t>(run - base), text.size());
}

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
  // A token matches when it analyzes to a query term (the tokenizer splits
  // only between runs, so a run analyzes alone as it does in the text).
  std::vector<Highlight> matches;
  if (!terms.empty()) {
    for_each_token_run(abstract, [&](size_t i, size_t j) {
      bool hit = false;
      analyzer.for_each_term(std::string_view(abstract).substr(i, j - i),
                             [&](std::string_view t) { hit = hit || terms.count(std::string(t)); });
      if (hit) matches.push_back({i, j});
    });
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
