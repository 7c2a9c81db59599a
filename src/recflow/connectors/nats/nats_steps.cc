// The `nats` and `write_nats` steps: their YAML arguments read into the source's and sink's options.
#include "recflow/connectors/nats/nats_steps.h"

#include "recflow/connectors/nats/nats_sink.h"
#include "recflow/connectors/nats/nats_source.h"
#include "recflow/ops/columns/type_name.h"

namespace recflow::nats {

namespace {

using pipeline::StepArgs;
using pipeline::StepContext;

Result<std::optional<pipeline::PCollection>> BuildNats(StepContext& ctx) {
  StepArgs& a = *ctx.args;
  NatsSourceOptions o = NatsSourceOptions::Defaults();
  ASSIGN_OR_RETURN(o.url, a.String("url"));
  ASSIGN_OR_RETURN(o.stream, a.String("stream"));
  ASSIGN_OR_RETURN(o.consumer, a.String("consumer"));
  ASSIGN_OR_RETURN(o.subject, a.String("subject", ""));
  ASSIGN_OR_RETURN(auto columns, a.StringMap("schema"));
  std::vector<FieldPtr> fields;
  for (const auto& [column, type_name] : columns) {
    auto type = ops::ParseTypeName(type_name);
    if (!type.ok()) return a.Error("schema", column + ": " + type.status().message());
    fields.push_back(Field::Make(column, *type));
  }
  o.payload = Schema::Make(std::move(fields));
  ASSIGN_OR_RETURN(o.event_time, a.String("event_time", ""));
  ASSIGN_OR_RETURN(o.out_of_orderness_ms, a.Duration("out_of_orderness", o.out_of_orderness_ms));
  ASSIGN_OR_RETURN(o.idle_ms, a.Duration("idle", o.idle_ms));
  ASSIGN_OR_RETURN(o.batch, a.Int("batch", o.batch));
  ASSIGN_OR_RETURN(o.expires_ms, a.Duration("expires", o.expires_ms));
  ASSIGN_OR_RETURN(o.create, a.Bool("create", o.create));
  ASSIGN_OR_RETURN(o.ack_wait_ms, a.Duration("ack_wait", o.ack_wait_ms));
  ASSIGN_OR_RETURN(o.max_ack_pending, a.Int("max_ack_pending", o.max_ack_pending));
  ASSIGN_OR_RETURN(o.until_caught_up, a.Bool("until_caught_up", o.until_caught_up));
  ASSIGN_OR_RETURN(o.stop_after_idle_ms, a.Duration("stop_after_idle", ctx.stop_after_idle));
  o.skip_bad = ctx.options.on_error.mode != pipeline::ErrorPolicy::Mode::kFail;
  if (Status st = o.Validate(); !st.ok()) return a.Error("url", st.message());
  const std::string description = "nats " + o.url + " stream " + o.stream + " consumer " + o.consumer;
  // The messages can be read once: a second pass would see other messages (or none).
  pipeline::SourceFactory open = [o](const std::shared_ptr<FileSystem>&) { return OpenNatsSource(o); };
  ctx.pipeline->add_acknowledged_read(ctx.name);
  return ctx.pipeline->Read(ctx.name, open, description, ctx.options.on_error, /*reopenable=*/false);
}

Result<std::optional<pipeline::PCollection>> BuildWriteNats(StepContext& ctx) {
  StepArgs& a = *ctx.args;
  NatsSinkOptions o = NatsSinkOptions::Defaults();
  ASSIGN_OR_RETURN(o.url, a.String("url"));
  ASSIGN_OR_RETURN(o.subject, a.String("subject"));
  ASSIGN_OR_RETURN(o.stream, a.String("stream", ""));
  ASSIGN_OR_RETURN(o.key, a.StringList("key"));
  ASSIGN_OR_RETURN(o.timeout_ms, a.Duration("timeout", o.timeout_ms));
  if (Status st = o.Validate(); !st.ok()) return a.Error("url", st.message());
  const SchemaPtr schema = ctx.input().schema();
  for (const std::string& column : o.key) {
    if (schema != nullptr && schema->GetFieldIndex(column) < 0) return a.Error("key", "the rows have no column '" + column + "'");
  }
  ctx.pipeline->WriteTo(
      ctx.name, ctx.input(),
      [o](const SchemaPtr& input, int64_t generation) {
        NatsSinkOptions run = o;
        run.generation = generation;
        return OpenNatsSink(run, input);
      },
      "nats " + o.url + " subject " + o.subject);
  return std::optional<pipeline::PCollection>();
}

}  // namespace

void AddNatsSteps(pipeline::StepRegistry* registry) {
  (void)registry->Add(pipeline::StepType{"nats", "a NATS JetStream durable pull consumer's JSON messages, with event time and watermark",
                                         "", 0, 0, BuildNats, pipeline::NodeKind::kRead});
  (void)registry->Add(pipeline::StepType{"write_nats", "publishes each row as a JSON message to NATS JetStream, deduplicated by origin",
                                         "", 1, 1, BuildWriteNats, pipeline::NodeKind::kWrite});
}

}  // namespace recflow::nats
