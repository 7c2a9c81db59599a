// RecordReader parsing: the per-record hot path, fault reporting and resynchronisation.
#include "recflow/formats/tfrecord/record_reader.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <new>

#include "recflow/formats/tfrecord/framing.h"
#include "recflow/formats/tfrecord/record_boundary.h"

namespace recflow::tfrecord {

namespace {

/// The smallest free space the stream window keeps for each read.
constexpr int64_t kStreamChunk = int64_t{256} << 10;

std::string Hex32(uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof(text), "0x%08" PRIx32, v);
  return text;
}

}  // namespace

enum class RecordReader::Fault : uint8_t {
  kTruncatedHeader,
  kBadLengthCrc,
  kLengthTooLarge,
  kTruncatedData,
  kBadDataCrc,
};

Status ReaderOptions::Validate() const {
  if (compression > Compression::kZlib) {
    return Status::InvalidArgument("unknown compression code " + std::to_string(static_cast<int>(compression)));
  }
  if (max_record_bytes < 1) {
    return Status::InvalidArgument("max_record_bytes must be at least 1, not " + std::to_string(max_record_bytes));
  }
  if (file_system == nullptr) return Status::InvalidArgument("reader options without a file system");
  return Status::OK();
}

RecordReader::RecordReader(std::string name, Compression compression, const ReaderOptions& options)
    : name_(std::move(name)),
      compression_(compression),
      verify_crc_(options.verify_crc),
      skip_corrupt_(options.skip_corrupt),
      max_record_bytes_(options.max_record_bytes) {}

RecordReader::~RecordReader() = default;

void RecordReader::SetWholeInput(std::shared_ptr<Buffer> data) {
  whole_ = std::move(data);
  data_ = whole_->data();
  size_ = whole_->size();
  at_end_ = true;
}

void RecordReader::SetStreamInput(std::unique_ptr<InputStream> in, std::span<const uint8_t> head) {
  stream_ = std::move(in);
  window_capacity_ = std::max<int64_t>(kStreamChunk, static_cast<int64_t>(head.size()));
  window_ = std::unique_ptr<uint8_t[]>(new uint8_t[static_cast<size_t>(window_capacity_)]);
  if (!head.empty()) std::memcpy(window_.get(), head.data(), head.size());
  data_ = window_.get();
  size_ = static_cast<int64_t>(head.size());
  at_end_ = false;
}

Result<bool> RecordReader::Next(std::string_view* record) {
  if (!error_.ok()) [[unlikely]] return error_;
  for (;;) {
    if (pos_ >= limit_) [[unlikely]] return AtLimit();
    const int64_t avail = size_ - pos_;
    if (avail < kHeaderSize) [[unlikely]] {
      if (!at_end_) {
        RETURN_NOT_OK(Refill(kHeaderSize));
        continue;
      }
      if (avail == 0) return false;
      RETURN_NOT_OK(OnFault(Fault::kTruncatedHeader, 0));
      continue;
    }
    const uint8_t* header = data_ + pos_;
    const uint64_t length = LoadLittleEndian64(header);
    if (!HeaderCrcMatches(header)) [[unlikely]] {
      RETURN_NOT_OK(OnFault(Fault::kBadLengthCrc, length));
      continue;
    }
    if (length > kMaxRecordLength) [[unlikely]] {
      RETURN_NOT_OK(OnFault(Fault::kLengthTooLarge, length));
      continue;
    }
    if (length > static_cast<uint64_t>(max_record_bytes_)) [[unlikely]] return OverCap(length);
    const int64_t total = kFramingOverhead + static_cast<int64_t>(length);
    if (total > avail) [[unlikely]] {
      if (!at_end_) {
        RETURN_NOT_OK(Refill(total));
        continue;
      }
      RETURN_NOT_OK(OnFault(Fault::kTruncatedData, length));
      continue;
    }
    const uint8_t* payload = header + kHeaderSize;
    if (verify_crc_ && MaskedCrc32c(payload, length) != LoadLittleEndian32(payload + length)) [[unlikely]] {
      RETURN_NOT_OK(OnFault(Fault::kBadDataCrc, length));
      continue;
    }
    record_offset_ = window_origin_ + pos_;
    pos_ += total;
    ++records_returned_;
    *record = std::string_view(reinterpret_cast<const char*>(payload), static_cast<size_t>(length));
    return true;
  }
}

[[gnu::cold, gnu::noinline]] Result<bool> RecordReader::AtLimit() {
  if (pos_ >= size_ || skip_corrupt_) return false;
  const uint8_t* header = data_ + pos_;
  const int64_t avail = size_ - pos_;
  int64_t total = 0;
  const RecordCheck check = CheckRecordAt(header, avail, static_cast<uint64_t>(max_record_bytes_), true, &total);
  if (check == RecordCheck::kWhole) return false;
  const uint64_t length = avail < kHeaderSize ? 0 : LoadLittleEndian64(header);
  Fault fault = Fault::kBadDataCrc;
  if (avail < kHeaderSize) {
    fault = Fault::kTruncatedHeader;
  } else if (!HeaderCrcMatches(header)) {
    fault = Fault::kBadLengthCrc;
  } else if (length > std::min(kMaxRecordLength, static_cast<uint64_t>(max_record_bytes_))) {
    fault = Fault::kLengthTooLarge;
  } else if (check == RecordCheck::kNeedMore) {
    fault = Fault::kTruncatedData;
  }
  error_ = FaultStatus(fault, length).WithNote(" (where the range's last record ends, past its end)");
  return error_;
}

