// Fuzz target: ack subjects and pull status lines from hostile bytes (the first line the subject, the rest the status).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "recflow/connectors/nats/pull_protocol.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const size_t newline = text.find('\n');
  const std::string_view subject = text.substr(0, newline);
  const std::string_view rest = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
  (void)recflow::nats::ParseAckSubject(subject);
  (void)recflow::nats::ParsePullStatus(rest.substr(0, 3), rest.size() > 4 ? rest.substr(4) : std::string_view());
  return 0;
}
