// GroupingSnapshot's windows as int64 and binary columns and back, and the state file's bytes: a header line, then
// three Arrow IPC streams.
#include "recflow/pipeline/window_snapshot.h"

#include <fmt/core.h>

#include <cstdio>
#include <cstring>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/element_access.h"
#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"

namespace recflow::pipeline {

namespace {

using window::WindowSnapshot;

constexpr std::string_view kMagic = "recflow-state 1 ";
// The int64 columns of WindowSnapshotFields, in order; the binary trigger column follows them.
constexpr const char* kIntColumns[] = {"key",        "start",      "end",        "new_elements",
                                       "min_time",   "max_time",   "pane_timing", "pane_index",
                                       "pane_nonspeculative_index", "flags"};
constexpr int kInts = static_cast<int>(std::size(kIntColumns));
enum Flag : int64_t { kHasPane = 1, kClosed = 2, kLateForOutput = 4, kLastIsFirst = 8, kLastIsLast = 16 };

std::vector<int64_t> IntsOf(const WindowSnapshot& w) {
  const int64_t flags = (w.has_pane ? kHasPane : 0) | (w.closed ? kClosed : 0) | (w.late_for_output ? kLateForOutput : 0) |
                        (w.last.is_first ? kLastIsFirst : 0) | (w.last.is_last ? kLastIsLast : 0);
  return {w.key, w.window.start, w.window.end, w.new_elements, w.min_time, w.max_time,
          static_cast<int64_t>(w.last.timing), w.last.index, w.last.nonspeculative_index, flags};
}

void AppendInt(std::string* out, int64_t v) {
  char bytes[8];
  for (int b = 0; b < 8; ++b) bytes[b] = static_cast<char>(static_cast<uint64_t>(v) >> (8 * b));
  out->append(bytes, 8);
}

int64_t ReadInt(std::string_view bytes, size_t at) {
  uint64_t v = 0;
  for (int b = 0; b < 8; ++b) v |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[at + b])) << (8 * b);
  return static_cast<int64_t>(v);
}

Result<std::shared_ptr<Buffer>> IpcBytes(const RecordBatch& batch) {
  BufferOutputStream out;
  ASSIGN_OR_RETURN(auto writer, arrow_ipc::IpcWriter::OpenStream(&out, batch.schema(), arrow_ipc::IpcWriteOptions::Defaults()));
  RETURN_NOT_OK(writer->Write(batch));
  RETURN_NOT_OK(writer->Finish());
  return out.Finish();
}

// The one batch of the IPC stream in `data` (a stream of no batch: an empty one of its schema).
Result<std::shared_ptr<RecordBatch>> OneBatch(std::shared_ptr<Buffer> data, const std::string& name) {
  ASSIGN_OR_RETURN(auto reader, arrow_ipc::IpcStreamReader::Open(std::move(data), name));
  ASSIGN_OR_RETURN(auto batch, reader->Next());
  if (batch == nullptr) return Status::DataError("a stream with no record batch");
  ASSIGN_OR_RETURN(auto more, reader->Next());
  if (more != nullptr) return Status::DataError("a stream of more than one record batch");
  return batch;
}

}  // namespace

std::vector<FieldPtr> WindowSnapshotFields() {
  std::vector<FieldPtr> fields;
  for (const char* name : kIntColumns) fields.push_back(Field::Make(name, int64(), false));
  fields.push_back(Field::Make("trigger", binary(), false));
  return fields;
}

Result<std::vector<std::shared_ptr<ArrayData>>> WindowSnapshotColumns(const std::vector<WindowSnapshot>& windows) {
  std::vector<NumericBuilder<int64_t>> ints(kInts);
  BinaryBuilder triggers;
  std::string packed;
  for (const WindowSnapshot& w : windows) {
    const std::vector<int64_t> values = IntsOf(w);
    for (int c = 0; c < kInts; ++c) RETURN_NOT_OK(ints[static_cast<size_t>(c)].Append(values[static_cast<size_t>(c)]));
    packed.clear();
    for (const window::TriggerNodeState& node : w.trigger) {
      for (int64_t v : {int64_t{node.finished}, int64_t{node.on_time_fired}, node.count, node.target}) AppendInt(&packed, v);
    }
    RETURN_NOT_OK(triggers.Append(packed));
  }
  std::vector<std::shared_ptr<ArrayData>> columns;
  for (auto& builder : ints) {
    ASSIGN_OR_RETURN(auto column, builder.Finish());
    columns.push_back(std::move(column));
  }
  ASSIGN_OR_RETURN(auto column, triggers.Finish());
  columns.push_back(std::move(column));
  return columns;
}

