// LocalPath: what a path or URI argument names on the local file system (file:// URIs; other schemes refused).
#pragma once

#include <string>
#include <string_view>

#include "recflow/core/result.h"

namespace recflow {

/// True when `text` starts with a URI scheme and `://` (`s3://b/k`, `file:///x`), as RFC 3986
/// spells a scheme: a letter, then letters, digits, `+`, `-` or `.`.
bool HasUriScheme(std::string_view text);

/// The local path `text` names: `text` itself when it has no URI scheme; the path of a `file:`
/// URI (`file:///data/x` and `file://localhost/data/x` → `/data/x`, %-escapes decoded).
/// InvalidArgument for a `file:` URI naming another host or holding a bad %-escape (or one of a
/// control byte: `%00` would cut the path short), and for every
/// other scheme (`s3://`, `gs://`, `http://`...): recflow reads and writes local paths only, and a
/// URI must never be taken for a relative directory such as `./s3:/bucket`.
Result<std::string> LocalPath(std::string_view text);

}  // namespace recflow
