// band_math expressions: a recursive-descent compiler to a postfix program and its tile-at-a-time evaluator.
#include "recflow/raster/expression.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <tuple>

#include <fmt/format.h>

namespace recflow::raster {
namespace {

constexpr size_t kMaxLength = 4096;
constexpr int kMaxDepth = 64;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using Op = Expression::Op;

// Recursive descent over: sum := product (('+'|'-') product)*; product := unary (('*'|'/') unary)*;
// unary := '-' unary | primary; primary := number | name | name '(' args ')' | '(' sum ')'.
class Compiler {
 public:
  // `names` null: any name is a band (a syntax check).
  Compiler(std::string_view text, const std::vector<std::string>* names) : text_(text), names_(names) {}

  Status Run(std::vector<Op>* program, std::vector<int>* used, int* max_depth) {
    RETURN_NOT_OK(Sum(0));
    Skip();
    if (pos_ != text_.size()) return Error("unexpected '" + std::string(1, text_[pos_]) + "'");
    *program = std::move(program_);
    std::sort(used_.begin(), used_.end());
    used_.erase(std::unique(used_.begin(), used_.end()), used_.end());
    *used = std::move(used_);
    *max_depth = max_stack_;
    return Status::OK();
  }

 private:
  Status Error(const std::string& message) const {
    return Status::InvalidArgument(fmt::format("expression '{}', at character {}: {}", text_, pos_ + 1, message));
  }
  void Skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Accept(char c) {
    Skip();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void Emit(Op op) {
    program_.push_back(op);
    if (op.kind == Op::kConst || op.kind == Op::kBand) {
      max_stack_ = std::max(max_stack_, ++stack_);
    } else if (op.kind == Op::kAdd || op.kind == Op::kSub || op.kind == Op::kMul || op.kind == Op::kDiv ||
               op.kind == Op::kMin || op.kind == Op::kMax) {
      --stack_;
    } else if (op.kind == Op::kWithin) {
      stack_ -= 2;
    }
  }
  Status Sum(int depth) {
    if (depth > kMaxDepth) return Error("nested deeper than 64 levels");
    return LeftAssociative(depth, '+', Op::kAdd, '-', Op::kSub, &Compiler::Product);
  }
  Status Product(int depth) { return LeftAssociative(depth, '*', Op::kMul, '/', Op::kDiv, &Compiler::Unary); }
  // operand ((a | b) operand)*, each operator emitted after its right operand.
  Status LeftAssociative(int depth, char a, Op::Kind a_op, char b, Op::Kind b_op, Status (Compiler::*operand)(int)) {
    RETURN_NOT_OK((this->*operand)(depth + 1));
    for (;;) {
      const bool is_a = Accept(a);
      if (!is_a && !Accept(b)) return Status::OK();
      RETURN_NOT_OK((this->*operand)(depth + 1));
      Emit({is_a ? a_op : b_op});
    }
  }
  Status Unary(int depth) {
    if (depth > kMaxDepth) return Error("nested deeper than 64 levels");
    if (Accept('-')) {
      RETURN_NOT_OK(Unary(depth + 1));
      Emit({Op::kNeg});
      return Status::OK();
    }
    return Primary(depth + 1);
  }
  Status Primary(int depth) {
    Skip();
    if (pos_ >= text_.size()) return Error("expected a number, a band or '('");
    const char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      RETURN_NOT_OK(Sum(depth + 1));
      if (!Accept(')')) return Error("expected ')'");
      return Status::OK();
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return Number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return Name(depth);
    return Error("unexpected '" + std::string(1, c) + "'");
  }
  Status Number() {
    double value = 0;
    const char* begin = text_.data() + pos_;
    const auto [end, ec] = std::from_chars(begin, text_.data() + text_.size(), value);
    if (ec != std::errc() || !std::isfinite(value)) return Error("not a number");
    pos_ += static_cast<size_t>(end - begin);
    Emit({Op::kConst, value});
    return Status::OK();
  }
  Status Name(int depth) {
    const size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    const std::string name(text_.substr(start, pos_ - start));
    Skip();
    if (pos_ < text_.size() && text_[pos_] == '(') return Call(name, start, depth);
    int band = 0;
    if (names_ != nullptr) {
      const auto it = std::find(names_->begin(), names_->end(), name);
      if (it == names_->end()) {
        pos_ = start;
        return Error(fmt::format("no band '{}' (bands: {})", name, fmt::join(*names_, ", ")));
      }
      band = static_cast<int>(it - names_->begin());
    }
    used_.push_back(band);
    Emit({Op::kBand, 0, band});
    return Status::OK();
  }
  Status Call(const std::string& name, size_t start, int depth) {
    // Each function: its name, its operation and how many arguments it takes.
    static constexpr std::array<std::tuple<std::string_view, Op::Kind, int>, 6> kFunctions{{
        {"abs", Op::kAbs, 1},
        {"sqrt", Op::kSqrt, 1},
        {"min", Op::kMin, 2},
        {"max", Op::kMax, 2},
        {"positive", Op::kPositive, 1},
        {"within", Op::kWithin, 3},
    }};
    const auto* it = std::find_if(kFunctions.begin(), kFunctions.end(),
                                  [&](const auto& f) { return std::get<0>(f) == name; });
    if (it == kFunctions.end()) {
      pos_ = start;
      return Error("no function '" + name + "' (functions: abs, sqrt, min, max, positive, within)");
    }
    const Op::Kind kind = std::get<1>(*it);
    const int arity = std::get<2>(*it);
    ++pos_;  // '('
    for (int i = 0; i < arity; ++i) {
      if (i > 0 && !Accept(',')) return Error(fmt::format("{} takes {} arguments", name, arity == 2 ? "two" : "three"));
      RETURN_NOT_OK(Sum(depth + 1));
    }
    if (!Accept(')')) return Error("expected ')'");
    Emit({kind});
    return Status::OK();
  }

  std::string_view text_;
  const std::vector<std::string>* names_;
  size_t pos_ = 0;
  std::vector<Op> program_;
  std::vector<int> used_;
  int stack_ = 0;
  int max_stack_ = 0;
};

// NaN when either is NaN (std::fmin/fmax would return the other operand).
double NanMin(double a, double b) { return a != a || b != b ? a + b : (a < b ? a : b); }
double NanMax(double a, double b) { return a != a || b != b ? a + b : (a > b ? a : b); }

}  // namespace

Result<Expression> Expression::Compile(std::string_view text, const std::vector<std::string>& names) {
  if (text.size() > kMaxLength) return Status::InvalidArgument("expression longer than 4096 characters");
  Expression e;
  RETURN_NOT_OK(Compiler(text, &names).Run(&e.program_, &e.used_, &e.max_depth_));
  return e;
}

Status Expression::CheckSyntax(std::string_view text) {
  if (text.size() > kMaxLength) return Status::InvalidArgument("expression longer than 4096 characters");
  Expression e;
  return Compiler(text, nullptr).Run(&e.program_, &e.used_, &e.max_depth_);
}

void Expression::Evaluate(std::span<const double* const> bands, int64_t n, double* out,
                          std::vector<std::vector<double>>& scratch) const {
  if (scratch.size() < static_cast<size_t>(max_depth_)) scratch.resize(static_cast<size_t>(max_depth_));
  for (auto& s : scratch) {
    if (s.size() < static_cast<size_t>(n)) s.resize(static_cast<size_t>(n));
  }
  // A constant stays one number on the stack (value[slot]) rather than a tile of copies until an
  // operation needs it as values; the arithmetic per pixel is the same either way.
  std::vector<double> value(static_cast<size_t>(max_depth_));
  std::vector<char> scalar(static_cast<size_t>(max_depth_), 0);
  size_t top = 0;  // stack entries in use
  auto materialize = [&](size_t slot) {
    if (!scalar[slot]) return;
    std::fill_n(scratch[slot].data(), n, value[slot]);
    scalar[slot] = 0;
  };
  auto unary = [&](auto f) {
    const size_t a = top - 1;
    if (scalar[a]) {
      value[a] = f(value[a]);
      return;
    }
    double* x = scratch[a].data();
    for (int64_t i = 0; i < n; ++i) x[i] = f(x[i]);
  };
  auto binary = [&](auto f) {
    const size_t a = top - 2, b = top - 1;
    --top;
    double* x = scratch[a].data();
    const double* y = scratch[b].data();
    if (scalar[a] && scalar[b]) {
      value[a] = f(value[a], value[b]);
    } else if (scalar[a]) {
      const double c = value[a];
      for (int64_t i = 0; i < n; ++i) x[i] = f(c, y[i]);
      scalar[a] = 0;
    } else if (scalar[b]) {
      const double c = value[b];
      for (int64_t i = 0; i < n; ++i) x[i] = f(x[i], c);
    } else {
      for (int64_t i = 0; i < n; ++i) x[i] = f(x[i], y[i]);
    }
  };
  for (const Op& op : program_) {
    switch (op.kind) {
      case Op::kConst:
        value[top] = op.value;
        scalar[top++] = 1;
        break;
      case Op::kBand:
        std::copy_n(bands[static_cast<size_t>(op.band)], n, scratch[top].data());
        scalar[top++] = 0;
        break;
      case Op::kNeg: unary([](double x) { return -x; }); break;
      case Op::kAbs: unary([](double x) { return std::fabs(x); }); break;
      case Op::kSqrt: unary([](double x) { return std::sqrt(x); }); break;
      case Op::kPositive: unary([](double x) { return x > 0 ? x : kNaN; }); break;
      case Op::kWithin: {
        const size_t lo = top - 2, hi = top - 1;
        top -= 2;
        if (scalar[lo] && scalar[hi]) {
          unary([l = value[lo], h = value[hi]](double x) { return x >= l && x <= h ? x : kNaN; });
          break;
        }
        for (const size_t slot : {top - 1, lo, hi}) materialize(slot);
        double* x = scratch[top - 1].data();
        const double* l = scratch[lo].data();
        const double* h = scratch[hi].data();
        for (int64_t i = 0; i < n; ++i) x[i] = x[i] >= l[i] && x[i] <= h[i] ? x[i] : kNaN;
        break;
      }
      case Op::kAdd: binary([](double x, double y) { return x + y; }); break;
      case Op::kSub: binary([](double x, double y) { return x - y; }); break;
      case Op::kMul: binary([](double x, double y) { return x * y; }); break;
      case Op::kDiv: binary([](double x, double y) { return x / y; }); break;
      case Op::kMin: binary(NanMin); break;
      case Op::kMax: binary(NanMax); break;
    }
  }
  if (scalar[0]) {
    std::fill_n(out, n, value[0]);
  } else {
    std::copy_n(scratch[0].data(), n, out);
  }
}

std::string EviExpression(std::string_view blue, std::string_view red, std::string_view nir) {
  // Each band's first use checks its reflectance (NaN propagates to the result from there).
  return fmt::format(
      "within(2.5 * (within({2}, 0, 1) - within({1}, 0, 1)) / positive({2} + 6 * {1} - 7.5 * within({0}, 0, 1) + 1), "
      "-1, 1)",
      blue, red, nir);
}

std::string NdviExpression(std::string_view red, std::string_view nir) {
  return fmt::format("({1} - {0}) / ({1} + {0})", red, nir);
}

}  // namespace recflow::raster
