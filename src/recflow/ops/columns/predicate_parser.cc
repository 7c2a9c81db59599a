// ParsePredicate: a tokenizer and a recursive-descent parser of filter expressions; Filter.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <utility>

#include "recflow/columnar/take.h"
#include "recflow/columnar/value_parsing.h"
#include "recflow/ops/columns/column_util_internal.h"
#include "recflow/ops/columns/predicate.h"
#include "recflow/ops/columns/predicate_nodes_internal.h"

namespace recflow::ops {

namespace {

using internal::CompareOp;
using internal::Node;

/// Longest filter text accepted (bounds the depth of and/or chains, which evaluate recursively).
constexpr size_t kMaxFilterBytes = 10'000;
/// Deepest nesting of parentheses and `not`.
constexpr int kMaxNesting = 64;

enum class TokenKind { kName, kQuotedName, kInt, kFloat, kText, kOp, kLParen, kRParen, kLBracket, kRBracket, kComma, kEnd };

struct Token {
  TokenKind kind = TokenKind::kEnd;
  size_t pos = 0;    ///< 0-based byte offset in the expression
  std::string text;  ///< names, numbers and operators as written; texts unescaped
};

bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

class Parser {
 public:
  Parser(std::string_view text, const Schema& schema) : text_(text), schema_(schema) {}

  Result<std::unique_ptr<Node>> Parse() {
    if (text_.size() > kMaxFilterBytes) {
      return Status::InvalidArgument("filter: the expression is longer than " + std::to_string(kMaxFilterBytes) +
                                     " characters");
    }
    RETURN_NOT_OK(Tokenize());
    if (tokens_.front().kind == TokenKind::kEnd) return Error(0, "the filter is empty");
    ASSIGN_OR_RETURN(auto node, ParseOr());
    if (Peek().kind != TokenKind::kEnd) return Error(Peek().pos, "expected 'and', 'or' or the end, found " + Describe(Peek()));
    return node;
  }

 private:
  Status Error(size_t pos, const std::string& message) const {
    return Status::InvalidArgument("filter \"" + std::string(text_) + "\": at character " + std::to_string(pos + 1) + ": " +
                                   message);
  }

  static std::string Describe(const Token& token) {
    switch (token.kind) {
      case TokenKind::kEnd: return "the end";
      case TokenKind::kText: return "'" + token.text + "' (a text)";
      default: return "'" + token.text + "'";
    }
  }

  Status Tokenize() {
    size_t i = 0;
    while (true) {
      while (i < text_.size() && std::isspace(static_cast<unsigned char>(text_[i]))) ++i;
      Token token;
      token.pos = i;
      if (i == text_.size()) break;
      const char c = text_[i];
      if (IsNameStart(c)) {
        size_t end = i;
        while (end < text_.size() && IsNameChar(text_[end])) ++end;
        token.kind = TokenKind::kName;
        token.text = std::string(text_.substr(i, end - i));
        i = end;
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 ((c == '-' || c == '+' || c == '.') && i + 1 < text_.size() &&
                  (std::isdigit(static_cast<unsigned char>(text_[i + 1])) || text_[i + 1] == '.'))) {
        size_t end = i + 1;
        bool is_float = c == '.';
        while (end < text_.size()) {
          const char d = text_[end];
          if (std::isdigit(static_cast<unsigned char>(d))) {
            ++end;
          } else if (d == '.' || d == 'e' || d == 'E') {
            is_float = true;
            ++end;
            if ((d == 'e' || d == 'E') && end < text_.size() && (text_[end] == '-' || text_[end] == '+')) ++end;
          } else {
            break;
          }
        }
        token.kind = is_float ? TokenKind::kFloat : TokenKind::kInt;
        token.text = std::string(text_.substr(i, end - i));
        i = end;
      } else if (c == '\'' || c == '"' || c == '`') {
        size_t end = i + 1;
        while (end < text_.size() && text_[end] != c) {
          if (text_[end] == '\\' && end + 1 < text_.size()) ++end;
          token.text += text_[end++];
        }
        if (end == text_.size()) return Error(i, std::string("unterminated ") + (c == '`' ? "name" : "text"));
        token.kind = c == '`' ? TokenKind::kQuotedName : TokenKind::kText;
        i = end + 1;
      } else if (c == '=' || c == '!' || c == '<' || c == '>') {
        const std::string_view two = text_.substr(i, 2);
        if (two == "==" || two == "!=" || two == "<=" || two == ">=" || two == "<>") {
          token.text = std::string(two);
        } else if (c != '!') {
          token.text = std::string(1, c);
        } else {
          return Error(i, "'!' must be followed by '=' (use 'not' to negate)");
        }
        token.kind = TokenKind::kOp;
        i += token.text.size();
      } else {
        static constexpr std::string_view kPunctuation = "()[],";
        const size_t p = kPunctuation.find(c);
        if (p == std::string_view::npos) return Error(i, "unexpected character '" + std::string(1, c) + "'");
        constexpr TokenKind kKinds[] = {TokenKind::kLParen, TokenKind::kRParen, TokenKind::kLBracket, TokenKind::kRBracket,
                                        TokenKind::kComma};
        token.kind = kKinds[p];
        token.text = std::string(1, c);
        ++i;
      }
      tokens_.push_back(std::move(token));
    }
    Token end;
    end.pos = text_.size();
    tokens_.push_back(std::move(end));
    return Status::OK();
  }

