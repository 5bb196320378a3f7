#include "query/rewrite.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace fts {

namespace {

using Kind = QueryNode::Kind;

void check_shape(const QueryNode& node) {
  switch (node.kind) {
    case Kind::kTerm:
      if (node.terms.size() != 1) throw std::invalid_argument("query term node without exactly one term");
      break;
    case Kind::kPhrase:
      if (node.terms.empty()) throw std::invalid_argument("query phrase node without terms");
      break;
    case Kind::kAnd:
    case Kind::kOr:
      if (node.children.empty()) throw std::invalid_argument("query AND/OR node without children");
      break;
    case Kind::kNot:
      if (node.children.size() != 1) throw std::invalid_argument("query NOT node without exactly one child");
      break;
  }
  if (node.weight == 0) throw std::invalid_argument("query node with weight 0");
  for (const auto& c : node.children)
    if (!c) throw std::invalid_argument("query node with a null child");
}

size_t mix(size_t seed, size_t value) { return seed ^ (value + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2)); }

// Recursion is bounded by the tree's depth (kMaxQueryDepth for parsed trees).
bool same_clause(const QueryNode& a, const QueryNode& b) {
  if (a.kind != b.kind || a.field != b.field || a.terms != b.terms || a.children.size() != b.children.size())
    return false;
  for (size_t i = 0; i < a.children.size(); ++i) {
    const QueryNode& x = *a.children[i];
    const QueryNode& y = *b.children[i];
    if (x.weight != y.weight || !same_clause(x, y)) return false;
  }
  return true;
}

// Structural hash of a clause from its children's hashes, leaving out the
// clause's own weight (repeats with other weights are still repeats).
size_t clause_hash(const QueryNode& n, const std::vector<size_t>& child_hashes) {
  size_t h = mix(static_cast<size_t>(n.kind), static_cast<size_t>(n.field));
  for (const auto& t : n.terms) h = mix(h, std::hash<std::string>{}(t));
  for (size_t i = 0; i < child_hashes.size(); ++i) h = mix(mix(h, child_hashes[i]), n.children[i]->weight);
  return h;
}
size_t leaf_hash(const QueryNode& n) { return clause_hash(n, {}); }

// The same from scratch, for the rare clause whose children's hashes were
// not kept (below a double negation). Recursion is bounded by the depth.
size_t deep_hash(const QueryNode& n, std::vector<size_t>& child_hashes) {
  child_hashes.clear();
  std::vector<size_t> scratch;
  for (const auto& c : n.children) child_hashes.push_back(deep_hash(*c, scratch));
  return clause_hash(n, child_hashes);
}

// A simplified clause with its structural hash (which leaves out the
// clause's own weight) and its children's, so that repeats are found in one
// pass and a flattened group's children need not be hashed again.
struct Clause {
  std::unique_ptr<QueryNode> node;
  size_t hash = 0;
  std::vector<size_t> child_hashes;
};

bool is_leaf(const QueryNode& n) { return n.kind == Kind::kTerm || n.kind == Kind::kPhrase; }

std::unique_ptr<QueryNode> copy_leaf(const QueryNode& n) {
  auto out = std::make_unique<QueryNode>();
  out->kind = n.kind;
  out->field = n.field;
  out->terms = n.terms;
  out->weight = n.weight;
  return out;
}

Clause simplify(const QueryNode& node);

// The children of one AND / OR (or the child of a NOT) as they are
// simplified: repeats merged into the first occurrence.
class ChildList {
 public:
  explicit ChildList(QueryNode& parent, std::vector<size_t>& hashes) : parent_(parent), hashes_(hashes) {}

  // A leaf child: no copy is made of a repeat (a query may repeat one term
  // thousands of times).
  void add_leaf(const QueryNode& leaf, uint32_t weight) {
    const size_t h = leaf_hash(leaf);
    if (QueryNode* kept = find(leaf, h)) {
      kept->weight += weight;
      return;
    }
    auto copy = copy_leaf(leaf);
    copy->weight = weight;
    append(std::move(copy), h);
  }
  void add(std::unique_ptr<QueryNode> child, size_t h) {
    if (QueryNode* kept = find(*child, h)) {
      kept->weight += child->weight;
      return;
    }
    append(std::move(child), h);
  }

  // Whether one child is NOT x and another is x (as an AND: no doc matches).
  // A NOT's child is never a NOT (double negations are gone by then).
  bool contradicts() {
    std::vector<size_t> scratch;
    for (const auto& c : parent_.children) {
      if (c->kind != Kind::kNot) continue;
      const QueryNode& negated = *c->children[0];
      if (find(negated, deep_hash(negated, scratch))) return true;
    }
    return false;
  }

 private:
  QueryNode* find(const QueryNode& clause, size_t h) {
    auto [first, last] = seen_.equal_range(h);
    for (auto it = first; it != last; ++it) {
      QueryNode& kept = *parent_.children[it->second];
      if (same_clause(kept, clause)) return &kept;
    }
    return nullptr;
  }
  void append(std::unique_ptr<QueryNode> child, size_t h) {
    seen_.emplace(h, parent_.children.size());
    parent_.children.push_back(std::move(child));
    hashes_.push_back(h);
  }

  QueryNode& parent_;
  std::vector<size_t>& hashes_;
  std::unordered_multimap<size_t, size_t> seen_;  // clause hash -> index in parent_.children
};

