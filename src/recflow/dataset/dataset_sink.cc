// DatasetSink: partition grouping, deterministic shard assignment, chunking, staged files, commit.
#include "recflow/dataset/dataset_sink.h"

#include <algorithm>

#include <oneapi/tbb/parallel_for.h>

#include "recflow/dataset/partition_rows.h"
#include "recflow/dataset/staged_files_internal.h"

namespace recflow::dataset {

namespace {

// Runs of records at least this long go into a chunk as pieces of the bytes they were encoded in;
// shorter ones are copied, so a chunk holds at most a few dozen pieces to write or compress.
constexpr size_t kSmallestSharedPiece = size_t{64} << 10;

}  // namespace

// Bytes that pending chunks point into until they are written: the encoded records of one group of
// an input batch, or a target's copy of short runs (and its file header).
struct DatasetSink::EncodedBytes {
  std::string bytes;
  int64_t pending_pieces = 0;  // pieces of it in targets' pending chunks (kept by Merge's thread)
};

// One data file being written: a shard of a partition.
struct DatasetSink::Target {
  Partition* partition = nullptr;
  int64_t shard = 0;
  int file = 0;
  std::vector<std::string_view> pending;  // uncompressed bytes not yet handed to a job, in pieces
  std::vector<std::shared_ptr<EncodedBytes>> pending_owners;  // what each piece points into
  int64_t pending_size = 0;               // the pieces' total size
  EncodedBytes* copy = nullptr;           // the last piece's owner when it is this target's copy of short runs
  std::vector<SinkRun> pending_runs;  // batch formats: runs not yet handed to a job
  int64_t pending_run_bytes = 0;      // their estimated size
  std::vector<BatchBlock> blocks;     // batch formats: every batch of the file
  std::vector<BatchBlock> dictionary_blocks;  // batch formats: every dictionary batch of the file
  std::unique_ptr<BatchFileState> batch_state;  // batch formats: advanced as runs are assigned
};

// One partition directory and where its next record goes.
struct DatasetSink::Partition {
  std::string dir;
  int64_t records = 0;        // records assigned so far (the next record's ordinal)
  int64_t current_shard = 0;  // kMaxRecords / kMaxBytes: the shard being filled
  int64_t current_bytes = 0;  // kMaxBytes: bytes in the current shard
  std::map<int64_t, Target*> shards;
};

Result<DatasetLayout> MakeDatasetLayout(const SinkOptions& options, const SchemaPtr& input_schema) {
  RETURN_NOT_OK(options.Validate());
  DatasetLayout layout;
  ASSIGN_OR_RETURN(layout.partition_columns, ResolvePartitionColumns(*input_schema, options.partition_by));
  std::vector<FieldPtr> data_fields;
  for (int i = 0; i < input_schema->num_fields(); ++i) {
    if (std::find(layout.partition_columns.begin(), layout.partition_columns.end(), i) != layout.partition_columns.end()) {
      continue;
    }
    layout.data_columns.push_back(i);
    data_fields.push_back(input_schema->field(i));
  }
  layout.data_schema = Schema::Make(std::move(data_fields));
  ASSIGN_OR_RETURN(layout.format, options.format(layout.data_schema));
  if (layout.format->batch_encoding() != nullptr && options.compression != Compression::kNone) {
    return Status::InvalidArgument(layout.format->name() + " files compress their own bodies; whole-file " +
                                   std::string(CompressionName(options.compression)) + " would hide their index");
  }
  return layout;
}

Result<std::unique_ptr<DatasetCommitter>> BeginDatasetJob(const SinkOptions& options, const Schema& input_schema,
                                                          std::shared_ptr<FileSystem> file_system) {
  CommitOptions commit_options = CommitOptions::Defaults();
  commit_options.sync = options.sync;
  commit_options.file_system = std::move(file_system);
  commit_options.after_step = options.after_commit_step;
  commit_options.schema = DatasetSchema::Of(input_schema, options.partition_by);
  return DatasetCommitter::Begin(options.output, options.mode, std::move(commit_options));
}

Result<std::unique_ptr<DatasetSink>> DatasetSink::Open(SinkOptions options, SchemaPtr input_schema,
                                                       std::shared_ptr<FileSystem> file_system) {
  if (file_system == nullptr) return Status::InvalidArgument("a dataset sink without a file system");
  ASSIGN_OR_RETURN(DatasetLayout layout, MakeDatasetLayout(options, input_schema));
  std::unique_ptr<DatasetCommitter> committer;
  if (options.task.active()) {
    RETURN_NOT_OK(file_system->CreateDirectory(options.task.dir));  // refuses a directory another attempt took
  } else {
    ASSIGN_OR_RETURN(committer, BeginDatasetJob(options, *input_schema, file_system));
  }
  std::unique_ptr<DatasetSink> sink(new DatasetSink(std::move(options), std::move(layout.data_schema),
                                                    std::move(layout.partition_columns), std::move(layout.data_columns),
                                                    std::move(layout.format), std::move(committer),
                                                    std::move(file_system)));
  if (sink->partition_columns_.empty()) RETURN_NOT_OK(sink->PartitionFor("").status());
  return sink;
}

DatasetSink::DatasetSink(SinkOptions options, SchemaPtr data_schema, std::vector<int> partition_columns,
                         std::vector<int> data_columns, std::shared_ptr<const OutputFormat> format,
                         std::unique_ptr<DatasetCommitter> committer, std::shared_ptr<FileSystem> file_system)
    : options_(std::move(options)),
      data_schema_(std::move(data_schema)),
      partition_columns_(std::move(partition_columns)),
      data_columns_(std::move(data_columns)),
      format_(std::move(format)),
      committer_(std::move(committer)),
      file_system_(std::move(file_system)),
      files_(std::make_unique<internal::StagedFiles>(
          file_system_, options_.compression, options_.max_open_files,
          options_.compression == Compression::kNone && format_->batch_encoding() == nullptr &&
                  file_system_->capabilities().positional_writes
              ? internal::StagedWrites::kPositional
              : internal::StagedWrites::kInOrder)),
      header_(format_->FileHeader()),
      suffix_(format_->suffix() + std::string(CompressionSuffix(options_.compression))) {}

DatasetSink::~DatasetSink() {
  files_.reset();  // close descriptors before the committer removes the staging directory
  if (committer_ == nullptr && !finished_) (void)file_system_->RemoveTree(options_.task.dir);
}

const std::string& DatasetSink::job_id() const { return committer_ ? committer_->job_id() : options_.task.job_id; }

const std::string& DatasetSink::output() const { return committer_ ? committer_->output() : options_.output; }
const std::string& DatasetSink::resolved_output() const {
  return committer_ ? committer_->resolved_output() : options_.task.dir;
}

Result<std::string> DatasetSink::StagedPath(const std::string& relative) {
  if (committer_ != nullptr) return committer_->NewFilePath(relative);
  return PrepareStagedFile(*file_system_, options_.task.dir, relative);
}

namespace {

// A thread's encoder.
struct EncoderState final : SinkLocalState {
  std::unique_ptr<RecordEncoder> encoder;
};

// One batch's encoded records and, after Merge, its chunks.
struct DatasetPartial final : SinkPartial {
  SinkBatch batch;
  SinkWork work;
  int64_t narrowed_doubles = 0;  // by the batch's encoding
};

}  // namespace

Result<std::unique_ptr<SinkLocalState>> DatasetSink::NewLocalState() const {
  auto state = std::make_unique<EncoderState>();
  ASSIGN_OR_RETURN(state->encoder, format_->NewEncoder());
  return std::unique_ptr<SinkLocalState>(std::move(state));
}

Result<std::unique_ptr<SinkPartial>> DatasetSink::Consume(SinkLocalState* local,
                                                          const std::shared_ptr<RecordBatch>& batch) const {
  RecordEncoder* encoder = static_cast<EncoderState*>(local)->encoder.get();
  auto partial = std::make_unique<DatasetPartial>();
  const int64_t narrowed_before = encoder->narrowed_doubles();
  RETURN_NOT_OK(Prepare(encoder, *batch, &partial->batch));
  partial->narrowed_doubles = encoder->narrowed_doubles() - narrowed_before;
  return std::unique_ptr<SinkPartial>(std::move(partial));
}

Status DatasetSink::Merge(SinkPartial* partial) {
  auto* p = static_cast<DatasetPartial*>(partial);
  stats_.narrowed_doubles += p->narrowed_doubles;
  return Assign(std::move(p->batch), &p->work);
}

Status DatasetSink::Process(SinkPartial* partial) const {
  std::vector<SinkWork::Job>& jobs = static_cast<DatasetPartial*>(partial)->work.jobs;
  std::vector<Status> statuses(jobs.size());
  tbb::parallel_for(size_t{0}, jobs.size(), [&](size_t i) { statuses[i] = ProcessJob(&jobs[i]); });
  for (const Status& st : statuses) RETURN_NOT_OK(st);
  return Status::OK();
}

Status DatasetSink::Emit(SinkPartial* partial) { return Write(std::move(static_cast<DatasetPartial*>(partial)->work)); }

Result<std::unique_ptr<SinkPartial>> DatasetSink::Drain() {
  auto partial = std::make_unique<DatasetPartial>();
  for (auto& t : targets_) {
    if (!t->pending.empty() || !t->pending_runs.empty()) TakeChunk(t.get(), &partial->work);
  }
  return std::unique_ptr<SinkPartial>(std::move(partial));
}

Status DatasetSink::Prepare(RecordEncoder* encoder, const RecordBatch& batch, SinkBatch* out) const {
  out->groups.clear();
  ASSIGN_OR_RETURN(std::vector<PartitionRows> groups, GroupRowsByPartition(batch, partition_columns_));
  const RecordBatch* data = &batch;
  std::shared_ptr<RecordBatch> projected;  // the data columns, when partition columns leave
  if (!partition_columns_.empty()) {
    std::vector<std::shared_ptr<ArrayData>> columns;
    for (int c : data_columns_) columns.push_back(batch.column_data(c));
    ASSIGN_OR_RETURN(projected, RecordBatch::Make(data_schema_, batch.num_rows(), std::move(columns)));
    data = projected.get();
  }
  out->groups.resize(groups.size());
  const bool batches = format_->batch_encoding() != nullptr;
  std::shared_ptr<const RecordBatch> shared;
  if (batches) shared = projected != nullptr ? projected : std::make_shared<RecordBatch>(batch);
  for (size_t g = 0; g < groups.size(); ++g) {
    SinkBatch::Group& group = out->groups[g];
    group.dir = std::move(groups[g].dir);
    RETURN_NOT_OK(encoder->Encode(*data, groups[g].rows, &group.records));
    if (batches) group.run = {shared, std::move(groups[g].rows), nullptr};
  }
  return Status::OK();
}

Result<DatasetSink::Partition*> DatasetSink::PartitionFor(const std::string& dir) {
  auto it = partitions_.find(dir);
  if (it != partitions_.end()) return it->second.get();
  auto partition = std::make_unique<Partition>();
  partition->dir = dir;
  Partition* p = partition.get();
  partitions_.emplace(dir, std::move(partition));
  // Files that must exist whatever the data: every shard under kCount, else the first one.
  const int64_t eager = options_.sharding.kind == Sharding::Kind::kCount ? options_.sharding.value : 1;
  for (int64_t s = 0; s < eager; ++s) RETURN_NOT_OK(TargetFor(p, s).status());
  return p;
}

Result<std::string> DatasetSink::FinalName(const Partition& partition, int64_t shard, int64_t num_shards) const {
  ShardNamer namer;
  namer.naming = options_.naming;
  namer.prefix = options_.prefix;
  if (options_.naming == ShardNaming::kBeam && !options_.epoch_tag.empty()) {
    namer.prefix.append("-").append(options_.epoch_tag);
  } else if (options_.naming == ShardNaming::kBeam && options_.mode == SaveMode::kAppend) {
    // Appended shards must not take the names of shards already there: the job's tag goes
    // between the prefix and the shard fields (part-1f5b4d1a-00000-of-00004).
    namer.prefix.append("-").append(job_id(), 0, kAppendTagLength);
  }
  namer.suffix = suffix_;
  // A task's shards are its slice of the job's: task i of n writes shards i*S .. i*S+S-1 of n*S.
  const int64_t tasks = options_.task.active() ? options_.task.count : 1;
  namer.num_shards = num_shards * tasks;
  namer.job_uuid = job_id();
  ASSIGN_OR_RETURN(std::string name, namer.Name(options_.task.index * num_shards + shard));
  return partition.dir.empty() ? name : partition.dir + "/" + name;
}

Result<DatasetSink::Target*> DatasetSink::TargetFor(Partition* partition, int64_t shard) {
  auto it = partition->shards.find(shard);
  if (it != partition->shards.end()) return it->second;
  std::string relative;
  if (options_.sharding.kind == Sharding::Kind::kCount) {
    ASSIGN_OR_RETURN(relative, FinalName(*partition, shard, options_.sharding.value));
  } else {  // the shard count is known only at the end: a provisional name, renamed by Commit()
    const std::string name = "pending-" + std::to_string(shard) + suffix_;
    relative = partition->dir.empty() ? name : partition->dir + "/" + name;
  }
  ASSIGN_OR_RETURN(std::string path, StagedPath(relative));
  auto target = std::make_unique<Target>();
  target->partition = partition;
  target->shard = shard;
  target->file = files_->Add(std::move(path));
  AppendPiece(target.get(), header_, nullptr);
  if (const BatchEncoding* batches = format_->batch_encoding(); batches != nullptr) {
    target->batch_state = batches->NewFileState();
  }
  Target* t = target.get();
  targets_.push_back(std::move(target));
  partition->shards.emplace(shard, t);
  return t;
}

void DatasetSink::TakeChunk(Target* target, SinkWork* out) {
  pending_bytes_ -= target->pending_run_bytes;
  SinkWork::Job job;
  job.file = target->file;
  for (std::shared_ptr<EncodedBytes>& owner : target->pending_owners) {
    if (--owner->pending_pieces == 0) pending_bytes_ -= static_cast<int64_t>(owner->bytes.size());
    job.owners.push_back(std::move(owner));
  }
  job.raw = std::move(target->pending);
  job.runs = std::move(target->pending_runs);
  if (files_->writes() == internal::StagedWrites::kPositional) job.offset = files_->Reserve(job.file, target->pending_size);
  out->jobs.push_back(std::move(job));
  target->pending.clear();
  target->pending_owners.clear();
  target->pending_size = 0;
  target->copy = nullptr;
  target->pending_runs.clear();
  target->pending_run_bytes = 0;
}

Status DatasetSink::AppendRecords(Target* target, const SinkBatch::Group& group,
                                  const std::shared_ptr<EncodedBytes>& bytes, size_t begin, size_t end, SinkWork* out) {
  if (begin == end) return Status::OK();
  const EncodedRecords& records = group.records;
  const int64_t from = begin == 0 ? 0 : records.ends[begin - 1];
  const int64_t to = records.ends[end - 1];
  stats_.records += static_cast<int64_t>(end - begin);
  if (group.run.data != nullptr) {  // a batch format: the rows themselves, encoded by Compress
    const auto first = group.run.rows.begin();
    ASSIGN_OR_RETURN(std::shared_ptr<const BatchPlan> plan,
                     format_->batch_encoding()->PlanBatch(target->batch_state.get(), *group.run.data));
    target->pending_runs.push_back({group.run.data,
                                    std::vector<int64_t>(first + static_cast<ptrdiff_t>(begin),
                                                         first + static_cast<ptrdiff_t>(end)),
                                    std::move(plan)});
    target->pending_run_bytes += to - from;
    pending_bytes_ += to - from;
    if (target->pending_run_bytes >= options_.chunk_bytes) TakeChunk(target, out);
    return Status::OK();
  }
  AppendPiece(target, std::string_view(bytes->bytes).substr(static_cast<size_t>(from), static_cast<size_t>(to - from)),
              bytes);
  stats_.raw_bytes += to - from;
  if (target->pending_size >= options_.chunk_bytes) TakeChunk(target, out);
  return Status::OK();
}

void DatasetSink::AppendPiece(Target* target, std::string_view piece, const std::shared_ptr<EncodedBytes>& owner) {
  if (piece.empty()) return;
  target->pending_size += static_cast<int64_t>(piece.size());
  if (owner != nullptr && piece.size() >= kSmallestSharedPiece) {
    // Held until the last chunk pointing into it is taken: all of it counts as pending.
    if (owner->pending_pieces++ == 0) pending_bytes_ += static_cast<int64_t>(owner->bytes.size());
    target->pending.push_back(piece);
    target->pending_owners.push_back(owner);
    target->copy = nullptr;
    return;
  }
  if (target->copy == nullptr) {
    auto copy = std::make_shared<EncodedBytes>();
    copy->pending_pieces = 1;
    target->copy = copy.get();
    target->pending.emplace_back();
    target->pending_owners.push_back(std::move(copy));
  }
  target->copy->bytes.append(piece);
  target->pending.back() = target->copy->bytes;  // the append may have moved the bytes
  pending_bytes_ += static_cast<int64_t>(piece.size());
}

void DatasetSink::LimitPending(SinkWork* out) {
  if (pending_bytes_ <= options_.max_pending_bytes) return;
  std::vector<Target*> by_size;
  for (auto& t : targets_) {
    if (!t->pending.empty() || !t->pending_runs.empty()) by_size.push_back(t.get());
  }
  const auto size = [](const Target* t) { return t->pending_size + t->pending_run_bytes; };
  std::stable_sort(by_size.begin(), by_size.end(), [&](const Target* a, const Target* b) { return size(a) > size(b); });
  for (Target* t : by_size) {
    if (pending_bytes_ <= options_.max_pending_bytes / 2) break;
    TakeChunk(t, out);
  }
}

Status DatasetSink::Assign(SinkBatch batch, SinkWork* out) {
  const Sharding& sharding = options_.sharding;
  for (SinkBatch::Group& group : batch.groups) {
    ASSIGN_OR_RETURN(Partition * p, PartitionFor(group.dir));
    auto bytes = std::make_shared<EncodedBytes>();
    bytes->bytes = std::move(group.records.bytes);
    const EncodedRecords& recs = group.records;
    const size_t n = recs.ends.size();
    switch (sharding.kind) {
      case Sharding::Kind::kCount: {
        // The group is cut into `count` contiguous runs of near-equal size; run j goes to shard
        // (start + j) mod count, and `start` advances with the partition's record count, so
        // small groups rotate over the shards and every shard gets its share.
        const int64_t count = sharding.value;
        const int64_t start = p->records % count;
        for (int64_t j = 0; j < count; ++j) {
          const size_t begin = static_cast<size_t>(static_cast<int64_t>(n) * j / count);
          const size_t end = static_cast<size_t>(static_cast<int64_t>(n) * (j + 1) / count);
          if (begin == end) continue;
          ASSIGN_OR_RETURN(Target * t, TargetFor(p, (start + j) % count));
          RETURN_NOT_OK(AppendRecords(t, group, bytes, begin, end, out));
        }
        p->records += static_cast<int64_t>(n);
        break;
      }
      case Sharding::Kind::kMaxRecords: {
        size_t begin = 0;
        while (begin < n) {
          const int64_t room = sharding.value - p->records % sharding.value;
          const size_t end = std::min(n, begin + static_cast<size_t>(room));
          ASSIGN_OR_RETURN(Target * t, TargetFor(p, p->records / sharding.value));
          RETURN_NOT_OK(AppendRecords(t, group, bytes, begin, end, out));
          p->records += static_cast<int64_t>(end - begin);
          begin = end;
        }
        break;
      }
      case Sharding::Kind::kMaxBytes: {
        size_t begin = 0;
        for (size_t r = 0; r < n; ++r) {
          const int64_t size = recs.ends[r] - (r == 0 ? 0 : recs.ends[r - 1]);
          if (p->current_bytes > 0 && p->current_bytes + size > sharding.value) {
            ASSIGN_OR_RETURN(Target * t, TargetFor(p, p->current_shard));
            RETURN_NOT_OK(AppendRecords(t, group, bytes, begin, r, out));
            begin = r;
            ++p->current_shard;
            p->current_bytes = 0;
          }
          p->current_bytes += size;
        }
        ASSIGN_OR_RETURN(Target * t, TargetFor(p, p->current_shard));
        RETURN_NOT_OK(AppendRecords(t, group, bytes, begin, n, out));
        p->records += static_cast<int64_t>(n);
        break;
      }
    }
  }
  LimitPending(out);
  return Status::OK();
}

Status DatasetSink::ProcessJob(SinkWork::Job* job) const {
  if (job->offset >= 0) {  // written here, at the offset Merge fixed; Emit has nothing left to do
    RETURN_NOT_OK(files_->WriteAt(job->file, job->offset, job->raw));
    job->raw.clear();
    job->owners.clear();
    return Status::OK();
  }
  if (const BatchEncoding* batches = format_->batch_encoding(); batches != nullptr) {
    int64_t at = 0;
    for (std::string_view piece : job->raw) at += static_cast<int64_t>(piece.size());
    for (const SinkRun& run : job->runs) {
      ASSIGN_OR_RETURN(EncodedBatch encoded, batches->EncodeBatch(*run.data, run.rows, run.plan.get()));
      for (BatchBlock block : encoded.dictionary_blocks) {
        block.offset += at;
        job->dictionary_blocks.push_back(block);
      }
      encoded.block.offset += at;
      job->blocks.push_back(encoded.block);
      at += encoded.size;
      job->batches.push_back(std::move(encoded));
    }
    job->runs.clear();
  }
  if (options_.compression == Compression::kNone) return Status::OK();  // Write writes the pieces themselves
  RETURN_NOT_OK(CompressChunk(options_.compression, options_.level, job->raw, &job->chunk));
  job->raw.clear();
  job->owners.clear();
  return Status::OK();
}

Status DatasetSink::Write(SinkWork work) {
  for (const SinkWork::Job& job : work.jobs) {
    if (job.offset >= 0) continue;  // Process wrote it
    Target& target = *targets_[static_cast<size_t>(job.file)];
    // Where the chunk starts: batch formats are never compressed (Open refuses), so the file's
    // position counts the uncompressed bytes the blocks are offsets into.
    const int64_t at = files_->written_bytes(job.file);
    for (BatchBlock block : job.blocks) {
      block.offset += at;
      target.blocks.push_back(block);
    }
    for (BatchBlock block : job.dictionary_blocks) {
      block.offset += at;
      target.dictionary_blocks.push_back(block);
    }
    if (options_.compression != Compression::kNone) {
      RETURN_NOT_OK(files_->Append(job.file, job.chunk));
      continue;
    }
    // Uncompressed: the records where they were encoded and the batches' pieces, in one gathered write.
    std::vector<std::string_view> pieces = job.raw;
    for (const EncodedBatch& batch : job.batches) pieces.insert(pieces.end(), batch.pieces.begin(), batch.pieces.end());
    RETURN_NOT_OK(files_->AppendUncompressed(job.file, pieces));
    if (!job.batches.empty()) stats_.raw_bytes += files_->written_bytes(job.file) - at;
  }
  return Status::OK();
}

Status DatasetSink::Finish() {
  if (finished_) return Status::InvalidArgument("the job was already committed or aborted");
  if (prepared_) return Status::OK();
  Status st = FinishFiles();
  if (st.ok() && committer_ != nullptr) st = committer_->Prepare();
  if (!st.ok()) {
    finished_ = true;  // only Abort() is left
    return st;
  }
  prepared_ = true;
  return Status::OK();
}

Status DatasetSink::FinishFiles() {
  for (auto& t : targets_) {
    if (const BatchEncoding* batches = format_->batch_encoding(); batches != nullptr) {
      CompressedChunk trailer;
      trailer.bytes = batches->FileTrailer(t->dictionary_blocks, t->blocks);
      trailer.raw_size = static_cast<int64_t>(trailer.bytes.size());
      RETURN_NOT_OK(files_->Append(t->file, trailer));
    }
    RETURN_NOT_OK(files_->Close(t->file));
    stats_.written_bytes += files_->written_bytes(t->file);
  }
  if (options_.sharding.kind != Sharding::Kind::kCount) {
    for (auto& [dir, p] : partitions_) {
      const int64_t num_shards = static_cast<int64_t>(p->shards.size());
      for (auto& [shard, t] : p->shards) {
        ASSIGN_OR_RETURN(std::string relative, FinalName(*p, shard, num_shards));
        ASSIGN_OR_RETURN(std::string path, StagedPath(relative));
        RETURN_NOT_OK(files_->Rename(t->file, std::move(path)));
      }
    }
  }
  stats_.files = static_cast<int64_t>(targets_.size());
  stats_.partitions = partition_columns_.empty() ? 0 : static_cast<int64_t>(partitions_.size());
  files_.reset();
  return Status::OK();
}

Status DatasetSink::Commit() {
  RETURN_NOT_OK(Finish());
  finished_ = true;
  return committer_ != nullptr ? committer_->Commit() : Status::OK();  // a task's driver commits
}

Status DatasetSink::Abort() {
  finished_ = true;
  files_.reset();
  return committer_ != nullptr ? committer_->Abort() : file_system_->RemoveTree(options_.task.dir);
}

}  // namespace recflow::dataset