Result<std::vector<WindowSnapshot>> ReadWindowSnapshots(const RecordBatch& batch) {
  const std::vector<FieldPtr> fields = WindowSnapshotFields();
  if (batch.num_columns() < static_cast<int>(fields.size())) return Status::DataError("the windows lack columns");
  for (size_t c = 0; c < fields.size(); ++c) {
    if (!batch.schema()->field(static_cast<int>(c))->Equals(*fields[c])) {
      return Status::DataError("the windows' column " + std::to_string(c) + " is not " + fields[c]->ToString());
    }
  }
  std::vector<WindowSnapshot> windows(static_cast<size_t>(batch.num_rows()));
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    int64_t v[kInts];
    for (int c = 0; c < kInts; ++c) v[c] = IntegerValue(*batch.column_data(c), r);
    WindowSnapshot& w = windows[static_cast<size_t>(r)];
    if (v[6] < 0 || v[6] > static_cast<int64_t>(window::PaneTiming::kLate)) {
      return Status::DataError("window " + std::to_string(r) + ": pane timing " + std::to_string(v[6]));
    }
    w.key = v[0];
    w.window = window::Window{v[1], v[2]};
    w.new_elements = v[3];
    w.min_time = v[4];
    w.max_time = v[5];
    w.last = window::PaneInfo{static_cast<window::PaneTiming>(v[6]), v[7], v[8], (v[9] & kLastIsFirst) != 0,
                              (v[9] & kLastIsLast) != 0};
    w.has_pane = (v[9] & kHasPane) != 0;
    w.closed = (v[9] & kClosed) != 0;
    w.late_for_output = (v[9] & kLateForOutput) != 0;
    const std::string_view packed = BinaryValue(*batch.column_data(kInts), r);
    if (packed.size() % 32 != 0) return Status::DataError("window " + std::to_string(r) + ": a trigger state of " + std::to_string(packed.size()) + " bytes");
    for (size_t at = 0; at < packed.size(); at += 32) {
      w.trigger.push_back(window::TriggerNodeState{ReadInt(packed, at) != 0, ReadInt(packed, at + 8) != 0,
                                                   ReadInt(packed, at + 16), ReadInt(packed, at + 24)});
    }
  }
  return windows;
}

Result<std::shared_ptr<Buffer>> EncodeSnapshot(const GroupingSnapshot& snapshot) {
  ASSIGN_OR_RETURN(auto keys, IpcBytes(*snapshot.keys));
  ASSIGN_OR_RETURN(auto windows, IpcBytes(*snapshot.windows));
  std::shared_ptr<Buffer> rows;
  if (snapshot.rows != nullptr) {
    ASSIGN_OR_RETURN(rows, IpcBytes(*snapshot.rows));
  }
  const std::string header = fmt::format("{}{} {} {} {} {} {}\n", kMagic, snapshot.watermark, snapshot.processing_time,
                                         snapshot.output_watermark, keys->size(), windows->size(),
                                         rows != nullptr ? rows->size() : 0);
  BufferOutputStream out;
  RETURN_NOT_OK(out.Write(header.data(), static_cast<int64_t>(header.size())));
  for (const auto& part : {keys, windows, rows}) {
    if (part != nullptr) RETURN_NOT_OK(out.Write(part->data(), part->size()));
  }
  return out.Finish();
}

Result<GroupingSnapshot> DecodeSnapshot(const std::shared_ptr<Buffer>& data, const std::string& name) {
  const std::string_view text = data->view();
  const size_t newline = text.find('\n');
  auto refuse = [&](const std::string& why, int64_t offset) {
    return Status::DataError("not a recflow window state: " + why).WithFile(name).WithOffset(offset);
  };
  if (!text.starts_with(kMagic) || newline == std::string_view::npos || newline > 256) return refuse("no header line", 0);
  GroupingSnapshot snapshot;
  int64_t lengths[3] = {0, 0, 0};
  const std::string header(text.substr(kMagic.size(), newline - kMagic.size()));
  if (std::sscanf(header.c_str(), "%ld %ld %ld %ld %ld %ld", &snapshot.watermark, &snapshot.processing_time,
                  &snapshot.output_watermark, &lengths[0], &lengths[1], &lengths[2]) != 6) {
    return refuse("a bad header line", static_cast<int64_t>(kMagic.size()));
  }
  int64_t at = static_cast<int64_t>(newline) + 1;
  std::shared_ptr<RecordBatch>* parts[3] = {&snapshot.keys, &snapshot.windows, &snapshot.rows};
  for (int p = 0; p < 3; ++p) {
    if (lengths[p] < 0 || lengths[p] > data->size() - at) return refuse("cut short", at);
    if (lengths[p] > 0) {
      ASSIGN_OR_RETURN(auto part, Buffer::Slice(data, at, lengths[p]));
      auto batch = OneBatch(std::move(part), name);
      if (!batch.ok()) return refuse(batch.status().message(), at);
      *parts[p] = std::move(batch).ValueUnsafe();
    }
    at += lengths[p];
  }
  if (at != data->size()) return refuse("bytes after the last stream", at);
  if (snapshot.keys == nullptr || snapshot.windows == nullptr) return refuse("no keys or windows", at);
  return snapshot;
}

}  // namespace recflow::pipeline