Status RecordReader::FaultStatus(Fault fault, uint64_t length) const {
  const int64_t avail = size_ - pos_;
  const uint8_t* header = data_ + pos_;
  std::string message;
  switch (fault) {
    case Fault::kTruncatedHeader:
      message = "truncated header: the input ends " + std::to_string(avail) + " bytes into a " +
                std::to_string(kHeaderSize) + "-byte record header";
      break;
    case Fault::kBadLengthCrc:
      message = "bad length CRC: stored " + Hex32(LoadLittleEndian32(header + kLengthSize)) + ", computed " +
                Hex32(MaskedCrc32c(header, kLengthSize)) + " over the length bytes";
      break;
    case Fault::kLengthTooLarge:
      message = "record length " + std::to_string(length) + " is larger than the maximum of " +
                std::to_string(kMaxRecordLength) + " bytes";
      break;
    case Fault::kTruncatedData:
      message = "truncated data: record length " + std::to_string(length) +
                " (plus a 4-byte CRC) is larger than the rest of the input, " +
                std::to_string(avail - kHeaderSize) + " bytes after the header";
      break;
    case Fault::kBadDataCrc: {
      const uint8_t* payload = header + kHeaderSize;
      message = "bad data CRC: stored " + Hex32(LoadLittleEndian32(payload + length)) + ", computed " +
                Hex32(MaskedCrc32c(payload, length)) + " over the record's " + std::to_string(length) + " bytes";
      break;
    }
  }
  return Status::DataError(std::move(message))
      .WithFile(name_)
      .WithRecord(records_returned_)
      .WithOffset(window_origin_ + pos_);
}

Status RecordReader::WithFirstFault(const Status& st, const Status& current) const {
  if (st.code() != StatusCode::kDataError) return st;
  const Status& first = problems_.empty() ? current : problems_.front();
  if (first.ok()) return st;
  // Damage in a compressed stream inflates into garbage records before the decompressor
  // notices: the first of them says where the damage is.
  return st.WithNote(" (the first fault, where reading went wrong: " + first.ToString() + ")");
}

Status RecordReader::OverCap(uint64_t length) {
  error_ = Status::DataError("record of " + std::to_string(length) + " bytes is larger than the reader's limit of " +
                             std::to_string(max_record_bytes_) +
                             " bytes (max_record_bytes; --max-record-bytes raises it)")
               .WithFile(name_)
               .WithRecord(records_returned_)
               .WithOffset(window_origin_ + pos_);
  return error_;
}

Status RecordReader::OnFault(Fault fault, uint64_t length) {
  Status fault_status = FaultStatus(fault, length);
  if (!skip_corrupt_) {
    error_ = fault_status;
    return fault_status;
  }
  const int64_t start = window_origin_ + pos_;
  if (Status st = Resync(); !st.ok()) {
    error_ = WithFirstFault(st, fault_status);
    return error_;
  }
  const int64_t skipped = window_origin_ + pos_ - start;
  ++corrupt_records_;
  skipped_bytes_ += skipped;
  if (problems_.size() < kMaxKeptProblems) {
    const ErrorContext& where = fault_status.context();
    problems_.push_back(Status::DataError(fault_status.message() + "; skipped " + std::to_string(skipped) + " bytes")
                            .WithFile(where.file)
                            .WithRecord(where.record)
                            .WithOffset(where.offset));
  }
  return Status::OK();
}

Status RecordReader::Resync() {
  ++pos_;
  for (;;) {
    const int64_t avail = size_ - pos_;
    int64_t total = 0;
    switch (CheckRecordAt(data_ + pos_, avail, static_cast<uint64_t>(max_record_bytes_), verify_crc_, &total)) {
      case RecordCheck::kWhole:
        return Status::OK();
      case RecordCheck::kNeedMore:
        if (!at_end_) {
          RETURN_NOT_OK(Refill(total));
          continue;
        }
        if (avail < kHeaderSize) {
          pos_ = size_;
          return Status::OK();
        }
        break;
      case RecordCheck::kNotARecord:
        break;
    }
    ++pos_;
  }
}

Status RecordReader::Refill(int64_t need) {
  if (pos_ > 0) {  // drop the consumed bytes so the window holds at most one record plus a chunk
    const int64_t keep = size_ - pos_;
    if (keep > 0) std::memmove(window_.get(), window_.get() + pos_, static_cast<size_t>(keep));
    window_origin_ += pos_;
    size_ = keep;
    pos_ = 0;
  }
  while (size_ < need) {
    if (window_capacity_ - size_ < kStreamChunk) {  // grow only as bytes actually arrive
      const int64_t capacity = std::max(window_capacity_ + window_capacity_ / 2, size_ + kStreamChunk);
      std::unique_ptr<uint8_t[]> grown(new (std::nothrow) uint8_t[static_cast<size_t>(capacity)]);
      if (grown == nullptr) {
        error_ = Status::OutOfMemory("cannot grow the record window to " + std::to_string(capacity) + " bytes")
                     .WithFile(name_)
                     .WithRecord(records_returned_)
                     .WithOffset(window_origin_);
        return error_;
      }
      if (size_ > 0) std::memcpy(grown.get(), window_.get(), static_cast<size_t>(size_));
      window_ = std::move(grown);
      window_capacity_ = capacity;
      data_ = window_.get();
    }
    Result<int64_t> got = stream_->Read(window_.get() + size_, window_capacity_ - size_);
    if (!got.ok()) {
      error_ = WithFirstFault(got.status().WithFile(name_).WithRecord(records_returned_).WithOffset(window_origin_ + size_),
                              Status::OK());
      return error_;
    }
    if (*got == 0) {
      at_end_ = true;
      break;
    }
    size_ += *got;
  }
  return Status::OK();
}

}  // namespace recflow::tfrecord
