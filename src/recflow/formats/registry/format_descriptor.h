// FormatDescriptor: one file format as the engine sees it — its words, the content it reads, how it opens a file as
// a Source, where it splits and how it makes an output format — so that no switch above the formats names them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/columnar/schema.h"
#include "recflow/core/compression.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/core/result.h"
#include "recflow/formats/content_sniffer.h"
#include "recflow/formats/output_format.h"
#include "recflow/formats/registry/format_args.h"
#include "recflow/formats/registry/format_splitter.h"
#include "recflow/formats/sniff.h"
#include "recflow/formats/source.h"

namespace recflow::formats {

class FormatDescriptor;

/// What detection found for one input: the format it is read as and what its bytes showed.
struct DetectedFile {
  /// The format the file is read as (never null once detected).
  const FormatDescriptor* format = nullptr;
  Sniffed sniffed;
  /// True for a regular file, which can be opened and read again; false for standard input, a
  /// pipe, a FIFO or a device, which must be read once (their sniffed head is kept for it).
  bool rereadable = false;
};

/// One file of a read: its path and what detection found.
struct FileToRead {
  std::string path;
  DetectedFile detected;
};

/// The reading settings every format draws on (the generic flags and read-step keys), and the
/// format words each format parses for itself (FormatArgs).
struct ReadSettings {
  /// The columns to read (a schema file); null: inferred, or the file's own.
  SchemaPtr schema;
  /// Column types overriding inference; null: none.
  SchemaPtr type_hints;
  /// Leave out bad records, rows or blocks (as SkippedRecords) instead of failing.
  bool skip_bad = false;
  /// Records sampled for schema inference.
  int64_t infer_rows = 10000;
  /// Input bytes per parallel unit of the text formats.
  int64_t block_size = int64_t{1} << 20;
  /// Format words: CSV's "delimiter", "quote", "header", "null_values", "comment"; TFRecord's
  /// "record_type", "max_record_bytes", "compression", "verify_crc", "skip_corrupt".
  FormatArgs args;
  /// Where the files are found and opened (every FileOpener opens through it; "-", standard
  /// input, is always the process's own). Never null. A pipeline's read replaces it with the
  /// file system of whoever opens it (the pipeline's at build time, the run's ExecContext's).
  std::shared_ptr<FileSystem> file_system = LocalFileSystem::Instance();
};

/// A format's read options, parsed once from ReadSettings by its descriptor (or built typed by a
/// caller that knows the format: the fast path, e.g. csv::CsvReadOptionsOf). Immutable.
class FormatReadOptions {
 public:
  /// Files are opened on `file_system` (ReadSettings::file_system; never null).
  explicit FormatReadOptions(std::shared_ptr<FileSystem> file_system) : file_system_(std::move(file_system)) {}
  virtual ~FormatReadOptions() = default;
  /// True when files are read with an inferred schema (none given, none in the file).
  virtual bool infers_schema() const = 0;
  /// The file system the format's FileOpener opens files on.
  const std::shared_ptr<FileSystem>& file_system() const { return file_system_; }

 private:
  std::shared_ptr<FileSystem> file_system_;
};

/// A format's read options held as its own typed struct `T` (csv::ReadOptions, ...): what its
/// descriptor's ParseReadOptions returns and its FileOpener reads back without parsing again.
template <typename T>
class TypedReadOptions final : public FormatReadOptions {
 public:
  /// `infers_schema`: no schema given and none in the files; files are opened on `file_system`.
  TypedReadOptions(T options, bool infers_schema, std::shared_ptr<FileSystem> file_system)
      : FormatReadOptions(std::move(file_system)), options_(std::move(options)), infers_schema_(infers_schema) {}
  bool infers_schema() const override { return infers_schema_; }
  /// The typed options.
  const T& options() const { return options_; }

