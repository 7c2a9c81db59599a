// The watch source: list the directory, read each new complete file block by block, observe event times, send the
// live watermark's tokens; poll while idle; end after the stated idle time.
#include "recflow/pipeline/watch_source.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "recflow/columnar/concatenate.h"
#include "recflow/core/kill_point.h"
#include "recflow/formats/checkpointed_source.h"
#include "recflow/formats/schema_json.h"
#include "recflow/pipeline/read_input.h"
#include "recflow/pipeline/window_columns.h"

namespace recflow::pipeline {

namespace {

bool Complete(const std::string& name) { return !name.empty() && name[0] != '.'; }

SchemaPtr MarkEventTime(const Schema& schema, int column) {
  std::vector<FieldPtr> fields = schema.fields();
  fields[static_cast<size_t>(column)] = fields[static_cast<size_t>(column)]->WithMetadata(
      std::make_shared<const KeyValueMetadata>(std::vector<std::pair<std::string, std::string>>{{kEventTimeMetadataKey, "ms"}}));
  return Schema::Make(std::move(fields));
}

class WatchSource final : public Source, public CheckpointedSource {
 public:
  // The watermarks between files whose positions are kept for PositionAt (a checkpointed run asks at each epoch's end,
  // forgetting the earlier ones; a run without checkpoints never asks).
  static constexpr size_t kMarksKept = 4096;

  WatchSource(std::shared_ptr<FileSystem> fs, WatchOptions options, SchemaPtr schema)
      : fs_(std::move(fs)), options_(std::move(options)), schema_(std::move(schema)),
        event_time_(schema_->GetFieldIndex(options_.event_time)), marks_(options_.clock, options_.watermark),
        partition_(marks_.AddPartition()), last_file_(options_.clock->NowMillis()) {}

  const SchemaPtr& schema() const override { return schema_; }
  const std::string& name() const override { return options_.dir; }
  const std::string& current_file() const override { return file_.empty() ? options_.dir : file_; }
  bool unbounded() const override { return true; }

  std::optional<std::vector<std::string>> PositionAt(int64_t watermark) override {
    std::lock_guard<std::mutex> lock(consumed_mutex_);
    marks_at_.erase(marks_at_.begin(), marks_at_.lower_bound(watermark));  // asked in order: earlier ones are done
    const auto mark = marks_at_.find(watermark);
    if (mark == marks_at_.end()) return std::nullopt;
    return std::vector<std::string>(consumed_.begin(), consumed_.begin() + static_cast<std::ptrdiff_t>(mark->second));
  }

  std::vector<std::string> Position() const override {
    std::lock_guard<std::mutex> lock(consumed_mutex_);
    return consumed_;
  }

  Status Resume(const std::vector<std::string>& position) override {
    for (const std::string& name : position) {
      if (!Complete(name) || name.find('/') != std::string::npos || !seen_.insert(name).second) {
        return Status::DataError("the checkpoint's position of the watch names '" + name + "', not a file it read once");
      }
    }
    std::lock_guard<std::mutex> lock(consumed_mutex_);
    consumed_ = position;  // read before: positions start with them
    return Status::OK();
  }

  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    while (ready_.empty()) {
      if (reader_ != nullptr) {
        RETURN_NOT_OK(ReadBlock());
        continue;
      }
      if (!waiting_.empty()) {
        RETURN_NOT_OK(OpenNext());
        continue;
      }
      ASSIGN_OR_RETURN(const bool found, List());
      if (found) continue;
      const int64_t now = options_.clock->NowMillis();
      if (options_.stop_after_idle >= 0 && now - last_file_ >= options_.stop_after_idle) {
        return std::unique_ptr<SourceUnit>();  // the input ends: the run drains and commits
      }
      RETURN_NOT_OK(Tick());
      if (ready_.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(options_.poll_ms));
    }
    std::unique_ptr<SourceUnit> unit = std::move(ready_.front());
    ready_.pop_front();
    return unit;
  }

 private:
  // Lists the directory; queues the complete files not seen before. True when it found one.
  Result<bool> List() {
    ASSIGN_OR_RETURN(std::vector<std::string> names, fs_->ListDirectory(options_.dir));
    bool found = false;
    for (const std::string& name : names) {
      if (!Complete(name) || !seen_.insert(name).second) continue;
      waiting_.push_back(options_.dir + "/" + name);
      found = true;
    }
    return found;
  }

  Status OpenNext() {
    file_ = waiting_.front();
    waiting_.pop_front();
    {
      std::lock_guard<std::mutex> lock(consumed_mutex_);
      consumed_.push_back(file_.substr(options_.dir.size() + 1));
    }
    KillPoint("watch-file");
    last_file_ = options_.clock->NowMillis();
    ASSIGN_OR_RETURN(reader_, InputsFactory({file_}, options_.input)(fs_));
    if (!reader_->schema()->Equals(*schema_, /*check_metadata=*/false)) {
      return Status::DataError("the file's schema " + reader_->schema()->ToString() + " is not the watch's " +
                               schema_->ToString() + " (give the read a schema file)")
          .WithFile(file_);
    }
    return Status::OK();
  }

