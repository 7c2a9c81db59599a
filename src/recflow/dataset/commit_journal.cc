// Writing, reading and replaying the commit journal (text lines of %-escaped relative paths).
#include "recflow/dataset/commit_journal_internal.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>

#include "recflow/core/io.h"
#include "recflow/dataset/commit.h"
#include "recflow/dataset/commit_fs_internal.h"
#include "recflow/dataset/partition_path.h"

namespace recflow::dataset::internal {

namespace {

constexpr std::string_view kHeader = "recflow-commit-journal 1\n";
constexpr std::string_view kTrailer = "end\n";
constexpr std::string_view kRenameTag = "rename\t";

std::string JoinPath(const std::string& dir, const std::string& relative) { return dir + "/" + relative; }

std::string ParentOf(const std::string& path) { return std::filesystem::path(path).parent_path().string(); }

/// The journal text: header, one `rename\tFROM\tTO` line per step (paths escaped so that tabs
/// and newlines in names cannot break lines), trailer.
std::string Serialize(const CommitJournal& journal) {
  std::string text(kHeader);
  for (const RenameStep& step : journal.steps) {
    text += kRenameTag;
    text += EscapePathName(step.from);
    text += '\t';
    text += EscapePathName(step.to);
    text += '\n';
  }
  text += kTrailer;
  return text;
}

Result<CommitJournal> Parse(std::string_view text, const std::string& path) {
  const auto malformed = [&](const std::string& why) { return Status::DataError("malformed commit journal: " + why).WithFile(path); };
  if (!text.starts_with(kHeader)) return malformed("bad header");
  if (!text.ends_with(kTrailer)) return malformed("missing end line");
  text.remove_prefix(kHeader.size());
  text.remove_suffix(kTrailer.size());
  CommitJournal journal;
  while (!text.empty()) {
    const size_t eol = text.find('\n');
    if (eol == std::string_view::npos) return malformed("unterminated line");
    std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol + 1);
    if (!line.starts_with(kRenameTag)) return malformed("unknown step '" + std::string(line) + "'");
    line.remove_prefix(kRenameTag.size());
    const size_t tab = line.find('\t');
    if (tab == std::string_view::npos || tab == 0 || tab + 1 == line.size()) return malformed("bad rename step");
    journal.steps.push_back({UnescapePathName(line.substr(0, tab)), UnescapePathName(line.substr(tab + 1))});
  }
  return journal;
}

}  // namespace

Status WriteJournal(const std::string& job_dir, const CommitJournal& journal, bool sync) {
  const std::string final_path = JoinPath(job_dir, std::string(kJournalName));
  const std::string temp_path = final_path + ".tmp";
  ASSIGN_OR_RETURN(auto out, FileOutputStream::Open(temp_path));
  out->set_sync_on_close(sync);
  const std::string text = Serialize(journal);
  RETURN_NOT_OK(out->Write(text.data(), static_cast<int64_t>(text.size())));
  RETURN_NOT_OK(out->Close());
  if (::rename(temp_path.c_str(), final_path.c_str()) != 0) {
    return Status::IOError("cannot rename '" + temp_path + "': " + std::strerror(errno));
  }
  return sync ? SyncPath(job_dir) : Status::OK();
}

Result<std::optional<CommitJournal>> ReadJournal(const std::string& job_dir) {
  const std::string path = JoinPath(job_dir, std::string(kJournalName));
  if (!PathExists(path)) return std::optional<CommitJournal>();
  ASSIGN_OR_RETURN(auto buffer, ReadWholeFile(path));
  const std::string_view text(reinterpret_cast<const char*>(buffer->data()), static_cast<size_t>(buffer->size()));
  ASSIGN_OR_RETURN(CommitJournal journal, Parse(text, path));
  return std::optional<CommitJournal>(std::move(journal));
}

Status RemoveJournal(const std::string& job_dir, bool sync) {
  const std::string path = JoinPath(job_dir, std::string(kJournalName));
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return Status::IOError("cannot remove '" + path + "': " + std::strerror(errno));
  }
  return sync ? SyncPath(job_dir) : Status::OK();
}

Status ApplyJournal(const std::string& output, const CommitJournal& journal, bool sync, const StepHook& hook) {
  std::set<std::string> touched = {output};
  for (const RenameStep& step : journal.steps) {
    const std::string from = JoinPath(output, step.from);
    const std::string to = JoinPath(output, step.to);
    if (!PathExists(to)) {
      if (!PathExists(from)) {
        // Moving committed data aside (into _temporary): nothing to do when it is already gone.
        if (step.to.starts_with(std::string(kTemporaryDirName) + "/")) continue;
        return Status::Internal("commit journal step '" + step.from + "' -> '" + step.to +
                                "': neither source nor destination exists").WithFile(output);
      }
      RETURN_NOT_OK(CreateDirectories(ParentOf(to)));
      RETURN_NOT_OK(RenameNoReplace(from, to));
    }
    touched.insert(ParentOf(from));
    // Every directory between the output and the destination may have been created just now.
    for (std::string dir = ParentOf(to); dir.size() > output.size(); dir = ParentOf(dir)) touched.insert(dir);
    if (hook) hook("rename " + step.from + " -> " + step.to);
  }
  if (sync) {
    for (const std::string& dir : touched) RETURN_NOT_OK(SyncPath(dir));
  }
  return Status::OK();
}

}  // namespace recflow::dataset::internal