  const Token& Peek(size_t ahead = 0) const { return tokens_[std::min(next_ + ahead, tokens_.size() - 1)]; }
  const Token& Take() { return tokens_[std::min(next_++, tokens_.size() - 1)]; }
  bool IsKeyword(const Token& token, std::string_view keyword) const {
    return token.kind == TokenKind::kName && Lower(token.text) == keyword;
  }
  bool TakeKeyword(std::string_view keyword) {
    if (!IsKeyword(Peek(), keyword)) return false;
    ++next_;
    return true;
  }

  Result<std::unique_ptr<Node>> ParseOr() {
    ASSIGN_OR_RETURN(auto left, ParseAnd());
    while (TakeKeyword("or")) {
      ASSIGN_OR_RETURN(auto right, ParseAnd());
      left = internal::MakeLogical(false, std::move(left), std::move(right));
    }
    return left;
  }

  Result<std::unique_ptr<Node>> ParseAnd() {
    ASSIGN_OR_RETURN(auto left, ParseUnary());
    while (TakeKeyword("and")) {
      ASSIGN_OR_RETURN(auto right, ParseUnary());
      left = internal::MakeLogical(true, std::move(left), std::move(right));
    }
    return left;
  }

  Result<std::unique_ptr<Node>> ParseUnary() {
    if (++depth_ > kMaxNesting) return Error(Peek().pos, "nested deeper than " + std::to_string(kMaxNesting) + " levels");
    auto node = ParseNested();
    --depth_;
    return node;
  }

  Result<std::unique_ptr<Node>> ParseNested() {
    if (TakeKeyword("not")) {
      ASSIGN_OR_RETURN(auto child, ParseUnary());
      return internal::MakeNot(std::move(child));
    }
    if (Peek().kind == TokenKind::kLParen) {
      const size_t open = Take().pos;
      ASSIGN_OR_RETURN(auto inner, ParseOr());
      if (Peek().kind != TokenKind::kRParen) {
        return Error(Peek().pos, "expected ')' to close the '(' at character " + std::to_string(open + 1) + ", found " +
                                     Describe(Peek()));
      }
      Take();
      return inner;
    }
    return ParseTest();
  }

  bool IsLiteral(const Token& token) const {
    return token.kind == TokenKind::kInt || token.kind == TokenKind::kFloat || token.kind == TokenKind::kText ||
           IsKeyword(token, "true") || IsKeyword(token, "false") || IsKeyword(token, "null");
  }
  bool IsColumn(const Token& token) const {
    if (token.kind == TokenKind::kQuotedName) return true;
    if (token.kind != TokenKind::kName) return false;
    static constexpr std::string_view kKeywords[] = {"and", "or", "not", "in", "is", "null", "true", "false"};
    const std::string lower = Lower(token.text);
    for (std::string_view k : kKeywords) {
      if (lower == k) return false;
    }
    return true;
  }

  Result<Scalar> ParseLiteral() {
    const Token& token = Take();
    switch (token.kind) {
      case TokenKind::kInt: {
        int64_t value = 0;
        if (!ParseInteger(token.text, &value)) return Error(token.pos, "integer " + token.text + " is out of range");
        return Scalar(value);
      }
      case TokenKind::kFloat: {
        double value = 0;
        if (!ParseFloat(token.text, &value)) return Error(token.pos, "malformed number " + token.text);
        return Scalar(value);
      }
      case TokenKind::kText: return Scalar(token.text);
      default: break;
    }
    if (IsKeyword(token, "true")) return Scalar(true);
    if (IsKeyword(token, "false")) return Scalar(false);
    if (IsKeyword(token, "null")) return Scalar(std::monostate());
    return Error(token.pos, "expected a value (number, 'text', true, false), found " + Describe(token));
  }

  Result<internal::ColumnRef> ParseColumn() {
    const Token& token = Take();
    auto index = internal::FindColumn(schema_, token.text, "filter");
    if (!index.ok()) return Error(token.pos, index.status().message());
    return internal::ColumnRef{*index, schema_.field(*index)};
  }

  static std::optional<CompareOp> ToOp(const Token& token) {
    if (token.kind != TokenKind::kOp) return std::nullopt;
    const std::string& t = token.text;
    if (t == "==" || t == "=") return CompareOp::kEq;
    if (t == "!=" || t == "<>") return CompareOp::kNe;
    if (t == "<") return CompareOp::kLt;
    if (t == "<=") return CompareOp::kLe;
    if (t == ">") return CompareOp::kGt;
    return CompareOp::kGe;
  }

