// Making and parsing Beam-style and Spark-style shard file names.
#include "recflow/dataset/shard_naming.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <random>
#include <system_error>

#include "recflow/dataset/partition_path.h"

namespace recflow::dataset {

namespace {

constexpr size_t kUuidLength = 36;
constexpr size_t kMinIndexDigits = 5;
constexpr size_t kMinCounterDigits = 3;
constexpr std::string_view kBeamSeparator = "-of-";

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsLowerHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f'); }
bool IsHex(char c) { return IsLowerHex(c) || (c >= 'A' && c <= 'F'); }
bool IsDash(size_t i) { return i == 8 || i == 13 || i == 18 || i == 23; }

/// True when `text` has the 8-4-4-4-12 shape with hex digits accepted by `is_hex`.
template <typename Pred>
bool HasUuidShape(std::string_view text, Pred is_hex) {
  if (text.size() != kUuidLength) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (IsDash(i) ? text[i] != '-' : !is_hex(text[i])) return false;
  }
  return true;
}

/// `value` in decimal, left-padded with zeros to `width`.
std::string ZeroPadded(int64_t value, size_t width) {
  std::string digits = std::to_string(value);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return digits;
}

/// Length of the run of digits ending just before `end`.
size_t DigitsBefore(std::string_view s, size_t end) {
  size_t n = 0;
  while (n < end && IsDigit(s[end - n - 1])) ++n;
  return n;
}

/// Length of the run of digits starting at `begin`.
size_t DigitsFrom(std::string_view s, size_t begin) {
  size_t n = 0;
  while (begin + n < s.size() && IsDigit(s[begin + n])) ++n;
  return n;
}

std::optional<int64_t> ToInt64(std::string_view digits) {
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

bool IsSuffix(std::string_view rest) { return rest.empty() || rest[0] == '.'; }

/// The prefix and index of `PREFIX-<index>` ending at `end`, or std::nullopt.
std::optional<std::pair<std::string_view, int64_t>> PrefixAndIndex(std::string_view name, size_t end) {
  const size_t digits = DigitsBefore(name, end);
  if (digits < kMinIndexDigits || end - digits < 2 || name[end - digits - 1] != '-') return std::nullopt;
  std::optional<int64_t> index = ToInt64(name.substr(end - digits, digits));
  if (!index.has_value()) return std::nullopt;
  return std::make_pair(name.substr(0, end - digits - 1), *index);
}

std::optional<ParsedShardName> ParseBeam(std::string_view name) {
  for (size_t p = name.rfind(kBeamSeparator); p != std::string_view::npos;
       p = p == 0 ? std::string_view::npos : name.rfind(kBeamSeparator, p - 1)) {
    const size_t count_begin = p + kBeamSeparator.size();
    const size_t count_digits = DigitsFrom(name, count_begin);
    if (count_digits < kMinIndexDigits || !IsSuffix(name.substr(count_begin + count_digits))) continue;
    const auto prefix_index = PrefixAndIndex(name, p);
    const std::optional<int64_t> count = ToInt64(name.substr(count_begin, count_digits));
    if (!prefix_index.has_value() || !count.has_value() || prefix_index->second >= *count) continue;
    ParsedShardName parsed;
    parsed.naming = ShardNaming::kBeam;
    parsed.prefix = std::string(prefix_index->first);
    parsed.index = prefix_index->second;
    parsed.num_shards = *count;
    parsed.suffix = std::string(name.substr(count_begin + count_digits));
    return parsed;
  }
  return std::nullopt;
}

std::optional<ParsedShardName> ParseSpark(std::string_view name) {
  for (size_t p = name.rfind('-'); p != std::string_view::npos;
       p = p == 0 ? std::string_view::npos : name.rfind('-', p - 1)) {
    const size_t uuid_begin = p + 1;
    const size_t counter_begin = uuid_begin + kUuidLength + 2;  // after "<uuid>-c"
    if (counter_begin > name.size() || !HasUuidShape(name.substr(uuid_begin, kUuidLength), IsHex) ||
        name.substr(uuid_begin + kUuidLength, 2) != "-c") {
      continue;
    }
    const size_t counter_digits = DigitsFrom(name, counter_begin);
    if (counter_digits < kMinCounterDigits || !IsSuffix(name.substr(counter_begin + counter_digits))) continue;
    const auto prefix_index = PrefixAndIndex(name, p);
    const std::optional<int64_t> counter = ToInt64(name.substr(counter_begin, counter_digits));
    if (!prefix_index.has_value() || !counter.has_value()) continue;
    ParsedShardName parsed;
    parsed.naming = ShardNaming::kSpark;
    parsed.prefix = std::string(prefix_index->first);
    parsed.index = prefix_index->second;
    parsed.job_uuid = std::string(name.substr(uuid_begin, kUuidLength));
    parsed.file_counter = *counter;
    parsed.suffix = std::string(name.substr(counter_begin + counter_digits));
    return parsed;
  }
  return std::nullopt;
}

}  // namespace

std::string NewRandomUuid() {
  std::random_device device;
  std::array<uint8_t, 16> bytes{};
  for (size_t i = 0; i < bytes.size(); i += 4) {
    const uint32_t word = device();
    for (size_t b = 0; b < 4; ++b) bytes[i + b] = static_cast<uint8_t>(word >> (8 * b));
  }
  bytes[6] = static_cast<uint8_t>((bytes[6] & 0x0F) | 0x40);  // version 4
  bytes[8] = static_cast<uint8_t>((bytes[8] & 0x3F) | 0x80);  // RFC 4122 variant
  constexpr char kHex[] = "0123456789abcdef";
  std::string uuid;
  uuid.reserve(kUuidLength);
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) uuid.push_back('-');
    uuid.push_back(kHex[bytes[i] >> 4]);
    uuid.push_back(kHex[bytes[i] & 0xF]);
  }
  return uuid;
}

