// A brute-force evaluator of the query contract, for tests: every doc's
// analyzed title and abstract tokens in memory, every query node evaluated
// to a full set of docs. Deliberately naive so it is obviously right.
//
// Scores follow the Searcher's definition: BM25 (k1 1.2, b 0.75, idf
// ln(1 + (N - df + 0.5) / (df + 0.5)), statistics over the whole index) of
// each matching term or phrase leaf (a phrase: the sum of its tokens' idfs,
// tf = its occurrences), summed up through AND and through the matching
// children of an OR; a NOT scores 0 except NOT(NOT x), which is x; a
// clause's weight (1 from the parser) multiplies its score.
//
// Deletes (index/FORMAT.md, "Scoring with deletes"): only live docs match;
// the statistics (N, df, average lengths) count every doc still in a
// segment, deleted or not, until a merge purges it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analyzer/analyzer.h"
#include "dump/document.h"
#include "index/format/fields.h"
#include "query/query_node.h"
#include "query/searcher.h"

namespace fts::test {

struct BruteDoc {
  std::vector<std::string> title, abstract;
  bool live = true;     // may match
  bool counted = true;  // in the statistics: still in a segment
};

class BruteForce {
 public:
  explicit BruteForce(std::vector<BruteDoc> docs) : docs_(std::move(docs)) {}

  static BruteForce analyze(const std::vector<Document>& docs, Analyzer& analyzer) {
    std::vector<BruteDoc> out;
    for (const auto& d : docs) out.push_back({analyzer.analyze(d.title), analyzer.analyze(d.abstract)});
    return BruteForce(std::move(out));
  }

  size_t size() const { return docs_.size(); }

  std::vector<DocId> matches(const QueryNode* query) const {
    std::vector<DocId> out;
    if (!query) return out;
    Result r = evaluate(*query);
    for (DocId d = 0; d < docs_.size(); ++d)
      if (r.match[d]) out.push_back(d);
    return out;
  }

  // Every match with its score, best first (ties by lower doc id).
  std::vector<ScoredDoc> ranked(const QueryNode* query) const {
    if (!query) return {};
    return rank(evaluate(*query));
  }

  struct Result;
  static std::vector<ScoredDoc> rank(const Result& r) {
    std::vector<ScoredDoc> out;
    for (DocId d = 0; d < r.match.size(); ++d)
      if (r.match[d]) out.push_back({d, static_cast<float>(r.score[d])});
    std::sort(out.begin(), out.end(), [](const ScoredDoc& a, const ScoredDoc& b) {
      return a.score > b.score || (a.score == b.score && a.doc < b.doc);
    });
    return out;
  }

  // Per doc: whether it matches, and its score where it does.
  struct Result {
    std::vector<bool> match;
    std::vector<double> score;
  };

  Result evaluate(const QueryNode& node) const {
    const size_t n_docs = docs_.size();
    Result out{std::vector<bool>(n_docs, false), std::vector<double>(n_docs, 0.0)};
    switch (node.kind) {
      case QueryNode::Kind::kTerm:
      case QueryNode::Kind::kPhrase: {
        // Leaves recur across queries; remember them (pure function of the leaf).
        std::string key = std::to_string(static_cast<int>(node.field));
        for (const auto& t : node.terms) key += "\x1f" + t;
        if (auto it = leaves_.find(key); it != leaves_.end()) {
          out = it->second;
          break;
        }
        double idf = 0;
        for (const auto& t : node.terms) idf += std::log(1.0 + (n() - df(node.field, t) + 0.5) / (df(node.field, t) + 0.5));
        const double avg = average_length(node.field);
        for (DocId d = 0; d < n_docs; ++d) {
          if (!docs_[d].live) continue;
          uint32_t tf = occurrences(node, d);
          if (tf == 0) continue;
          out.match[d] = true;
          double norm = 1.2 * (1.0 - 0.75 + 0.75 * length(node.field, d) / avg);
          out.score[d] = idf * tf * 2.2 / (tf + norm);
        }
        leaves_.emplace(key, out);
        break;
      }
      case QueryNode::Kind::kAnd:
        out.match.assign(n_docs, true);
        for (const auto& c : node.children) {
          Result r = evaluate(*c);
          for (DocId d = 0; d < n_docs; ++d) {
            out.match[d] = out.match[d] && r.match[d];
            out.score[d] += r.score[d];
          }
        }
        break;
      case QueryNode::Kind::kOr:
        for (const auto& c : node.children) {
          Result r = evaluate(*c);
          for (DocId d = 0; d < n_docs; ++d) {
            out.match[d] = out.match[d] || r.match[d];
            if (r.match[d]) out.score[d] += r.score[d];
          }
        }
        break;
      case QueryNode::Kind::kNot: {
        const QueryNode& c = *node.children[0];
        if (c.kind == QueryNode::Kind::kNot) {
          // NOT NOT x is x, scores included. Evaluating x once per level
          // keeps a chain of 40 NOTs linear, not 2^20 evaluations.
          out = evaluate(*c.children[0]);
          break;
        }
        Result r = evaluate(c);
        for (DocId d = 0; d < n_docs; ++d) out.match[d] = !r.match[d] && docs_[d].live;
        break;
      }
    }
    if (node.weight != 1)
      for (double& s : out.score) s *= node.weight;
    return out;
  }

  // Occurrences of a term or phrase (consecutive tokens within one field).
  uint32_t occurrences(const QueryNode& leaf, DocId d) const {
    const BruteDoc& doc = docs_[d];
    switch (leaf.field) {
      case Field::kTitle:
        return count_in(doc.title, leaf.terms);
      case Field::kAbstract:
        return count_in(doc.abstract, leaf.terms);
      case Field::kAny:
        break;
    }
    return count_in(doc.title, leaf.terms) + count_in(doc.abstract, leaf.terms);
  }

  double n() const {
    double n = 0;
    for (const auto& d : docs_) n += d.counted;
    return n;
  }

  double df(Field field, const std::string& term) const {
    QueryNode leaf;
    leaf.field = field;
    leaf.terms = {term};
    double df = 0;
    for (DocId d = 0; d < docs_.size(); ++d) df += docs_[d].counted && occurrences(leaf, d) > 0;
    return df;
  }

  double length(Field field, DocId d) const {
    const BruteDoc& doc = docs_[d];
    switch (field) {
      case Field::kTitle:
        return static_cast<double>(doc.title.size());
      case Field::kAbstract:
        return static_cast<double>(doc.abstract.size());
      case Field::kAny:
        break;
    }
    return static_cast<double>(doc.title.size() + doc.abstract.size());
  }

  double average_length(Field field) const {
    double total = 0;
    for (DocId d = 0; d < docs_.size(); ++d) total += docs_[d].counted ? length(field, d) : 0;
    return docs_.empty() || total == 0 ? 1.0 : total / n();
  }

 private:
  static uint32_t count_in(const std::vector<std::string>& tokens, const std::vector<std::string>& phrase) {
    uint32_t count = 0;
    for (size_t i = 0; i + phrase.size() <= tokens.size(); ++i) {
      if (std::equal(phrase.begin(), phrase.end(), tokens.begin() + static_cast<std::ptrdiff_t>(i))) ++count;
    }
    return count;
  }

  std::vector<BruteDoc> docs_;
  mutable std::map<std::string, Result> leaves_;
};

}  // namespace fts::test
