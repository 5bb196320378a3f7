#include "index/reader/word_pairs_check.h"

#include <algorithm>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "index/format/file_format.h"

namespace fts {

namespace {

// One pair word's postings in one field, with its positions.
struct WordList {
  PostingsCursor cursor;
  uint32_t word;  // index into the words found
  int field;      // 0 title, 1 abstract
};

}  // namespace

// One pass over the pair words' positional postings in doc order (a heap
// of their cursors): each doc's occurrences, sorted by field and position,
// give its adjacent pairs, each looked up in its pair's list.
void check_word_pairs(const SegmentReader& segment, const PairWords& words) {
  const std::string dict_path = segment.name() + ".dict", post_path = segment.name() + ".post";
  // The pair keys, each with a cursor over its list.
  std::unordered_map<std::string, PostingsCursor> pairs;
  uint64_t pair_postings = 0;
  std::vector<std::string> found;  // the pair words that occur in the segment
  std::unordered_map<std::string, uint32_t> word_index;
  const std::string any_prefix(1, static_cast<char>(Field::kAny));
  for (auto it = segment.terms().seek(any_prefix); it.valid() && it.key().starts_with(any_prefix); it.next()) {
    const std::string_view term = it.key().substr(1);
    if (is_pair_term(term)) {
      const size_t space = term.find(kPairSeparator);
      if (!words.contains(term.substr(0, space)) || !words.contains(term.substr(space + 1))) {
        throw_corrupt(dict_path, 0, "word pair \"" + std::string(term) + "\" of words the index does not pair");
      }
      pairs.emplace(std::string(term), segment.cursor(Field::kAny, it.info()));
      pair_postings += it.info().doc_freq;
    } else if (words.contains(term)) {
      word_index.emplace(std::string(term), static_cast<uint32_t>(found.size()));
      found.emplace_back(term);
    }
  }
  std::vector<WordList> lists;
  for (uint32_t w = 0; w < found.size(); ++w) {
    for (int f = 0; f < 2; ++f) {
      const Field field = f == 0 ? Field::kTitle : Field::kAbstract;
      if (auto info = segment.lookup(field, found[w])) lists.push_back({segment.cursor(field, *info), w, f});
    }
  }
  using Entry = std::pair<DocId, size_t>;  // (doc, list)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  for (size_t i = 0; i < lists.size(); ++i) {
    if (const DocId d = lists[i].cursor.next(); d != kNoMoreDocs) heap.emplace(d, i);
  }
  std::vector<uint32_t> positions;
  std::vector<uint64_t> occurrences;             // of one doc: field << 63 | position << 32 | word
  std::vector<std::pair<uint64_t, uint32_t>> counts;  // of one doc: (first word << 32 | second, freq)
  uint64_t matched = 0;
  std::string key;
  while (!heap.empty()) {
    const DocId doc = heap.top().first;
    occurrences.clear();
    while (!heap.empty() && heap.top().first == doc) {
      WordList& list = lists[heap.top().second];
      const size_t i = heap.top().second;
      heap.pop();
      list.cursor.positions(positions);
      for (const uint32_t p : positions) occurrences.push_back(uint64_t(list.field) << 63 | uint64_t(p) << 32 | list.word);
      if (const DocId d = list.cursor.next(); d != kNoMoreDocs) heap.emplace(d, i);
    }
    std::sort(occurrences.begin(), occurrences.end());
    counts.clear();
    for (size_t i = 0; i + 1 < occurrences.size(); ++i) {
      const uint64_t a = occurrences[i], b = occurrences[i + 1];
      if ((a >> 32) + 1 != (b >> 32)) continue;  // not the next position of the same field
      const uint64_t pair = (a & 0xffffffff) << 32 | (b & 0xffffffff);
      auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == pair; });
      if (it == counts.end()) {
        counts.emplace_back(pair, 1);
      } else {
        ++it->second;
      }
    }
    for (const auto& [pair, freq] : counts) {
      key = pair_term(found[pair >> 32], found[pair & 0xffffffff]);
      auto it = pairs.find(key);
      PostingsCursor* c = it == pairs.end() ? nullptr : &it->second;
      if (!c || c->advance(doc) != doc || c->freq() != freq) {
        throw_corrupt(post_path, 0, "word pair \"" + key + "\" disagrees with the positions at doc " +
                                        std::to_string(doc));
      }
      ++matched;
    }
  }
  if (matched != pair_postings) {
    throw_corrupt(post_path, 0, "word pair lists hold " + std::to_string(pair_postings - matched) +
                                    " docs where their words are not adjacent");
  }
}

}  // namespace fts
