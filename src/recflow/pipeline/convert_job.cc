// RunConvert: five tbb::parallel_pipeline filters with in-order error reporting, then commit.
#include "recflow/pipeline/convert_job.h"

#include <memory>
#include <mutex>
#include <thread>

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>

namespace recflow::pipeline {

namespace {

// Compresses every job of `work` in parallel; the first failure in job order.
Status CompressAll(const dataset::DatasetSink& sink, dataset::SinkWork* work) {
  std::vector<Status> statuses(work->jobs.size());
  tbb::parallel_for(size_t{0}, work->jobs.size(), [&](size_t i) { statuses[i] = sink.CompressJob(&work->jobs[i]); });
  for (const Status& st : statuses) RETURN_NOT_OK(st);
  return Status::OK();
}

// One unit's journey through the pipeline.
struct Token {
  std::unique_ptr<SourceUnit> unit;
  Status status;
  DecodedUnit decoded;
  dataset::SinkBatch sink_batch;
  dataset::SinkWork work;
  int64_t input_bytes = 0;
};

// The job state shared by the filters.
class Job {
 public:
  Job(Source* source, dataset::DatasetSink* sink, const ConvertOptions& options, SchemaPtr projected_schema)
      : source_(source), sink_(sink), options_(options), projected_schema_(std::move(projected_schema)) {}

  // Filter 1 (serial, in order): the next unit, or nullptr at the end / after an error.
  Token* Read() {
    if (stop_.load(std::memory_order_relaxed) || read_done_) return nullptr;
    auto token = std::make_unique<Token>();
    auto unit = source_->NextUnit();
    if (!unit.ok()) {
      token->status = unit.status();
      read_done_ = true;
    } else if (*unit == nullptr) {
      return nullptr;
    } else {
      token->unit = std::move(unit).ValueUnsafe();
      token->input_bytes = token->unit->input_bytes();
    }
    return token.release();
  }

  // Filter 2 (parallel): decode the unit, project, group by partition and encode.
  Token* Decode(Token* t) {
    if (!t->status.ok() || stop_.load(std::memory_order_relaxed)) return t;
    auto decoded = t->unit->Decode();
    t->unit.reset();
    if (!decoded.ok()) {
      t->status = decoded.status();
      return t;
    }
    t->decoded = std::move(decoded).ValueUnsafe();
    auto batch = Project(t->decoded.batch);
    if (!batch.ok()) {
      t->status = batch.status();
      return t;
    }
    RecordEncoder* encoder = Encoder();
    if (encoder == nullptr) {
      t->status = encoder_error_;
      return t;
    }
    t->status = sink_->Prepare(encoder, **batch, &t->sink_batch);
    t->decoded.batch.reset();
    return t;
  }

  // Filter 3 (serial, in order): rebase errors, report skipped records, assign records to files.
  Token* Assign(Token* t) {
    if (!Fail(t->status.RebaseRecord(records_))) {
      for (SkippedRecord& skipped : t->decoded.skipped) {
        skipped.error = skipped.error.RebaseRecord(records_);
        if (options_.on_skipped) options_.on_skipped(skipped);
      }
      stats_.skipped_records += static_cast<int64_t>(t->decoded.skipped.size());
      records_ += t->decoded.input_records;
      Fail(sink_->Assign(std::move(t->sink_batch), &t->work));
    }
    t->decoded = DecodedUnit();
    return t;
  }

  // Filter 4 (parallel): compress the chunks, themselves in parallel (a unit can fill many
  // files' chunks at once, and one thread compressing them all would stall the pipeline).
  Token* Compress(Token* t) {
    if (!stop_.load(std::memory_order_relaxed)) t->status = CompressAll(*sink_, &t->work);
    return t;
  }

  // Filter 5 (serial, in order): append the chunks to their files; update progress.
  void Write(Token* t) {
    std::unique_ptr<Token> owned(t);
    if (stop_.load(std::memory_order_relaxed)) return;
    if (Fail(t->status) || Fail(sink_->Write(std::move(t->work)))) return;
    stats_.input_bytes += t->input_bytes;
    if (options_.progress != nullptr) {
      options_.progress->input_bytes.store(stats_.input_bytes, std::memory_order_relaxed);
      options_.progress->records.store(records_ - stats_.skipped_records, std::memory_order_relaxed);
      options_.progress->skipped.store(stats_.skipped_records, std::memory_order_relaxed);
    }
  }

