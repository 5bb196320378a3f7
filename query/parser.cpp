// An iterative recursive-descent parser: the grammar's recursion (groups in
// parentheses, NOT chains) lives in an explicit stack of open groups, so no
// query can overflow the call stack. Analysis happens as leaves are parsed
// and dropped operands are folded away as groups close.
//
// Which error a malformed query gets is part of the contract (the peers and
// the oracle agree on it), so the order of checks mirrors the grammar:
// a missing operand is reported against the operator that wanted it, else
// as an empty group / unbalanced parenthesis / dangling leading operator.
#include "query/parser.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "query/lexer.h"

namespace fts {

namespace {

using Kind = QueryToken::Kind;

// An operand after analysis; node is null when it analyzed to nothing.
struct Operand {
  std::unique_ptr<QueryNode> node;
  size_t depth = 0;  // of node's tree; 0 when null
};

// A parenthesised group being parsed (the whole query is the outermost).
struct Group {
  Field field = Field::kAny;  // applies to unqualified leaves inside
  size_t open_position = 0;   // of its '('
  size_t negations = 0;       // NOT/- operators right before the '('
  size_t negation_position = 0;
  std::vector<Operand> alternatives;  // finished AND chains, operands of OR
  std::vector<Operand> conjuncts;     // the AND chain being parsed
};

bool is_blank(std::string_view text) {
  return std::all_of(text.begin(), text.end(), is_query_space);
}

class Parser {
 public:
  Parser(std::string_view text, Analyzer& analyzer)
      : analyzer_(analyzer), tokens_(lex_query(text)) {}

  std::unique_ptr<QueryNode> parse();

 private:
  const QueryToken* peek() const { return next_ < tokens_.size() ? &tokens_[next_] : nullptr; }
  bool previous_is_lparen() const { return next_ > 0 && tokens_[next_ - 1].kind == Kind::kLParen; }

  [[noreturn]] void missing_operand(const QueryToken* after, const QueryToken* found,
                                    const Group& group) const;
  Operand analyze_leaf(const QueryToken& token, Field field);
  Operand negate(Operand operand, size_t count, size_t position);
  Operand combine(QueryNode::Kind kind, std::vector<Operand>& operands, size_t position);
  Operand close(Group& group);
  void too_deep(size_t position);

