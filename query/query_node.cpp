#include "query/query_node.h"

namespace fts {

namespace {

// Recursion is bounded: parse_query never builds a tree deeper than
// kMaxQueryDepth (query/parser.h).
void append_canonical(const QueryNode& node, std::string& out) {
  switch (node.kind) {
    case QueryNode::Kind::kTerm:
    case QueryNode::Kind::kPhrase: {
      if (node.field == Field::kTitle) out += "title:";
      if (node.field == Field::kAbstract) out += "abstract:";
      const bool quoted = node.kind == QueryNode::Kind::kPhrase;
      if (quoted) out += '"';
      for (size_t i = 0; i < node.terms.size(); ++i) {
        if (i > 0) out += ' ';
        out += node.terms[i];
      }
      if (quoted) out += '"';
      break;
    }
    case QueryNode::Kind::kAnd:
    case QueryNode::Kind::kOr:
    case QueryNode::Kind::kNot: {
      out += node.kind == QueryNode::Kind::kAnd  ? "AND("
             : node.kind == QueryNode::Kind::kOr ? "OR("
                                                 : "NOT(";
      for (size_t i = 0; i < node.children.size(); ++i) {
        if (i > 0) out += ", ";
        append_canonical(*node.children[i], out);
      }
      out += ')';
      break;
    }
  }
  if (node.weight != 1) {
    out += '^';
    out += std::to_string(node.weight);
  }
}

}  // namespace

std::string QueryNode::to_string() const {
  std::string out;
  append_canonical(*this, out);
  return out;
}

std::unique_ptr<QueryNode> QueryNode::clone() const {
  auto copy = std::make_unique<QueryNode>();
  copy->kind = kind;
  copy->field = field;
  copy->terms = terms;
  copy->weight = weight;
  copy->children.reserve(children.size());
  for (const auto& child : children) copy->children.push_back(child->clone());
  return copy;
}

std::string query_to_string(const QueryNode* root) {
  return root ? root->to_string() : std::string(kMatchesNothingText);
}

}  // namespace fts
