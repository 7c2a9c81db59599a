// StepArgs: typed access to a step's YAML arguments, with parameters substituted and positions in every error.
#include "recflow/pipeline/step_args.h"

#include <cerrno>
#include <cstdlib>

#include "recflow/pipeline/window/duration.h"
#include "recflow/pipeline/yaml_value_internal.h"

namespace recflow::pipeline {

std::string YamlLocation::ToString() const {
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

Result<std::string> SubstituteParams(std::string_view text, const std::map<std::string, std::string>& params) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const size_t start = text.find("${", i);
    if (start == std::string_view::npos) break;
    const size_t end = text.find('}', start);
    if (end == std::string_view::npos) return Status::InvalidArgument("unclosed ${ in '" + std::string(text) + "'");
    const std::string name(text.substr(start + 2, end - start - 2));
    auto it = params.find(name);
    if (it == params.end()) {
      std::string known;
      for (const auto& [k, v] : params) known += (known.empty() ? "" : ", ") + k;
      return Status::InvalidArgument("unknown parameter ${" + name + "} (parameters: " +
                                     (known.empty() ? "none" : known) + ")");
    }
    out.append(text.substr(i, start - i));
    out += it->second;
    i = end + 1;
  }
  out.append(text.substr(i));
  return out;
}

StepArgs::StepArgs(std::string step, std::shared_ptr<const YamlValue> node, YamlLocation where, std::string shorthand,
                   const std::map<std::string, std::string>* params)
    : step_(std::move(step)), node_(std::move(node)), where_(std::move(where)), shorthand_(std::move(shorthand)),
      params_(params) {}

StepArgs::~StepArgs() = default;

bool StepArgs::Has(std::string_view key) const {
  if (!node_->node.IsMap()) return key == shorthand_ && !node_->node.IsNull();
  try {
    return static_cast<bool>(node_->node[std::string(key)]);
  } catch (const YAML::Exception&) {
    return false;
  }
}

const YamlValue* StepArgs::Find(std::string_view key) {
  asked_.insert(std::string(key));
  try {
    if (!node_->node.IsMap()) {
      if (key != shorthand_ || node_->node.IsNull()) return nullptr;
      return node_.get();
    }
    YAML::Node value = node_->node[std::string(key)];
    if (!value) return nullptr;
    found_.push_back(std::make_unique<YamlValue>(YamlValue{value}));
    return found_.back().get();
  } catch (const YAML::Exception&) {
    return nullptr;
  }
}

Status StepArgs::Error(std::string_view key, const std::string& message) const {
  YamlLocation at = where_;
  try {
    if (node_->node.IsMap() && node_->node[std::string(key)]) at = LocationOf(where_.file, node_->node[std::string(key)]);
  } catch (const YAML::Exception&) {
  }
  return Status::InvalidArgument(at.ToString() + ": step '" + step_ + "', " + std::string(key) + ": " + message);
}

Result<std::string> StepArgs::Scalar(std::string_view key, const YamlValue& value) const {
  if (!value.node.IsScalar()) return Error(key, "expected a single value");
  auto text = SubstituteParams(value.node.Scalar(), *params_);
  if (!text.ok()) return Error(key, text.status().message());
  return text;
}

Result<std::string> StepArgs::String(std::string_view key) {
  const YamlValue* value = Find(key);
  if (value == nullptr) return Error(key, "missing (required)");
  return Scalar(key, *value);
}

Result<std::string> StepArgs::String(std::string_view key, std::string fallback) {
  const YamlValue* value = Find(key);
  if (value == nullptr) return fallback;
  return Scalar(key, *value);
}

namespace {

Result<int64_t> ParseInt(const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0) return Status::InvalidArgument("'" + text + "' is not an integer");
  return static_cast<int64_t>(v);
}

Result<double> ParseDouble(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') return Status::InvalidArgument("'" + text + "' is not a number");
  return v;
}

}  // namespace

Result<int64_t> StepArgs::Int(std::string_view key) {
  ASSIGN_OR_RETURN(std::string text, String(key));
  auto v = ParseInt(text);
  if (!v.ok()) return Error(key, v.status().message());
  return v;
}

