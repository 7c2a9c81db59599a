// Checkpoint files: a header line with the JSON's length and CRC32C, then the JSON; written to a hidden file, fsynced,
// renamed in; read back with every check naming the file and the byte offset.
#include "recflow/pipeline/checkpoint.h"

#include <fmt/core.h>
#include <simdjson.h>

#include <algorithm>
#include <cstdio>

#include "recflow/core/crc32c.h"
#include "recflow/core/io.h"
#include "recflow/formats/jsonl/json_writer.h"

namespace recflow::pipeline {

namespace {

constexpr std::string_view kMagic = "recflow-checkpoint 4 ";
constexpr std::string_view kVersion3 = "recflow-checkpoint 3 ";  // no letters: the dead-letter files start empty
constexpr std::string_view kVersion2 = "recflow-checkpoint 2 ";  // no generation either: generation 0, not drained
constexpr std::string_view kOlder = "recflow-checkpoint 1 ";  // positions replayed, no state: not resumable here
constexpr std::string_view kStatePrefix = "state-";

std::string Json(const Checkpoint& checkpoint) {
  std::string text;
  jsonl::JsonWriter json(&text);
  json.BeginObject();
  json.Key("generation");
  json.Int(checkpoint.generation);
  json.Key("drained");
  json.Bool(checkpoint.drained);
  json.Key("epochs");
  json.BeginObject();
  for (const auto& [step, epochs] : checkpoint.epochs) {
    json.Key(step);
    json.Int(epochs);
  }
  json.EndObject();
  json.Key("positions");
  json.BeginObject();
  for (const auto& [step, position] : checkpoint.positions) {
    json.Key(step);
    json.BeginArray();
    for (const std::string& entry : position) json.String(entry);
    json.EndArray();
  }
  json.EndObject();
  json.Key("states");
  json.BeginObject();
  for (const auto& [step, file] : checkpoint.states) {
    json.Key(step);
    json.BeginObject();
    json.Key("file");
    json.String(file.name);
    json.Key("bytes");
    json.Int(file.bytes);
    json.Key("crc32c");
    json.Int(file.crc32c);
    json.EndObject();
  }
  json.EndObject();
  json.Key("letters");
  json.BeginObject();
  for (const auto& [path, length] : checkpoint.letters) {
    json.Key(path);
    json.Int(length);
  }
  json.EndObject();
  json.EndObject();
  return text;
}

// The checkpoint in `json` of header version `version` (2, 3 or 4): from 3 on with its generation and drained mark,
// from 4 on with its dead-letter lengths.
Result<Checkpoint> Parse(std::string_view json, int version) {
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(json);
  simdjson::dom::object root;
  if (auto error = parser.parse(padded).get_object().get(root)) {
    return Status::DataError(std::string("not a JSON object: ") + simdjson::error_message(error));
  }
  Checkpoint checkpoint;
  simdjson::dom::object epochs, positions, states;
  if (root["epochs"].get_object().get(epochs) || root["positions"].get_object().get(positions) ||
      root["states"].get_object().get(states)) {
    return Status::DataError("no \"epochs\", \"positions\" and \"states\" objects");
  }
  if (version >= 3 && (root["generation"].get_int64().get(checkpoint.generation) || checkpoint.generation < 0 ||
                       root["drained"].get_bool().get(checkpoint.drained))) {
    return Status::DataError("no \"generation\" count and \"drained\" mark");
  }
  if (version >= 4) {
    simdjson::dom::object letters;
    if (root["letters"].get_object().get(letters)) return Status::DataError("no \"letters\" object");
    for (auto [path, value] : letters) {
      int64_t length = 0;
      if (value.get_int64().get(length) || length < 0) {
        return Status::DataError("the letters of '" + std::string(path) + "' are not a length");
      }
      checkpoint.letters[std::string(path)] = length;
    }
  }
  for (auto [step, value] : states) {
    StateFile& file = checkpoint.states[std::string(step)];
    std::string_view name;
    uint64_t crc = 0;
    if (value["file"].get_string().get(name) || value["bytes"].get_int64().get(file.bytes) ||
        value["crc32c"].get_uint64().get(crc) || !name.starts_with(kStatePrefix) ||
        name.find('/') != std::string_view::npos || file.bytes < 0 || crc > UINT32_MAX) {
      return Status::DataError("the state of '" + std::string(step) + "' is not a file, a length and a CRC32C");
    }
    file.name = name;
    file.crc32c = static_cast<uint32_t>(crc);
  }
  for (auto [step, value] : epochs) {
    int64_t count = 0;
    if (value.get_int64().get(count) || count < 0) {
      return Status::DataError("the epochs of '" + std::string(step) + "' are not a count");
    }
    checkpoint.epochs[std::string(step)] = count;
  }
  for (auto [step, value] : positions) {
    simdjson::dom::array entries;
    if (value.get_array().get(entries)) return Status::DataError("the position of '" + std::string(step) + "' is not a list");
    std::vector<std::string>& position = checkpoint.positions[std::string(step)];
    for (simdjson::dom::element entry : entries) {
      std::string_view text;
      if (entry.get_string().get(text)) {
        return Status::DataError("the position of '" + std::string(step) + "' holds a non-string");
      }
      position.emplace_back(text);
    }
  }
  return checkpoint;
}

}  // namespace

Checkpoint NextGeneration(const Checkpoint& drained) {
  Checkpoint next;
  next.generation = drained.generation + 1;
  next.positions = drained.positions;
  next.letters = drained.letters;
  return next;
}

std::string CheckpointFile(const std::string& dir) { return dir + "/checkpoint"; }

Status WriteCheckpoint(FileSystem& fs, const std::string& dir, const Checkpoint& checkpoint) {
  ASSIGN_OR_RETURN(const FileInfo info, fs.GetFileInfo(dir));
  if (!info.exists()) RETURN_NOT_OK(fs.CreateDirectory(dir));
  const std::string json = Json(checkpoint);
  const std::string text = fmt::format("{}{} {:08x}\n{}", kMagic, json.size(), Crc32c(json.data(), json.size()), json);
  const std::string hidden = dir + "/.checkpoint.tmp";
  {
    ASSIGN_OR_RETURN(auto out, fs.OpenOutputStream(hidden, WriteOptions{.append = false, .sync_on_close = true}));
    RETURN_NOT_OK(out->Write(text.data(), static_cast<int64_t>(text.size())));
    RETURN_NOT_OK(out->Close());
  }
  RETURN_NOT_OK(fs.Move(hidden, CheckpointFile(dir), MoveMode::kReplace));
  RETURN_NOT_OK(fs.Sync(dir));
  // The state files of earlier checkpoints (and of a crashed run's unfinished one) go.
  ASSIGN_OR_RETURN(std::vector<std::string> names, fs.ListDirectory(dir));
  for (const std::string& name : names) {
    if (!name.starts_with(kStatePrefix)) continue;
    const bool named = std::any_of(checkpoint.states.begin(), checkpoint.states.end(),
                                   [&](const auto& state) { return state.second.name == name; });
    if (!named) (void)fs.Remove(dir + "/" + name);
  }
  return Status::OK();
}

Result<StateFile> WriteStateFile(FileSystem& fs, const std::string& dir, const std::string& name, const Buffer& data) {
  ASSIGN_OR_RETURN(const FileInfo info, fs.GetFileInfo(dir));
  if (!info.exists()) RETURN_NOT_OK(fs.CreateDirectory(dir));
  const std::string file = std::string(kStatePrefix) + name;
  const std::string hidden = dir + "/." + file + ".tmp";
  {
    ASSIGN_OR_RETURN(auto out, fs.OpenOutputStream(hidden, WriteOptions{.append = false, .sync_on_close = true}));
    RETURN_NOT_OK(out->Write(data.data(), data.size()));
    RETURN_NOT_OK(out->Close());
  }
  RETURN_NOT_OK(fs.Move(hidden, dir + "/" + file, MoveMode::kReplace));
  return StateFile{file, data.size(), Crc32c(data.data(), static_cast<size_t>(data.size()))};
}

Result<std::shared_ptr<Buffer>> ReadStateFile(FileSystem& fs, const std::string& dir, const StateFile& file) {
  const std::string path = dir + "/" + file.name;
  auto data = fs.ReadWholeFile(path);
  if (!data.ok()) return Status::DataError("the checkpoint's state file cannot be read: " + data.status().message()).WithFile(path);
  if ((*data)->size() != file.bytes) {
    return Status::DataError(fmt::format("{} bytes where the checkpoint says {} (remove the checkpoint to start over)",
                                         (*data)->size(), file.bytes))
        .WithFile(path);
  }
  if (Crc32c((*data)->data(), static_cast<size_t>(file.bytes)) != file.crc32c) {
    return Status::DataError("the state does not match the checkpoint's CRC32C (remove the checkpoint to start over)").WithFile(path);
  }
  return std::move(data).ValueUnsafe();
}

Result<std::optional<Checkpoint>> ReadCheckpoint(FileSystem& fs, const std::string& dir) {
  const std::string path = CheckpointFile(dir);
  auto info = fs.GetFileInfo(path);
  if (!info.ok()) return info.status();
  if (info->type == FileType::kNotFound) return std::optional<Checkpoint>();
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> data, fs.ReadWholeFile(path));
  const std::string_view text(reinterpret_cast<const char*>(data->data()), static_cast<size_t>(data->size()));
  auto refuse = [&](const std::string& why, size_t offset) {
    return Status::DataError("not a whole recflow checkpoint: " + why + " (remove it to start over)")
        .WithFile(path)
        .WithOffset(static_cast<int64_t>(offset));
  };
  const size_t newline = text.find('\n');
  if (text.starts_with(kOlder)) return refuse("written by an older recflow, whose restarts read the input again", 0);
  int version = 0;
  for (const auto& [magic, number] : {std::pair{kMagic, 4}, std::pair{kVersion3, 3}, std::pair{kVersion2, 2}}) {
    if (text.starts_with(magic)) version = number;
  }
  static_assert(kMagic.size() == kVersion3.size() && kMagic.size() == kVersion2.size());
  if (version == 0 || newline == std::string_view::npos) return refuse("no header line", 0);
  size_t length = 0;
  uint32_t crc = 0;
  const std::string header(text.substr(kMagic.size(), newline - kMagic.size()));
  if (std::sscanf(header.c_str(), "%zu %x", &length, &crc) != 2) return refuse("a bad header line", kMagic.size());
  const std::string_view json = text.substr(newline + 1);
  if (json.size() != length) {
    return refuse(fmt::format("{} bytes of JSON where the header says {}", json.size(), length), newline + 1);
  }
  if (Crc32c(json.data(), json.size()) != crc) return refuse("the JSON does not match its CRC32C", newline + 1);
  auto checkpoint = Parse(json, version);
  if (!checkpoint.ok()) return refuse(checkpoint.status().message(), newline + 1);
  return std::optional<Checkpoint>(std::move(checkpoint).ValueUnsafe());
}

}  // namespace recflow::pipeline
