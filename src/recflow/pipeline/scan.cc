// ScanSource: a two-filter tbb::parallel_pipeline (read in order, decode in parallel) and an in-order tally.
#include "recflow/pipeline/scan.h"

#include <atomic>
#include <memory>
#include <thread>

#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>

namespace recflow::pipeline {

Result<ScanStats> ScanSource(Source* source, int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // A unit's outcome: rows and skipped counts, or the error.
  struct Outcome {
    std::unique_ptr<SourceUnit> unit;
    Status status;
    int64_t records = 0;
    int64_t skipped = 0;
    int64_t bytes = 0;
  };
  ScanStats stats;
  Status error;
  std::atomic<bool> stop{false};
  tbb::task_arena arena(threads);
  arena.execute([&] {
    tbb::parallel_pipeline(
        static_cast<size_t>(2 * threads + 2),
        tbb::make_filter<void, Outcome*>(tbb::filter_mode::serial_in_order,
                                         [&](tbb::flow_control& fc) -> Outcome* {
                                           if (stop) {
                                             fc.stop();
                                             return nullptr;
                                           }
                                           auto out = std::make_unique<Outcome>();
                                           auto unit = source->NextUnit();
                                           if (!unit.ok()) {
                                             out->status = unit.status();
                                             stop = true;
                                           } else if (*unit == nullptr) {
                                             fc.stop();
                                             return nullptr;
                                           } else {
                                             out->unit = std::move(unit).ValueUnsafe();
                                             out->bytes = out->unit->input_bytes();
                                           }
                                           return out.release();
                                         }) &
            tbb::make_filter<Outcome*, Outcome*>(tbb::filter_mode::parallel,
                                                 [](Outcome* o) {
                                                   if (!o->status.ok()) return o;
                                                   auto decoded = o->unit->Decode();
                                                   o->unit.reset();
                                                   if (!decoded.ok()) {
                                                     o->status = decoded.status();
                                                   } else {
                                                     o->records = decoded->batch->num_rows();
                                                     o->skipped = static_cast<int64_t>(decoded->skipped.size());
                                                   }
                                                   return o;
                                                 }) &
            tbb::make_filter<Outcome*, void>(tbb::filter_mode::serial_in_order, [&](Outcome* o) {
              std::unique_ptr<Outcome> owned(o);
              if (!error.ok()) return;
              if (!o->status.ok()) {
                error = o->status.RebaseRecord(stats.records + stats.skipped);
                stop = true;
                return;
              }
              stats.records += o->records;
              stats.skipped += o->skipped;
              stats.input_bytes += o->bytes;
            }));
  });
  if (!error.ok()) return error;
  return stats;
}

}  // namespace recflow::pipeline
