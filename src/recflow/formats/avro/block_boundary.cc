// ReadContainerLayout and BlockStartAtOrAfter: the header parsed once, sync markers searched in place.
#include "recflow/formats/avro/block_boundary.h"

#include <algorithm>
#include <string_view>

#include "recflow/formats/avro/container_reader_internal.h"

namespace recflow::avro {

Result<ContainerLayout> ReadContainerLayout(const std::shared_ptr<Buffer>& data, const std::string& name) {
  ASSIGN_OR_RETURN(auto reader,
                   ContainerReader::Open(std::make_unique<BufferInputStream>(data, name), int64_t{1} << 30));
  return ContainerLayout{reader->header().size, reader->header().sync};
}

int64_t BlockStartAtOrAfter(const Buffer& data, const ContainerLayout& layout, int64_t at) {
  if (at <= layout.header_size) return std::min(layout.header_size, data.size());
  const std::string_view bytes = data.view();
  const std::string_view marker(reinterpret_cast<const char*>(layout.sync.data()), layout.sync.size());
  const auto from = static_cast<size_t>(std::min<int64_t>(at - kSyncSize, data.size()));
  const size_t found = bytes.find(marker, from);
  if (found == std::string_view::npos) return data.size();
  return static_cast<int64_t>(found) + kSyncSize;
}

}  // namespace recflow::avro
