// TfrecordSource: inference over a kept sample, then units of records (views into an input read in place, copies of
// a streamed one) decoded in parallel.
#include "recflow/formats/tfrecord/tfrecord_source.h"

#include <new>
#include <utility>
#include <vector>

#include "recflow/formats/example/decoder.h"
#include "recflow/formats/example/schema_inference.h"
#include "recflow/formats/schema_json.h"
#include "recflow/formats/tfrecord/framing.h"

namespace recflow::tfrecord {

namespace {

// What every unit of a source shares with it (and keeps alive: a unit may outlive its source).
struct SharedContext {
  SourceOptions options;
  std::string name;
};

// Records as views into the reader's whole input when it is read in place (a mapped file: kept alive by the unit,
// nothing copied), else copied back to back; with where each lies and where it was in the input.
class TfrecordUnit final : public SourceUnit {
 public:
  /// `in_place`: the buffer every record added is a view into (RecordReader::whole_input); null:
  /// the records are copied in.
  TfrecordUnit(std::shared_ptr<const SharedContext> context, SchemaPtr schema, std::shared_ptr<Buffer> in_place)
      : context_(std::move(context)), schema_(std::move(schema)), in_place_(std::move(in_place)) {}

  /// Takes the record in (its place in the input, or a copy); OutOfMemory (naming the file,
  /// record and offset) when it cannot.
  Status Add(std::string_view record, int64_t index, int64_t offset) {
    try {
      size_t start = bytes_.size();
      if (in_place_ != nullptr) {
        start = static_cast<size_t>(record.data() - reinterpret_cast<const char*>(in_place_->data()));
      } else {
        bytes_.append(record);
      }
      starts_.push_back(start);
      ends_.push_back(start + record.size());
      offsets_.push_back(offset);
    } catch (const std::bad_alloc&) {
      return Status::OutOfMemory("cannot hold a record of " + std::to_string(record.size()) + " bytes in memory")
          .WithFile(context_->name)
          .WithRecord(index)
          .WithOffset(offset);
    }
    record_bytes_ += record.size();
    input_bytes_ += static_cast<int64_t>(record.size()) + kFramingOverhead;
    return Status::OK();
  }
  size_t size() const { return record_bytes_; }
  size_t count() const { return ends_.size(); }
  void set_schema(SchemaPtr schema) { schema_ = std::move(schema); }

  Result<DecodedUnit> Decode() override {
    try {
      return DecodeRecords();
    } catch (const std::bad_alloc&) {
      return Status::OutOfMemory("cannot decode " + std::to_string(ends_.size()) + " records of " +
                                 std::to_string(record_bytes_) + " bytes: out of memory")
          .WithFile(context_->name)
          .WithOffset(offsets_.empty() ? 0 : offsets_.front());
    }
  }

  int64_t input_bytes() const override { return input_bytes_; }

 private:
  Result<DecodedUnit> DecodeRecords() {
    ASSIGN_OR_RETURN(auto decoder, example::Decoder::Make(schema_, context_->options.record_type));
    DecodedUnit out;
    const char* base = in_place_ != nullptr ? reinterpret_cast<const char*>(in_place_->data()) : bytes_.data();
    for (size_t r = 0; r < ends_.size(); ++r) {
      const std::string_view record(base + starts_[r], ends_[r] - starts_[r]);
      const int64_t index = out.input_records++;
      Status st = decoder->Append(record);
      if (st.ok()) continue;
      st = st.WithFile(context_->name).WithOffset(offsets_[r]).WithRecord(index);
      if (!context_->options.skip_bad_records || st.code() != StatusCode::kDataError) return st;
      out.skipped.push_back({std::string(), std::move(st)});
    }
    ASSIGN_OR_RETURN(out.batch, decoder->Finish());
    return out;
  }

  std::shared_ptr<const SharedContext> context_;
  SchemaPtr schema_;
  std::shared_ptr<Buffer> in_place_;  // the input the records lie in; null: they are in bytes_
  std::string bytes_;                 // the copied records (streamed input)
  std::vector<size_t> starts_;        // where each record begins and ends (in in_place_, else in bytes_)
  std::vector<size_t> ends_;
  std::vector<int64_t> offsets_;
  size_t record_bytes_ = 0;
  int64_t input_bytes_ = 0;
};

}  // namespace

// The source: a RecordReader; the inference sample is kept and handed out first.
class TfrecordSource final : public Source {
 public:
  TfrecordSource(std::unique_ptr<RecordReader> reader, SourceOptions options, std::string name)
      : reader_(std::move(reader)),
        context_(std::make_shared<const SharedContext>(SharedContext{std::move(options), std::move(name)})),
        options_(context_->options),
        name_(context_->name) {}

