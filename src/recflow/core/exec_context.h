// ExecContext: what a run executes with — its worker threads, its stop token, its file system and its memory pool —
// passed through stages and sinks.
#pragma once

#include <memory>

#include "recflow/core/local_filesystem.h"
#include "recflow/core/memory_pool.h"
#include "recflow/core/status.h"
#include "recflow/core/stop_token.h"

namespace recflow {

/// How and under what control a job runs. Cheap to copy; jobs take it by const reference.
struct ExecContext {
  /// Worker threads; 0 = every core.
  int threads = 0;
  /// Checked between units: once a stop is requested, a job stops taking input, drains what it
  /// has in flight, aborts its outputs and returns Cancelled. Never stopped by default.
  StopToken stop_token;
  /// Checked between units: once requested, every stage stops reading its unbounded inputs
  /// (Source::unbounded) as if they had ended, so the run drains as at the end of a bounded
  /// input (every open window fires) and commits; a stop of `stop_token` still cancels it.
  /// Never requested by default (the CLI's first SIGTERM/SIGINT of an unbounded run requests it).
  StopToken drain_token;
  /// The file system everything the run reads and writes is on: a pipeline's reads (opened on it
  /// by the runner), its datasets (DatasetSink::Open), side files, dead letters and the files
  /// steps read and write themselves (ProcessContext::file_system). Local by default; the CLI
  /// sets it once and builds its pipelines on the same one (Pipeline::set_file_system).
  std::shared_ptr<FileSystem> file_system = LocalFileSystem::Instance();
  /// Where the buffers of the run come from: every thread working on the run's units allocates
  /// from it (ScopedMemoryPool, set once per unit), so its byte counts are the run's. It must
  /// outlive every buffer the run made, its results included. Never null; the process's default
  /// pool unless set.
  MemoryPool* memory_pool = DefaultMemoryPool();

  /// Every core, never stopped, the local file system, the default memory pool.
  static ExecContext Defaults() { return {}; }
  /// InvalidArgument for negative threads, no file system or no memory pool.
  Status Validate() const;
  /// The worker threads `threads` means (every core for 0).
  int ResolvedThreads() const;
};

}  // namespace recflow