bool IsCanonicalUuid(std::string_view text) { return HasUuidShape(text, IsLowerHex); }

ShardNamer ShardNamer::Defaults() {
  ShardNamer namer;
  namer.job_uuid = NewRandomUuid();
  return namer;
}

Status ShardNamer::Validate() const {
  if (prefix.empty()) return Status::InvalidArgument("shard name prefix is empty");
  for (const std::string* part : {&prefix, &suffix}) {
    if (part->find('/') != std::string::npos || part->find('\0') != std::string::npos) {
      return Status::InvalidArgument("shard name prefix and suffix must not contain '/' or NUL: '" +
                                     EscapePathName(*part) + "'");
    }
  }
  if (num_shards < 1)
    return Status::InvalidArgument("shard count must be at least 1, got " + std::to_string(num_shards));
  if (naming == ShardNaming::kSpark && !IsCanonicalUuid(job_uuid)) {
    return Status::InvalidArgument("Spark shard naming needs a lowercase canonical job UUID, got '" +
                                   EscapePathName(job_uuid) + "'");
  }
  return Status::OK();
}

Result<std::string> ShardNamer::Name(int64_t index) const {
  RETURN_NOT_OK(Validate());
  if (index < 0 || index >= num_shards) {
    return Status::InvalidArgument("shard index " + std::to_string(index) + " is outside [0, " +
                                   std::to_string(num_shards) + ")");
  }
  std::string name = prefix + "-";
  if (naming == ShardNaming::kBeam) {
    const size_t width = std::max(kMinIndexDigits, std::to_string(num_shards).size());
    name += ZeroPadded(index, width) + std::string(kBeamSeparator) + ZeroPadded(num_shards, width);
  } else {
    name += ZeroPadded(index, kMinIndexDigits) + "-" + job_uuid + "-c" + ZeroPadded(0, kMinCounterDigits);
  }
  name += suffix;
  if (name.size() > kMaxPathComponentBytes) {
    return Status::InvalidArgument("shard file name is " + std::to_string(name.size()) + " bytes, longer than the " +
                                   std::to_string(kMaxPathComponentBytes) + "-byte limit: " + name.substr(0, 64) +
                                   "...");
  }
  return name;
}

Result<ParsedShardName> ParseShardName(std::string_view file_name) {
  if (std::optional<ParsedShardName> beam = ParseBeam(file_name)) return std::move(*beam);
  if (std::optional<ParsedShardName> spark = ParseSpark(file_name)) return std::move(*spark);
  return Status::DataError(
      std::string("'").append(EscapePathName(file_name)) +
      "' is neither a Beam (PREFIX-SSSSS-of-NNNNN) nor a Spark (part-SSSSS-<uuid>-c000) shard name");
}

}  // namespace recflow::dataset