  Status Init() {
    if (options_.schema != nullptr) {
      schema_ = options_.schema;
      return Status::OK();
    }
    example::SchemaInferrer inferrer(options_.record_type);
    sample_ = std::make_unique<TfrecordUnit>(context_, nullptr, reader_->whole_input());
    std::string_view record;
    bool whole_input = false;
    while (sample_->count() < static_cast<size_t>(options_.inference_records)) {
      Result<bool> more = reader_->Next(&record);
      if (!more.ok() && more.status().code() == StatusCode::kDataError) {
        error_ = more.status();  // returned after the sample's records, as NextUnit does
        break;
      }
      RETURN_NOT_OK(more.status());
      whole_input = !*more;
      if (!*more) break;
      Status st = inferrer.Observe(record);
      if (!st.ok() && !options_.skip_bad_records) {
        return st.WithFile(name_).WithOffset(reader_->record_offset()).WithRecord(reader_->record_index());
      }
      RETURN_NOT_OK(sample_->Add(record, reader_->record_index(), reader_->record_offset()));
    }
    // A record after the sample may lack a feature the sample always had: valid data must not fail.
    const SchemaPtr inferred = whole_input ? inferrer.Finish() : inferrer.Finish()->WithAllNullable();
    ASSIGN_OR_RETURN(schema_, ApplySchemaHints(inferred, options_.type_hints, name_));
    sample_->set_schema(schema_);
    return Status::OK();
  }

  const SchemaPtr& schema() const override { return schema_; }
  const std::string& name() const override { return name_; }

  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    if (sample_ != nullptr && sample_->count() > 0) return std::unique_ptr<SourceUnit>(std::move(sample_));
    if (!error_.ok()) return error_;
    auto unit = std::make_unique<TfrecordUnit>(context_, schema_, reader_->whole_input());
    std::string_view record;
    while (static_cast<int64_t>(unit->size()) < options_.unit_bytes) {
      auto more = reader_->Next(&record);
      if (!more.ok()) {
        error_ = more.status();
        if (unit->count() > 0) break;  // the records before the fault come first
        return error_;
      }
      if (!*more) break;
      if (Status st = unit->Add(record, reader_->record_index(), reader_->record_offset()); !st.ok()) {
        error_ = st;
        return error_;
      }
    }
    if (unit->count() == 0) return std::unique_ptr<SourceUnit>();
    return std::unique_ptr<SourceUnit>(std::move(unit));
  }

 private:
  std::unique_ptr<RecordReader> reader_;
  std::shared_ptr<const SharedContext> context_;
  const SourceOptions& options_;  // = context_->options
  const std::string& name_;       // = context_->name
  SchemaPtr schema_;
  std::unique_ptr<TfrecordUnit> sample_;
  Status error_;
};

Status SourceOptions::Validate() const {
  RETURN_NOT_OK(reader.Validate());
  if (inference_records < 1) return Status::InvalidArgument("inference_records must be at least 1");
  if (unit_bytes < 1) return Status::InvalidArgument("unit_bytes must be at least 1");
  return Status::OK();
}

Result<std::unique_ptr<Source>> OpenTfrecordSource(const std::string& path, const SourceOptions& options) {
  RETURN_NOT_OK(options.Validate());
  ASSIGN_OR_RETURN(auto reader, RecordReader::Open(path, options.reader));
  return OpenTfrecordSource(std::move(reader), options);
}

Result<std::unique_ptr<Source>> OpenTfrecordSource(std::unique_ptr<RecordReader> reader, const SourceOptions& options) {
  RETURN_NOT_OK(options.Validate());
  std::string name = reader->name() == "-" ? "<stdin>" : reader->name();
  auto source = std::make_unique<TfrecordSource>(std::move(reader), options, std::move(name));
  RETURN_NOT_OK(source->Init());
  return std::unique_ptr<Source>(std::move(source));
}

}  // namespace recflow::tfrecord