  static CompareOp Mirror(CompareOp op) {
    switch (op) {
      case CompareOp::kLt: return CompareOp::kGt;
      case CompareOp::kLe: return CompareOp::kGe;
      case CompareOp::kGt: return CompareOp::kLt;
      case CompareOp::kGe: return CompareOp::kLe;
      default: return op;
    }
  }

  Result<std::unique_ptr<Node>> Compare(const internal::ColumnRef& column, CompareOp op, const std::vector<Scalar>& values,
                                        size_t pos) {
    auto node = internal::MakeCompare(column, op, values);
    if (!node.ok()) return Error(pos, node.status().message());
    return node;
  }

  Result<std::unique_ptr<Node>> ParseTest() {
    const Token& first = Peek();
    if (IsLiteral(first)) {
      ASSIGN_OR_RETURN(Scalar value, ParseLiteral());
      const std::optional<CompareOp> op = ToOp(Peek());
      if (!op) return Error(Peek().pos, "expected a comparison operator after " + ScalarToString(value) + ", found " + Describe(Peek()));
      Take();
      if (!IsColumn(Peek())) return Error(Peek().pos, "expected a column name, found " + Describe(Peek()));
      ASSIGN_OR_RETURN(internal::ColumnRef column, ParseColumn());
      return Compare(column, Mirror(*op), {value}, first.pos);
    }
    if (!IsColumn(first)) {
      return Error(first.pos, "expected a column name, a value, 'not' or '(', found " + Describe(first));
    }
    ASSIGN_OR_RETURN(internal::ColumnRef column, ParseColumn());
    if (const std::optional<CompareOp> op = ToOp(Peek())) {
      Take();
      const size_t literal_pos = Peek().pos;
      ASSIGN_OR_RETURN(Scalar value, ParseLiteral());
      return Compare(column, *op, {value}, literal_pos);
    }
    if (TakeKeyword("is")) {
      const bool negated = TakeKeyword("not");
      if (!TakeKeyword("null")) return Error(Peek().pos, "expected 'null' after 'is', found " + Describe(Peek()));
      return internal::MakeIsNull(column, negated);
    }
    const bool negated = IsKeyword(Peek(), "not") && IsKeyword(Peek(1), "in");
    if (negated) Take();
    if (TakeKeyword("in")) {
      if (Peek().kind != TokenKind::kLBracket) return Error(Peek().pos, "expected '[' after 'in', found " + Describe(Peek()));
      const size_t list_pos = Take().pos;
      std::vector<Scalar> values;
      while (true) {
        ASSIGN_OR_RETURN(Scalar value, ParseLiteral());
        values.push_back(std::move(value));
        if (Peek().kind == TokenKind::kComma) {
          Take();
          continue;
        }
        if (Peek().kind == TokenKind::kRBracket) break;
        return Error(Peek().pos, "expected ',' or ']' in the list, found " + Describe(Peek()));
      }
      Take();
      ASSIGN_OR_RETURN(auto node, Compare(column, CompareOp::kIn, values, list_pos));
      return negated ? internal::MakeNot(std::move(node)) : std::move(node);
    }
    if (column.field->type()->id() != TypeId::kBool) {
      return Error(Peek().pos, "expected a comparison, 'is' or 'in' after column '" + column.field->name() + "' (" +
                                   column.field->type()->ToString() + "), found " + Describe(Peek()));
    }
    return internal::MakeBoolColumn(column);
  }

  std::string_view text_;
  const Schema& schema_;
  std::vector<Token> tokens_;
  size_t next_ = 0;
  int depth_ = 0;
};

class ParsedPredicate final : public Predicate {
 public:
  explicit ParsedPredicate(std::unique_ptr<Node> root) : root_(std::move(root)) {}

  Result<std::vector<int64_t>> SelectRows(const RecordBatch& batch) const override {
    std::vector<internal::Truth> truth;
    RETURN_NOT_OK(root_->Evaluate(batch, &truth));
    std::vector<int64_t> rows;
    for (size_t i = 0; i < truth.size(); ++i) {
      if (truth[i] == internal::Truth::kTrue) rows.push_back(static_cast<int64_t>(i));
    }
    return rows;
  }
  std::string ToString() const override { return root_->ToString(); }

 private:
  std::unique_ptr<Node> root_;
};

}  // namespace

Result<std::unique_ptr<Predicate>> ParsePredicate(std::string_view text, const Schema& schema) {
  Parser parser(text, schema);
  ASSIGN_OR_RETURN(auto root, parser.Parse());
  return std::unique_ptr<Predicate>(std::make_unique<ParsedPredicate>(std::move(root)));
}

Result<std::shared_ptr<RecordBatch>> Filter(const RecordBatch& batch, const Predicate& predicate) {
  ASSIGN_OR_RETURN(std::vector<int64_t> rows, predicate.SelectRows(batch));
  return TakeRows(batch, rows);
}

}  // namespace recflow::ops
