// The pipeline steps of the NATS connector: `nats` (a JetStream consumer's messages as rows) and `write_nats`.
#pragma once

#include "recflow/pipeline/step_registry.h"

namespace recflow::nats {

/// Adds the steps `nats` (a read: NatsSourceOptions from its arguments) and `write_nats` (a write:
/// NatsSinkOptions) to `registry` (docs/streaming.md, "NATS JetStream").
void AddNatsSteps(pipeline::StepRegistry* registry);

}  // namespace recflow::nats
