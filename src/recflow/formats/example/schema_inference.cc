// SchemaInferrer: per record, picks each feature's winning map entry, then folds its kind and lengths into FeatureStats.
#include "recflow/formats/example/schema_inference.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "recflow/columnar/utf8.h"
#include "recflow/formats/example/message_internal.h"

namespace recflow::example {

using wire::Span;

namespace {

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

void UpdateRange(int64_t v, int64_t* lo, int64_t* hi) {
  *lo = *lo < 0 ? v : std::min(*lo, v);
  *hi = std::max(*hi, v);
}

// What one winning Feature holds.
struct Observation {
  FeatureKind kind = FeatureKind::kNone;
  int64_t count = 0;
  bool all_utf8 = true;
};

Status ObserveFeature(const Span* features, size_t n, int depth, std::vector<Span>* lists, Observation* out) {
  lists->clear();
  RETURN_NOT_OK(msg::ResolveFeature(features, n, depth, &out->kind, lists, 0, &out->count));
  out->all_utf8 = true;
  if (out->kind == FeatureKind::kBytesList) {
    msg::ForEachBytes(lists->data(), lists->size(), [out](Span s) {
      if (out->all_utf8) out->all_utf8 = IsValidUtf8(s.begin, s.size());
    });
  }
  return Status::OK();
}

}  // namespace

struct SchemaInferrer::Scratch {
  // (feature list?, name) → index in stats_.
  std::unordered_map<std::string, size_t, StringHash, std::equal_to<>> index[2];
  // The features of the record being observed, in order of first appearance.
  struct Touch {
    bool feature_list;
    std::string_view name;
    std::vector<Span> values;  // winning entry's value messages
  };
  std::vector<Touch> touches;
  size_t num_touches = 0;
  std::unordered_map<std::string_view, size_t> touched[2];  // name → touches index
  std::vector<Span> entry_values;
  std::vector<Span> lists;
  std::vector<uint64_t> seen;  // per stats_ index: last record serial that had the feature
};

SchemaInferrer::SchemaInferrer(RecordType type) : type_(type), scratch_(std::make_unique<Scratch>()) {}
SchemaInferrer::~SchemaInferrer() = default;
SchemaInferrer::SchemaInferrer(SchemaInferrer&&) noexcept = default;
SchemaInferrer& SchemaInferrer::operator=(SchemaInferrer&&) noexcept = default;

Status SchemaInferrer::Observe(std::string_view record) {
  if (type_ == RecordType::kByteArray) {
    ++records_;
    return Status::OK();
  }
  Scratch& s = *scratch_;
  s.num_touches = 0;
  s.touched[0].clear();
  s.touched[1].clear();

  // Pass 1: winning entries; every value message is validated (so pass 2 cannot fail).
  RETURN_NOT_OK(msg::ForEachMap(type_, wire::SpanOf(record), [&](bool is_lists, Span map) {
    return msg::ForEachMapEntry(map, &s.entry_values, [&](Span key, const std::vector<Span>& values) {
      RETURN_NOT_OK(msg::CheckKey(key));
      for (const Span& v : values) {
        Status st = is_lists ? msg::ValidateFeatureList(v, msg::kDepthFeatureList)
                             : msg::ValidateFeature(v, msg::kDepthContextFeature);
        if (!st.ok()) return st.WithField(key.view());
      }
      auto [it, inserted] = s.touched[is_lists].emplace(key.view(), s.num_touches);
      if (inserted) {
        if (s.touches.size() <= s.num_touches) s.touches.emplace_back();
        Scratch::Touch& t = s.touches[s.num_touches++];
        t.feature_list = is_lists;
        t.name = key.view();
      }
      s.touches[it->second].values.assign(values.begin(), values.end());  // a later entry replaces
      return Status::OK();
    });
  }));

  // Pass 2: fold each winning Feature into its statistics.
  const uint64_t serial = static_cast<uint64_t>(++records_);
  for (size_t i = 0; i < s.num_touches; ++i) {
    const Scratch::Touch& t = s.touches[i];
    auto found = s.index[t.feature_list].find(t.name);
    size_t idx;
    if (found == s.index[t.feature_list].end()) {
      idx = stats_.size();
      s.index[t.feature_list].emplace(std::string(t.name), idx);
      FeatureStats fs;
      fs.name = std::string(t.name);
      fs.feature_list = t.feature_list;
      fs.missing = records_ - 1;
      stats_.push_back(std::move(fs));
      s.seen.push_back(0);
    } else {
      idx = found->second;
    }
    FeatureStats& fs = stats_[idx];
    s.seen[idx] = serial;
    if (!t.feature_list) {
      Observation o;
      RETURN_NOT_OK(ObserveFeature(t.values.data(), t.values.size(), msg::kDepthContextFeature, &s.lists, &o));
      if (o.kind == FeatureKind::kNone) {
        ++fs.kindless;
        continue;
      }
      ++fs.present;
      UpdateRange(o.count, &fs.min_length, &fs.max_length);
      fs.kinds.Add(o.kind, o.count, o.all_utf8);
      continue;
    }
    int64_t steps = 0;
    RETURN_NOT_OK(msg::ForEachStep(t.values.data(), t.values.size(), msg::kDepthFeatureList, [&](Span f) {
      ++steps;
      Observation o;
      RETURN_NOT_OK(ObserveFeature(&f, 1, msg::kDepthStepFeature, &s.lists, &o));
      if (o.kind != FeatureKind::kNone) {
        UpdateRange(o.count, &fs.min_inner_length, &fs.max_inner_length);
        fs.kinds.Add(o.kind, o.count, o.all_utf8);
      }
      return Status::OK();
    }));
    ++fs.present;
    UpdateRange(steps, &fs.min_length, &fs.max_length);
  }
  for (size_t i = 0; i < stats_.size(); ++i) {
    if (s.seen[i] != serial) ++stats_[i].missing;
  }
  return Status::OK();
}

SchemaPtr SchemaInferrer::Finish() const {
  if (type_ == RecordType::kByteArray) return ByteArraySchema();
  std::vector<FieldPtr> fields;
  fields.reserve(stats_.size());
  for (const FeatureStats& fs : stats_) {
    DataTypePtr type;
    if (fs.feature_list) {
      DataTypePtr value = fs.kinds.ValueType();
      type = value->id() == TypeId::kNull ? value : list(list(std::move(value)));
    } else {
      type = fs.kinds.ColumnType();
    }
    // An empty list reads as null in a scalar column.
    const bool empty_as_null = !fs.feature_list && fs.kinds.scalar() && fs.kinds.saw_empty();
    const bool nullable = fs.missing > 0 || fs.kindless > 0 || empty_as_null || type->id() == TypeId::kNull;
    std::shared_ptr<const KeyValueMetadata> metadata;
    if (type_ == RecordType::kSequenceExample) {
      metadata = std::make_shared<KeyValueMetadata>(std::vector<std::pair<std::string, std::string>>{
          {std::string(kKindMetadataKey), std::string(fs.feature_list ? kKindFeatureList : kKindContext)}});
    }
    fields.push_back(Field::Make(fs.name, std::move(type), nullable, std::move(metadata)));
  }
  return Schema::Make(std::move(fields));
}

}  // namespace recflow::example