Clause simplify(const QueryNode& node) {
  check_shape(node);
  Clause out;
  out.node = std::make_unique<QueryNode>();
  QueryNode& n = *out.node;
  n.kind = node.kind;
  n.field = node.field;
  n.terms = node.terms;
  n.weight = node.weight;
  const bool flattens = node.kind == Kind::kAnd || node.kind == Kind::kOr;
  ChildList children(n, out.child_hashes);
  for (const auto& c : node.children) {
    if (is_leaf(*c)) {
      children.add_leaf(*c, c->weight);
      continue;
    }
    Clause child = simplify(*c);
    if (!child.node) {  // c matches nothing
      if (node.kind == Kind::kAnd) return {};
      if (node.kind == Kind::kOr) continue;
      // NOT of nothing is every doc, which no node stands for: keep the
      // child as written (the planner finds it empty soon enough).
      std::vector<size_t> scratch;
      const size_t h = deep_hash(*c, scratch);
      children.add(c->clone(), h);
      continue;
    }
    if (flattens && child.node->kind == node.kind) {
      for (size_t i = 0; i < child.node->children.size(); ++i) {
        auto& grandchild = child.node->children[i];
        grandchild->weight *= child.node->weight;
        children.add(std::move(grandchild), child.child_hashes[i]);
      }
    } else {
      children.add(std::move(child.node), child.hash);
    }
  }
  // An OR whose every clause matches nothing; an AND of x and NOT x.
  if (flattens && n.children.empty()) return {};
  if (n.kind == Kind::kAnd && children.contradicts()) return {};
  // A one-child AND/OR is its child, carrying the group's weight.
  if (flattens && n.children.size() == 1) {
    Clause only;
    only.node = std::move(n.children[0]);
    only.node->weight *= n.weight;
    only.hash = deep_hash(*only.node, only.child_hashes);
    return only;
  }
  // NOT NOT x is x, weighted by both NOTs (which only matters when the
  // chain is a scoring clause).
  if (n.kind == Kind::kNot && n.children[0]->kind == Kind::kNot) {
    Clause x;
    x.node = std::move(n.children[0]->children[0]);
    x.node->weight *= n.weight * n.children[0]->weight;
    x.hash = deep_hash(*x.node, x.child_hashes);
    return x;
  }
  out.hash = clause_hash(n, out.child_hashes);
  return out;
}

// Whether an AND holds an OR or an OR an AND, somewhere in node: where a
// group may be implied. Recursion is bounded by the tree's depth.
bool nests_and_or(const QueryNode& node) {
  for (const auto& c : node.children) {
    if ((node.kind == Kind::kAnd && c->kind == Kind::kOr) || (node.kind == Kind::kOr && c->kind == Kind::kAnd))
      return true;
    if (nests_and_or(*c)) return true;
  }
  return false;
}

// node without the groups a sibling implies (drop_implied_clauses()),
// with its hashes. Each group looks its OR (AND) children's clauses up
// among its own children by hash: linear in the tree, as a query may hold
// thousands of clauses. Recursion is bounded by the tree's depth.
Clause drop_implied(std::unique_ptr<QueryNode> node) {
  std::vector<Clause> below;
  below.reserve(node->children.size());
  for (auto& c : node->children) below.push_back(drop_implied(std::move(c)));
  const Kind other = node->kind == Kind::kAnd ? Kind::kOr : Kind::kAnd;
  const bool group = node->kind == Kind::kAnd || node->kind == Kind::kOr;
  auto of_other_kind = [&](const Clause& c) { return c.node->kind == other; };
  if (group && std::any_of(below.begin(), below.end(), of_other_kind)) {
    std::unordered_multimap<size_t, size_t> by_hash;  // clause hash -> index in below
    for (size_t j = 0; j < below.size(); ++j) by_hash.emplace(below[j].hash, j);
    // Child i goes where one of its clauses is another child that stays
    // (of two that imply each other, one stays).
    std::vector<bool> dropped(below.size(), false);
    for (size_t i = 0; i < below.size(); ++i) {
      if (!of_other_kind(below[i])) continue;
      const auto& clauses = below[i].node->children;
      for (size_t g = 0; g < clauses.size() && !dropped[i]; ++g) {
        auto [first, last] = by_hash.equal_range(below[i].child_hashes[g]);
        for (auto it = first; it != last && !dropped[i]; ++it) {
          const size_t j = it->second;
          dropped[i] = j != i && !dropped[j] && same_clause(*clauses[g], *below[j].node);
        }
      }
    }
    size_t kept = 0;
    for (size_t i = 0; i < below.size(); ++i) {
      if (!dropped[i]) below[kept++] = std::move(below[i]);
    }
    below.resize(kept);
    // A group of one clause is that clause (weights do not matter to matching).
    if (kept == 1) return std::move(below[0]);
  }
  Clause out;
  out.node = std::move(node);
  out.node->children.clear();
  for (Clause& c : below) {
    out.child_hashes.push_back(c.hash);
    out.node->children.push_back(std::move(c.node));
  }
  out.hash = clause_hash(*out.node, out.child_hashes);
  return out;
}

}  // namespace

std::unique_ptr<QueryNode> simplify_query(const QueryNode& node) { return simplify(node).node; }

std::unique_ptr<QueryNode> drop_implied_clauses(std::unique_ptr<QueryNode> node) {
  // Most queries have no group of one kind under the other: they are left
  // as they are without hashing a clause.
  if (node && nests_and_or(*node)) return drop_implied(std::move(node)).node;
  return node;
}

}  // namespace fts