 private:
  T options_;
  bool infers_schema_;
};

/// Opens the files of one read, one after the other, all of one format; keeps what later files
/// are checked against (the first CSV file's header). One per read; not thread-safe.
class FileOpener {
 public:
  virtual ~FileOpener() = default;
  /// The schema of `files` read together, sampled from each before any is read, for formats
  /// whose files may differ in columns (TFRecord features); nullptr when the first file's schema
  /// is taken. `name` names the files as a whole in errors.
  virtual Result<SchemaPtr> SampleSchema(std::span<const FileToRead> files, const std::string& name) {
    return SchemaPtr();
  }
  /// Opens `file` as a Source; with `schema` (non-null) its rows are read as those columns (a
  /// later file read as the first was).
  virtual Result<std::unique_ptr<Source>> Open(const FileToRead& file, const SchemaPtr& schema) = 0;
};

/// Makes the OutputFormat of a dataset whose rows have `schema`.
using OutputMaker = std::function<Result<std::shared_ptr<const OutputFormat>>(SchemaPtr schema)>;

/// How a dataset is written, in the words --to and a write step use.
struct WriteSettings {
  /// The word that chose the format ("arrow" or "feather" for Arrow IPC streams or files).
  std::string name;
  /// "none", "gzip", "zlib" (the sink compresses each file) or a body codec ("lz4", "zstd").
  std::string compression = "none";
  /// Compression level, -1 = the codec's default.
  int level = -1;
  /// Format words: TFRecord's "record_type" and "decimals", CSV's "delimiter".
  FormatArgs args;
};

/// A write word only one format takes, and its value when not given.
struct OwnWriteKey {
  std::string_view key;
  std::string_view default_value;
};

/// One file format. Descriptors are immutable, registered once (FormatRegistry) and shared by
/// every thread; their calls are per read or per file, never per record.
class FormatDescriptor {
 public:
  virtual ~FormatDescriptor() = default;

  /// The word --from and a read step's `format:` use ("csv").
  virtual std::string_view name() const = 0;
  /// Other input words for it ("json" for jsonl, "feather" for arrow).
  virtual std::span<const std::string_view> aliases() const { return {}; }
  /// The contents Sniff recognises that this format reads (by bytes or by suffix).
  virtual std::span<const ContentKind> contents() const = 0;
  /// The checks that recognise this format by its first bytes (FormatRegistry runs every
  /// registered format's checks in priority order); empty when only its name or --from tells it.
  /// Their claims are of contents(), or kUnknown: the format is then found by the check itself.
  virtual ContentSniffers sniffers() const { return {}; }
  /// The file-name suffixes that tell this format when the bytes do not (".tsv"), each with one
  /// of contents(); a compression suffix after them (.gz) is ignored.
  virtual std::span<const SuffixRule> suffixes() const { return {}; }
  /// True when files carry their own schema (Avro, Arrow): schema hints do not apply.
  virtual bool carries_schema() const { return false; }
  /// False when a gzip or zlib file around the format is refused (Avro and Arrow compress their
  /// own blocks and bodies).
  virtual bool reads_compressed_files() const { return true; }

  /// Parses the format's read options from `settings`; InvalidArgument for a bad value.
  virtual Result<std::shared_ptr<const FormatReadOptions>> ParseReadOptions(const ReadSettings& settings) const = 0;
  /// An opener for one read with `options` (from this descriptor's ParseReadOptions or its
  /// typed fast path).
  virtual std::unique_ptr<FileOpener> NewOpener(std::shared_ptr<const FormatReadOptions> options) const = 0;
  /// Where this format's uncompressed files are cut into splits and how one range of them is
  /// read, with the options of ParseReadOptions; nullptr when the format has no record boundaries
  /// a reader can find: each of its files is then one whole-file split, read by its FileOpener.
  virtual const FormatSplitter* splitter() const { return nullptr; }
  /// The codec `file` is read with under `options` (from this descriptor's ParseReadOptions):
  /// what detection found, unless the format's own words name one (TFRecord's "compression").
  virtual Compression ReadCodec(const FormatReadOptions& options, const DetectedFile& file) const {
    return ReadableCompression(file.sniffed.codec).value_or(Compression::kNone);
  }

  /// The words --to and a write step's `format:` use for this format's output; empty when
  /// recflow does not write it.
  virtual std::span<const std::string_view> output_names() const { return {}; }
  /// True when the format compresses its own bodies: `compression` then names a body codec and
  /// the files are not compressed whole.
  virtual bool compresses_bodies() const { return false; }
  /// Write words that belong to this format alone: another format given one with a value other
  /// than its default is an InvalidArgument error.
  virtual std::span<const OwnWriteKey> own_write_keys() const { return {}; }
  /// The maker of this format's OutputFormat for `settings` (settings.name is one of
  /// output_names()); InvalidArgument for a bad value, and for a format without output.
  virtual Result<OutputMaker> MakeOutput(const WriteSettings& settings) const {
    return Status::InvalidArgument("recflow does not write " + std::string(name()));
  }
};

}  // namespace recflow::formats
