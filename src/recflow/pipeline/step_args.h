// StepArgs: the arguments of one pipeline step as written in YAML — typed getters whose errors name the file, line,
// column and the keys the step allows; every key must be used.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/result.h"

namespace recflow::pipeline {

struct YamlValue;  // a parsed YAML node (yaml-cpp), kept out of this header

/// Where in a YAML file something is: "pipeline.yaml:12:5".
struct YamlLocation {
  std::string file;
  int line = 0;    ///< 1-based
  int column = 0;  ///< 1-based
  std::string ToString() const;
};

/// The arguments of one step (a YAML mapping, or a scalar or list given for the step's
/// shorthand key). Values may use `${param}` for pipeline parameters.
class StepArgs {
 public:
  /// `node` is the step's value; `shorthand` the key a non-mapping value stands for;
  /// `params` the pipeline's parameters.
  StepArgs(std::string step, std::shared_ptr<const YamlValue> node, YamlLocation where, std::string shorthand,
           const std::map<std::string, std::string>* params);
  ~StepArgs();

  /// The step's name.
  const std::string& step() const { return step_; }
  /// Where the step's arguments start.
  const YamlLocation& where() const { return where_; }
  /// The key is given.
  bool Has(std::string_view key) const;

  /// A text value (a scalar); InvalidArgument when missing or not a scalar.
  Result<std::string> String(std::string_view key);
  /// The same, `fallback` when missing.
  Result<std::string> String(std::string_view key, std::string fallback);
  /// An integer.
  Result<int64_t> Int(std::string_view key);
  Result<int64_t> Int(std::string_view key, int64_t fallback);
  /// A number.
  Result<double> Double(std::string_view key);
  Result<double> Double(std::string_view key, double fallback);
  /// A duration in milliseconds: "500ms", "10s", "5m", "1h" or a whole number of milliseconds
  /// (window::ParseDuration). Missing: `fallback`.
  Result<int64_t> Duration(std::string_view key, int64_t fallback);
  /// The duration scalar `value` found under `key` (a nested argument: a window's size).
  Result<int64_t> ScalarDuration(std::string_view key, const YamlValue& value) const;
  /// true/false (also yes/no, on/off).
  Result<bool> Bool(std::string_view key, bool fallback);
  /// A list of texts; a single scalar is a list of one. Missing: `fallback`.
  Result<std::vector<std::string>> StringList(std::string_view key, std::vector<std::string> fallback = {});
  /// A list of numbers; a single number is a list of one.
  Result<std::vector<double>> DoubleList(std::string_view key, std::vector<double> fallback = {});
  /// A mapping of texts to texts (e.g. renames).
  Result<std::vector<std::pair<std::string, std::string>>> StringMap(std::string_view key);

  /// A value error at `key`: "FILE:LINE:COL: step 'S', KEY: message".
  Status Error(std::string_view key, const std::string& message) const;
  /// InvalidArgument for every key not asked for, listing the keys that were.
  Status CheckAllUsed() const;

  /// The node of `key` (nullptr when missing), recorded as allowed: for arguments that nest
  /// (the window step's trigger), read through yaml_value_internal.h.
  const YamlValue* Find(std::string_view key);
  /// The text of scalar `value` (found under `key`, which errors name), params substituted.
  Result<std::string> Scalar(std::string_view key, const YamlValue& value) const;

 private:

  std::string step_;
  std::shared_ptr<const YamlValue> node_;
  YamlLocation where_;
  std::string shorthand_;
  const std::map<std::string, std::string>* params_;
  std::set<std::string, std::less<>> asked_;
  std::vector<std::unique_ptr<YamlValue>> found_;  // nodes handed out by Find
};

/// `text` with every `${name}` replaced by params[name]; InvalidArgument for an unknown name
/// or an unclosed `${`.
Result<std::string> SubstituteParams(std::string_view text, const std::map<std::string, std::string>& params);

}  // namespace recflow::pipeline