  Analyzer& analyzer_;
  std::vector<QueryToken> tokens_;
  size_t next_ = 0;
  // The first place the tree grew past kMaxQueryDepth. Reported only after
  // the whole query parsed, so that a syntax error still wins as it would in
  // a parser without the limit.
  std::optional<size_t> too_deep_at_;
};

// The grammar wanted a term, phrase, group or NOT but found `found`
// (null: the end of the query).
void Parser::missing_operand(const QueryToken* after, const QueryToken* found,
                             const Group& group) const {
  if (after != nullptr) {
    throw QuerySyntaxError("dangling operator " + std::string(after->text), after->position);
  }
  if (found == nullptr) {
    // Only possible right after a '(' (an empty query is caught earlier).
    throw QuerySyntaxError("unbalanced parenthesis", group.open_position);
  }
  if (found->kind == Kind::kRParen) {
    if (previous_is_lparen()) {
      throw QuerySyntaxError("empty group", tokens_[next_ - 1].position);
    }
    throw QuerySyntaxError("unbalanced parenthesis", found->position);
  }
  throw QuerySyntaxError("dangling operator " + std::string(found->text), found->position);
}

void Parser::too_deep(size_t position) {
  if (!too_deep_at_) too_deep_at_ = position;
}

Operand Parser::analyze_leaf(const QueryToken& token, Field field) {
  std::vector<std::string> terms = analyzer_.analyze(token.text);
  if (terms.empty()) return {};
  auto node = std::make_unique<QueryNode>();
  node->kind = terms.size() == 1 ? QueryNode::Kind::kTerm : QueryNode::Kind::kPhrase;
  node->field = field;
  node->terms = std::move(terms);
  return {std::move(node), 1};
}

Operand Parser::negate(Operand operand, size_t count, size_t position) {
  for (size_t i = 0; i < count && operand.node; ++i) {
    if (operand.depth + 1 > kMaxQueryDepth) {
      too_deep(position);
      return {};
    }
    auto node = std::make_unique<QueryNode>();
    node->kind = QueryNode::Kind::kNot;
    node->children.push_back(std::move(operand.node));
    operand = {std::move(node), operand.depth + 1};
  }
  return operand;
}

// AND/OR of the operands that did not drop; a single survivor stands for
// the group itself. Nothing else is simplified here: that is the planner's.
Operand Parser::combine(QueryNode::Kind kind, std::vector<Operand>& operands, size_t position) {
  std::erase_if(operands, [](const Operand& operand) { return !operand.node; });
  if (operands.empty()) return {};
  if (operands.size() == 1) return std::move(operands.front());
  size_t depth = 0;
  for (const Operand& operand : operands) depth = std::max(depth, operand.depth);
  if (depth + 1 > kMaxQueryDepth) {
    too_deep(position);
    return {};
  }
  auto node = std::make_unique<QueryNode>();
  node->kind = kind;
  node->children.reserve(operands.size());
  for (Operand& operand : operands) node->children.push_back(std::move(operand.node));
  return {std::move(node), depth + 1};
}

Operand Parser::close(Group& group) {
  group.alternatives.push_back(combine(QueryNode::Kind::kAnd, group.conjuncts, group.open_position));
  return combine(QueryNode::Kind::kOr, group.alternatives, group.open_position);
}

std::unique_ptr<QueryNode> Parser::parse() {
  if (tokens_.empty()) throw QuerySyntaxError("empty query", 0);

  std::vector<Group> groups(1);
  // Parser state between tokens: either an operand (unary) is expected, or
  // one was just completed and an operator, juxtaposition or ')' may follow.
  bool expect_operand = true;
  const QueryToken* after = nullptr;  // operator whose operand is expected
  size_t negations = 0;               // NOT/- read for the expected operand
  size_t negation_position = 0;
  std::optional<Field> field_prefix;  // title:/abstract: read for it

  for (;;) {
    const QueryToken* token = peek();
    Group& group = groups.back();
    if (expect_operand) {
      if (token == nullptr || token->kind == Kind::kRParen || token->kind == Kind::kAnd ||
          token->kind == Kind::kOr) {
        missing_operand(after, token, group);
      }
      ++next_;
      switch (token->kind) {
        case Kind::kNot:
          ++negations;
          negation_position = token->position;
          after = token;
          break;
        case Kind::kField: {
          const QueryToken* operand = peek();
          if (operand == nullptr || (operand->kind != Kind::kTerm &&
                                     operand->kind != Kind::kPhrase &&
                                     operand->kind != Kind::kLParen)) {
            throw QuerySyntaxError("field without term", token->position);
          }
          field_prefix = token->field;  // wins over the enclosing group's
          after = nullptr;
          break;
        }
        case Kind::kPhrase:
          if (is_blank(token->text)) throw QuerySyntaxError("empty phrase", token->position);
          [[fallthrough]];
        case Kind::kTerm:
          group.conjuncts.push_back(
              negate(analyze_leaf(*token, field_prefix.value_or(group.field)), negations,
                     negation_position));
          negations = 0;
          field_prefix.reset();
          expect_operand = false;
          break;
        case Kind::kLParen: {
          Group inner;
          inner.field = field_prefix.value_or(group.field);
          inner.open_position = token->position;
          inner.negations = negations;
          inner.negation_position = negation_position;
          groups.push_back(std::move(inner));  // invalidates `group`
          negations = 0;
          field_prefix.reset();
          after = nullptr;
          break;
        }
        default:
          break;  // rejected above
      }
      continue;
    }

    if (token == nullptr) {
      if (groups.size() > 1) throw QuerySyntaxError("unbalanced parenthesis", group.open_position);
      break;
    }
    switch (token->kind) {
      case Kind::kAnd:
        ++next_;
        after = token;
        break;
      case Kind::kOr:
        ++next_;
        group.alternatives.push_back(
            combine(QueryNode::Kind::kAnd, group.conjuncts, group.open_position));
        group.conjuncts.clear();
        after = token;
        break;
      case Kind::kRParen: {
        if (groups.size() == 1) throw QuerySyntaxError("unbalanced parenthesis", token->position);
        ++next_;
        Operand result = negate(close(group), group.negations, group.negation_position);
        groups.pop_back();  // invalidates `group`
        groups.back().conjuncts.push_back(std::move(result));
        continue;  // an operand was completed: still not expecting one
      }
      default:  // juxtaposition: an implicit AND
        after = nullptr;
        break;
    }
    expect_operand = true;
  }

  Operand result = close(groups.front());
  if (too_deep_at_) throw QuerySyntaxError("query nested too deeply", *too_deep_at_);
  return std::move(result.node);
}

}  // namespace

std::unique_ptr<QueryNode> parse_query(std::string_view text, Analyzer& analyzer) {
  return Parser(text, analyzer).parse();
}

}  // namespace fts