Result<int64_t> StepArgs::Int(std::string_view key, int64_t fallback) {
  if (!Has(key)) {
    asked_.insert(std::string(key));
    return fallback;
  }
  return Int(key);
}

Result<double> StepArgs::Double(std::string_view key) {
  ASSIGN_OR_RETURN(std::string text, String(key));
  auto v = ParseDouble(text);
  if (!v.ok()) return Error(key, v.status().message());
  return v;
}

Result<double> StepArgs::Double(std::string_view key, double fallback) {
  if (!Has(key)) {
    asked_.insert(std::string(key));
    return fallback;
  }
  return Double(key);
}

Result<int64_t> StepArgs::Duration(std::string_view key, int64_t fallback) {
  const YamlValue* value = Find(key);
  if (value == nullptr) return fallback;
  return ScalarDuration(key, *value);
}

Result<int64_t> StepArgs::ScalarDuration(std::string_view key, const YamlValue& value) const {
  ASSIGN_OR_RETURN(std::string text, Scalar(key, value));
  auto millis = window::ParseDuration(text);
  if (!millis.ok()) return Error(key, millis.status().message());
  return millis;
}

Result<bool> StepArgs::Bool(std::string_view key, bool fallback) {
  ASSIGN_OR_RETURN(std::string text, String(key, fallback ? "true" : "false"));
  if (text == "true" || text == "yes" || text == "on" || text == "True") return true;
  if (text == "false" || text == "no" || text == "off" || text == "False") return false;
  return Error(key, "expected true or false, got '" + text + "'");
}

Result<std::vector<std::string>> StepArgs::StringList(std::string_view key, std::vector<std::string> fallback) {
  const YamlValue* value = Find(key);
  if (value == nullptr) return fallback;
  std::vector<std::string> out;
  if (value->node.IsScalar()) {
    ASSIGN_OR_RETURN(std::string one, Scalar(key, *value));
    out.push_back(std::move(one));
    return out;
  }
  if (!value->node.IsSequence()) return Error(key, "expected a value or a list of values");
  for (const YAML::Node& item : value->node) {
    ASSIGN_OR_RETURN(std::string text, Scalar(key, YamlValue{item}));
    out.push_back(std::move(text));
  }
  return out;
}

Result<std::vector<double>> StepArgs::DoubleList(std::string_view key, std::vector<double> fallback) {
  if (!Has(key)) {
    asked_.insert(std::string(key));
    return fallback;
  }
  ASSIGN_OR_RETURN(std::vector<std::string> texts, StringList(key));
  std::vector<double> out;
  for (const std::string& text : texts) {
    auto v = ParseDouble(text);
    if (!v.ok()) return Error(key, v.status().message());
    out.push_back(*v);
  }
  return out;
}

Result<std::vector<std::pair<std::string, std::string>>> StepArgs::StringMap(std::string_view key) {
  const YamlValue* value = Find(key);
  if (value == nullptr) return Error(key, "missing (required)");
  if (!value->node.IsMap()) return Error(key, "expected a mapping of names to values");
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& item : value->node) {
    ASSIGN_OR_RETURN(std::string k, Scalar(key, YamlValue{item.first}));
    ASSIGN_OR_RETURN(std::string v, Scalar(key, YamlValue{item.second}));
    out.emplace_back(std::move(k), std::move(v));
  }
  return out;
}

Status StepArgs::CheckAllUsed() const {
  if (!node_->node.IsMap()) return Status::OK();
  std::string allowed;
  for (const std::string& key : asked_) allowed += (allowed.empty() ? "" : ", ") + key;
  for (const auto& item : node_->node) {
    const std::string key = item.first.Scalar();
    if (asked_.count(key) == 0) {
      return Status::InvalidArgument(LocationOf(where_.file, item.first).ToString() + ": step '" + step_ +
                                     "': unknown key '" + key + "' (allowed: " + allowed + ")");
    }
  }
  return Status::OK();
}

}  // namespace recflow::pipeline
