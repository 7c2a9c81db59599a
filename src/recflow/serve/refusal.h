// Refusal: the Arrow IPC stream a server sends instead of a pass it will not serve, and how a client reads one.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "recflow/columnar/schema.h"
#include "recflow/core/buffer.h"
#include "recflow/core/result.h"

namespace recflow::serve {

/// Schema metadata key of a refusal; its value says why the server serves no pass.
inline constexpr std::string_view kErrorMetadataKey = "recflow.error";

/// The bytes of a refusal: a valid IPC stream of a schema without fields whose custom metadata
/// holds `reason` under kErrorMetadataKey, then the end-of-stream marker. Any Arrow reader
/// reads it as an empty stream carrying that metadata; StreamClient turns it into an error.
Result<std::shared_ptr<Buffer>> EncodeRefusal(const std::string& reason);

/// The refusal `schema` carries: an IOError "`endpoint`: refused by the server: REASON" when
/// its metadata holds kErrorMetadataKey, else OK (a schema of a pass).
Status RefusalOf(const Schema& schema, std::string_view endpoint);

}  // namespace recflow::serve