  // The next block of the open file, decoded here, its event times observed after the tokens of the blocks before it;
  // at the file's end, the tokens of its last block (between files: PositionAt knows them).
  Status ReadBlock() {
    ASSIGN_OR_RETURN(std::unique_ptr<SourceUnit> unit, NextSourceUnit(*reader_));
    if (unit == nullptr) {
      reader_.reset();
      return Tick();
    }
    const int64_t bytes = unit->input_bytes();
    ASSIGN_OR_RETURN(DecodedUnit decoded, DecodeUnit(*unit));
    // A bad event time names its record within the block; the stage adds the input's records before it.
    Status st = EventTimes(*decoded.batch->column_data(event_time_), *schema_->field(event_time_), false, &times_);
    if (!st.ok()) return st.WithFile(file_);
    RETURN_NOT_OK(Tick());
    // Once per block: only the latest event time counts, and each observation reads the clock.
    if (!times_.empty()) marks_.Observe(partition_, *std::max_element(times_.begin(), times_.end()));
    ASSIGN_OR_RETURN(decoded.batch, RecordBatch::Make(schema_, decoded.batch->num_rows(), decoded.batch->columns()));
    ready_.push_back(MakeDecodedUnit(std::move(decoded), bytes));
    return Status::OK();
  }

  // Queues a unit of no rows for each token the clock and the event times give now; a watermark between files marks
  // how many files were read before it (PositionAt).
  Status Tick() {
    for (const FlowToken& token : marks_.Tick()) {
      if (reader_ == nullptr && token.kind == FlowToken::Kind::kWatermark) {
        std::lock_guard<std::mutex> lock(consumed_mutex_);
        marks_at_[token.time] = consumed_.size();
        if (marks_at_.size() > kMarksKept) marks_at_.erase(marks_at_.begin());
      }
      if (empty_ == nullptr) {
        ASSIGN_OR_RETURN(empty_, ConcatenateBatches(schema_, {}));
      }
      ready_.push_back(MakeBatchUnit(empty_, 0, token));
    }
    return Status::OK();
  }

  std::shared_ptr<FileSystem> fs_;
  WatchOptions options_;
  SchemaPtr schema_;
  int event_time_;
  LiveWatermark marks_;
  size_t partition_;
  int64_t last_file_;                     // processing time the last file was opened (or the watch began)
  std::set<std::string> seen_;            // names listed so far: each file is read once
  std::deque<std::string> waiting_;       // complete files not read yet, in name order (after a resume's)
  mutable std::mutex consumed_mutex_;     // guards the next two: positions are asked from the thread merging the rows
  std::vector<std::string> consumed_;     // names of the files opened, in order
  std::map<int64_t, size_t> marks_at_;    // per watermark given between files: the files read before it
  std::unique_ptr<Source> reader_;        // the file being read
  std::string file_;
  std::vector<window::Millis> times_;
  std::deque<std::unique_ptr<SourceUnit>> ready_;
  std::shared_ptr<RecordBatch> empty_;
};

}  // namespace

Result<SchemaPtr> WatchSchema(const std::shared_ptr<FileSystem>& fs, const WatchOptions& options,
                              const std::string& schema_file) {
  SchemaPtr schema;
  if (!schema_file.empty()) {
    ASSIGN_OR_RETURN(schema, ReadSchemaFile(schema_file, *fs));
  } else {
    ASSIGN_OR_RETURN(std::vector<std::string> names, fs->ListDirectory(options.dir));
    for (const std::string& name : names) {
      if (!Complete(name)) continue;
      ASSIGN_OR_RETURN(auto source, InputsFactory({options.dir + "/" + name}, options.input)(fs));
      schema = source->schema();
      break;
    }
    if (schema == nullptr) {
      return Status::InvalidArgument("no file in " + options.dir + " yet to take the schema from: give schema: FILE");
    }
  }
  const int column = schema->GetFieldIndex(options.event_time);
  if (column < 0) return Status::InvalidArgument("no event time column '" + options.event_time + "' in " + schema->ToString());
  RETURN_NOT_OK(CheckEventTimeField(*schema->field(column)));
  return MarkEventTime(*schema, column);
}

Result<std::unique_ptr<Source>> OpenWatch(std::shared_ptr<FileSystem> fs, WatchOptions options, SchemaPtr schema) {
  RETURN_NOT_OK(options.watermark.Validate());
  if (options.poll_ms <= 0) return Status::InvalidArgument("poll must be > 0 ms");
  RETURN_NOT_OK(fs->ListDirectory(options.dir).status());
  return std::unique_ptr<Source>(std::make_unique<WatchSource>(std::move(fs), std::move(options), std::move(schema)));
}

}  // namespace recflow::pipeline