  // Records `st` as the job's error unless one came first; true when the job is failing.
  bool Fail(const Status& st) {
    if (st.ok()) return stop_.load(std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(error_mutex_);
    if (error_.ok()) error_ = st;
    stop_.store(true, std::memory_order_relaxed);
    return true;
  }

  Status error() const { return error_; }
  ConvertStats& stats() { return stats_; }
  int64_t records() const { return records_; }
  int64_t NarrowedDoubles() {
    int64_t n = 0;
    for (auto& e : encoders_) {
      if (e) n += e->narrowed_doubles();
    }
    return n;
  }

 private:
  Result<std::shared_ptr<RecordBatch>> Project(const std::shared_ptr<RecordBatch>& batch) const {
    if (options_.projection.empty()) return batch;
    std::vector<std::shared_ptr<ArrayData>> columns;
    for (int c : options_.projection) columns.push_back(batch->column_data(c));
    return RecordBatch::Make(projected_schema_, batch->num_rows(), std::move(columns));
  }

  RecordEncoder* Encoder() {
    std::unique_ptr<RecordEncoder>& e = encoders_.local();
    if (e == nullptr) {
      auto made = sink_->NewEncoder();
      if (!made.ok()) {
        std::lock_guard<std::mutex> lock(error_mutex_);
        encoder_error_ = made.status();
        return nullptr;
      }
      e = std::move(made).ValueUnsafe();
    }
    return e.get();
  }

  Source* source_;
  dataset::DatasetSink* sink_;
  const ConvertOptions& options_;
  SchemaPtr projected_schema_;  // the source's schema after options_.projection
  std::atomic<bool> stop_{false};
  bool read_done_ = false;
  std::mutex error_mutex_;
  Status error_;
  Status encoder_error_;
  int64_t records_ = 0;  // input records before the unit being assigned
  ConvertStats stats_;
  tbb::enumerable_thread_specific<std::unique_ptr<RecordEncoder>> encoders_;
};

}  // namespace

Result<SchemaPtr> ProjectSchema(const SchemaPtr& schema, const std::vector<int>& projection) {
  if (projection.empty()) return schema;
  std::vector<FieldPtr> fields;
  std::vector<bool> used(static_cast<size_t>(schema->num_fields()), false);
  for (int c : projection) {
    if (c < 0 || c >= schema->num_fields()) return Status::InvalidArgument("column index out of range");
    if (used[static_cast<size_t>(c)]) {
      return Status::InvalidArgument("column '" + schema->field(c)->name() + "' is selected twice");
    }
    used[static_cast<size_t>(c)] = true;
    fields.push_back(schema->field(c));
  }
  return Schema::Make(std::move(fields));
}

Result<ConvertStats> RunConvert(Source* source, dataset::DatasetSink* sink, const ConvertOptions& options) {
  const int threads = options.threads > 0 ? options.threads
                                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int in_flight = options.max_in_flight > 0 ? options.max_in_flight : 2 * threads + 2;
  ASSIGN_OR_RETURN(SchemaPtr projected_schema, ProjectSchema(source->schema(), options.projection));
  Job job(source, sink, options, std::move(projected_schema));
  tbb::task_arena arena(threads);
  arena.execute([&] {
    using tbb::filter_mode;
    tbb::parallel_pipeline(
        static_cast<size_t>(in_flight),
        tbb::make_filter<void, Token*>(filter_mode::serial_in_order,
                                       [&](tbb::flow_control& fc) -> Token* {
                                         Token* t = job.Read();
                                         if (t == nullptr) fc.stop();
                                         return t;
                                       }) &
            tbb::make_filter<Token*, Token*>(filter_mode::parallel, [&](Token* t) { return job.Decode(t); }) &
            tbb::make_filter<Token*, Token*>(filter_mode::serial_in_order, [&](Token* t) { return job.Assign(t); }) &
            tbb::make_filter<Token*, Token*>(filter_mode::parallel, [&](Token* t) { return job.Compress(t); }) &
            tbb::make_filter<Token*, void>(filter_mode::serial_in_order, [&](Token* t) { job.Write(t); }));
  });
  if (!job.error().ok()) {
    (void)sink->Abort();
    return job.error();
  }
  dataset::SinkWork rest;
  sink->Flush(&rest);
  Status st;
  arena.execute([&] { st = CompressAll(*sink, &rest); });
  if (st.ok()) st = sink->Write(std::move(rest));
  if (st.ok()) st = sink->Commit();
  if (!st.ok()) {
    (void)sink->Abort();
    return st;
  }
  ConvertStats stats = job.stats();
  stats.input_records = job.records();
  stats.narrowed_doubles = job.NarrowedDoubles();
  stats.threads = threads;
  stats.sink = sink->stats();
  return stats;
}

}  // namespace recflow::pipeline
