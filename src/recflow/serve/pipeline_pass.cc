// PipelinePass: the served step chosen among the unread ones; each pass a RunPipeline with an IpcStreamSink output.
#include "recflow/serve/pipeline_pass.h"

#include <algorithm>
#include <optional>
#include <set>

#include "recflow/pipeline/local_runner.h"
#include "recflow/serve/client_memory_cap.h"

namespace recflow::serve {

namespace {

// "'a', 'b'" of the names of `ids`.
std::string Names(const pipeline::Pipeline& p, const std::vector<int>& ids) {
  std::string text;
  for (int id : ids) text += (text.empty() ? "'" : ", '") + p.node(id).name + "'";
  return text;
}

// InvalidArgument when running `p` writes anything besides the stream.
Status CheckWritesNothing(const pipeline::Pipeline& p) {
  const std::string why = ": a served pipeline runs once per connection and may only stream (run it with recflow run)";
  for (const pipeline::Node& node : p.nodes()) {
    if (node.kind == pipeline::NodeKind::kWrite) return Status::InvalidArgument("step '" + node.name + "' writes files" + why);
    if (node.on_error.mode == pipeline::ErrorPolicy::Mode::kDeadLetter) {
      return Status::InvalidArgument("step '" + node.name + "' writes a dead-letter file" + why);
    }
  }
  if (!p.side_files().empty()) return Status::InvalidArgument("the pipeline writes " + p.side_files()[0].path + why);
  return Status::OK();
}

}  // namespace

Result<int> ChooseServedStep(const pipeline::Pipeline& p, const std::string& requested) {
  RETURN_NOT_OK(p.status());
  RETURN_NOT_OK(CheckWritesNothing(p));
  std::set<int> read;
  for (const pipeline::Node& node : p.nodes()) {
    for (int input : node.inputs) read.insert(input);
    for (const auto& [name, side] : node.side_inputs) read.insert(side);
  }
  std::vector<int> unread, all;
  for (const pipeline::Node& node : p.nodes()) {
    all.push_back(node.id);
    if (read.count(node.id) == 0) unread.push_back(node.id);
    if (!requested.empty() && node.name == requested) return node.id;
  }
  if (!requested.empty()) return Status::InvalidArgument("--output " + requested + ": no such step (" + Names(p, all) + ")");
  if (unread.size() == 1) return unread[0];
  return Status::InvalidArgument("the pipeline has " + std::to_string(unread.size()) + " steps nothing reads (" +
                                 Names(p, unread) + "): choose the one to serve with --output STEP");
}

Result<std::shared_ptr<const PipelinePass>> PipelinePass::Make(std::shared_ptr<const pipeline::Pipeline> pipeline,
                                                               const std::string& output, const PassOptions& options,
                                                               ExecContext context) {
  RETURN_NOT_OK(context.Validate());
  if (pipeline->has_deferred()) return Status::InvalidArgument("the pipeline's inputs do not exist yet");
  ASSIGN_OR_RETURN(const int step, ChooseServedStep(*pipeline, output));
  return std::shared_ptr<const PipelinePass>(new PipelinePass(std::move(pipeline), step, options, std::move(context)));
}

Status PipelinePass::Stream(OutputStream* out) const {
  ASSIGN_OR_RETURN(auto stream, arrow_ipc::IpcStreamSink::Open(out, pipeline_->node(step_).schema, options_.stream));
  std::optional<ClientMemoryCap> cap;
  if (options_.client_memory_bytes > 0) cap.emplace(stream.get(), options_.client_memory_bytes);
  pipeline::RunOptions run = pipeline::RunOptions::Defaults();
  run.outputs[step()] = cap ? static_cast<Sink*>(&*cap) : stream.get();
  StopSource stop;
  ExecContext context = context_;
  context.stop_token = stop.token();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopped_ >= 0) stop.RequestStop(stopped_);
    running_.push_back(&stop);
  }
  const Status st = pipeline::RunPipeline(context, *pipeline_, run, nullptr).status();
  std::lock_guard<std::mutex> lock(mutex_);
  running_.erase(std::find(running_.begin(), running_.end(), &stop));
  return st;
}

void PipelinePass::StopRuns(int signal) const {
  std::lock_guard<std::mutex> lock(mutex_);
  stopped_ = signal;
  for (StopSource* stop : running_) stop->RequestStop(signal);
}

}  // namespace recflow::serve
