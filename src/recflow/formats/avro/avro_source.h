// OpenAvroSource: an Avro object container file as a Source whose units are its blocks.
#pragma once

#include <memory>
#include <string>

#include "recflow/core/buffer.h"
#include "recflow/core/io.h"
#include "recflow/core/result.h"
#include "recflow/formats/avro/read_options.h"
#include "recflow/formats/source.h"

namespace recflow::avro {

/// Opens a local file ("-" = stdin) as a Source (see formats/source.h). NextUnit() reads one
/// container block and checks its framing and sync marker; the unit's Decode() decompresses
/// and decodes it into one RecordBatch with as many rows as the block has records
/// (ReadOptions::batch_rows does not apply). With BadBlocksMode::kSkip, a block that fails to
/// decode becomes a unit with no rows and one SkippedRecord, and broken framing is skipped up
/// to the next sync marker, reported the same way. Errors as for AvroReader::Open.
Result<std::unique_ptr<Source>> OpenAvroSource(const std::string& path, const ReadOptions& options);

/// Same over Avro bytes held in memory (kept alive by the source); `name` appears in errors.
Result<std::unique_ptr<Source>> OpenAvroSource(std::shared_ptr<Buffer> data, std::string name,
                                               const ReadOptions& options);

/// Same over a stream of Avro container bytes (a split's header and blocks); its name() appears
/// in errors.
Result<std::unique_ptr<Source>> OpenAvroSource(std::unique_ptr<InputStream> in, const ReadOptions& options);

}  // namespace recflow::avro
