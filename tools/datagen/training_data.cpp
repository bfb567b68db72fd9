#include "tools/datagen/training_data.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/printable_text.h"

namespace gobblet::datagen {
namespace {

// Little-endian numbers in a byte buffer.
template <typename T>
void put(uint8_t* at, T value) {
  using U = std::make_unsigned_t<T>;
  const U u = static_cast<U>(value);
  for (size_t i = 0; i < sizeof(T); ++i) at[i] = static_cast<uint8_t>(u >> (8 * i));
}
template <typename T>
T get(const uint8_t* at) {
  using U = std::make_unsigned_t<T>;
  U u = 0;
  for (size_t i = 0; i < sizeof(T); ++i) u = static_cast<U>(u | static_cast<U>(at[i]) << (8 * i));
  return static_cast<T>(u);
}

constexpr size_t kVariantNameBytes = 24;

std::string errnoText() { return std::strerror(errno); }

// The first setting in which `file` differs from `wanted`, as "--name FILE's vs WANTED"; empty if none.
std::string firstDifference(const DataSettings& file, const DataSettings& wanted) {
  auto differs = [](const char* name, const auto& a, const auto& b) {
    return absl::StrCat(name, " ", a, " in the file, ", b, " asked");
  };
  if (file.variant != wanted.variant) return differs("--variant", file.variant.name(), wanted.variant.name());
  if (file.seed != wanted.seed) return differs("--seed", file.seed, wanted.seed);
  if (file.nodes != wanted.nodes) return differs("--nodes", file.nodes, wanted.nodes);
  if (file.depth != wanted.depth) return differs("--depth", file.depth, wanted.depth);
  if (file.randomPlies != wanted.randomPlies) return differs("--random-plies", file.randomPlies, wanted.randomPlies);
  if (file.plyLimit != wanted.plyLimit) return differs("--ply-limit", file.plyLimit, wanted.plyLimit);
  if (file.hashMiB != wanted.hashMiB) return differs("--hash", file.hashMiB, wanted.hashMiB);
  if (file.net != wanted.net) {
    auto evaluation = [](uint64_t net) {
      return net == 0 ? std::string("the hand-written evaluation") : absl::StrFormat("the net %016x", net);
    };
    return absl::StrCat("--net: ", evaluation(file.net), " in the file, ", evaluation(wanted.net), " asked");
  }
  return "";
}

}  // namespace

void setPosition(PositionRecord& record, const Board& board) {
  for (int p = 0; p < 2; ++p)
    for (int s = 0; s < kMaxSizes; ++s) record.pieces[p][s] = s < board.variant().sizes ? board.pieces(p, s) : 0;
  record.sideToMove = static_cast<uint8_t>(board.sideToMove());
}

absl::StatusOr<Board> positionOf(const PositionRecord& record, const Variant& variant) {
  if (record.sideToMove > 1) return absl::InvalidArgumentError(absl::StrCat("side to move ", record.sideToMove));
  const uint32_t onBoard = (1u << variant.squares()) - 1;
  Board board(variant);
  board.clear();
  for (int s = 0; s < kMaxSizes; ++s) {
    if (record.pieces[0][s] & record.pieces[1][s])
      return absl::InvalidArgumentError(absl::StrCat("two pieces of size ", s, " on one square"));
    for (int p = 0; p < 2; ++p) {
      const uint32_t mask = record.pieces[p][s];
      if (mask == 0) continue;
      if (s >= variant.sizes || (mask & ~onBoard))
        return absl::InvalidArgumentError(
            absl::StrCat("a piece of size ", s, " the ", variant.name(), " board cannot hold"));
      for (int sq = 0; sq < variant.squares(); ++sq)
        if (mask & (1u << sq)) board.addPiece(p, s, sq);
    }
  }
  board.setSideToMove(record.sideToMove);
  if (!board.countsValid())
    return absl::InvalidArgumentError(absl::StrCat("more pieces than ", variant.name(), " gives a player"));
  return board;
}

std::array<uint8_t, kHeaderSize> encodeHeader(const DataHeader& header) {
  std::array<uint8_t, kHeaderSize> b{};
  std::memcpy(b.data(), kTrainingDataMagic, 8);
  put<uint32_t>(&b[8], kTrainingDataVersion);
  put<uint32_t>(&b[12], kHeaderSize);
  put<uint32_t>(&b[16], kRecordSize);
  const std::string name = header.settings.variant.name();
  std::memcpy(&b[24], name.data(), std::min(name.size(), kVariantNameBytes - 1));
  put<uint64_t>(&b[48], header.gamesFinished);
  const DataSettings& s = header.settings;
  put<uint64_t>(&b[56], s.seed);
  put<uint32_t>(&b[64], s.nodes);
  put<uint32_t>(&b[68], s.depth);
  put<uint32_t>(&b[72], s.randomPlies);
  put<uint32_t>(&b[76], s.plyLimit);
  put<uint32_t>(&b[80], s.hashMiB);
  put<uint64_t>(&b[84], s.net);
  return b;
}

absl::StatusOr<DataHeader> decodeHeader(const uint8_t* b, size_t size) {
  if (size < kHeaderSize || std::memcmp(b, kTrainingDataMagic, 8) != 0)
    return absl::InvalidArgumentError("not a gobblet training data file (no GOBDATA header)");
  const uint32_t version = get<uint32_t>(b + 8);
  if (version != kTrainingDataVersion)
    return absl::InvalidArgumentError(
        absl::StrCat("training data format version ", version, "; this program reads version ", kTrainingDataVersion));
  if (get<uint32_t>(b + 12) != kHeaderSize || get<uint32_t>(b + 16) != kRecordSize)
    return absl::InvalidArgumentError(absl::StrCat("header size ", get<uint32_t>(b + 12), " and record size ",
                                                   get<uint32_t>(b + 16), "; version ", kTrainingDataVersion, " has ",
                                                   kHeaderSize, " and ", kRecordSize));
  const char* nameStart = reinterpret_cast<const char*>(b + 24);
  const size_t nameLength = strnlen(nameStart, kVariantNameBytes);
  if (nameLength == kVariantNameBytes) return absl::InvalidArgumentError("the variant name is not terminated");
  auto variant = Variant::parse(std::string_view(nameStart, nameLength));
  if (!variant.ok()) return absl::InvalidArgumentError(absl::StrCat("the variant: ", variant.status().message()));
  DataHeader h;
  h.settings.variant = *variant;
  h.gamesFinished = get<uint64_t>(b + 48);
  h.settings.seed = get<uint64_t>(b + 56);
  h.settings.nodes = get<uint32_t>(b + 64);
  h.settings.depth = get<uint32_t>(b + 68);
  h.settings.randomPlies = get<uint32_t>(b + 72);
  h.settings.plyLimit = get<uint32_t>(b + 76);
  h.settings.hashMiB = get<uint32_t>(b + 80);
  h.settings.net = get<uint64_t>(b + 84);
  return h;
}

std::array<uint8_t, kRecordSize> encodeRecord(const PositionRecord& r) {
  std::array<uint8_t, kRecordSize> b{};
  for (int p = 0; p < 2; ++p)
    for (int s = 0; s < 4; ++s) put<uint16_t>(&b[2 * (4 * p + s)], r.pieces[p][s]);
  put<int16_t>(&b[16], r.score);
  b[18] = r.sideToMove;
  put<int8_t>(&b[19], r.result);
  b[20] = r.depth;
  b[21] = r.flags;
  put<uint16_t>(&b[22], r.ply);
  put<uint32_t>(&b[24], r.game);
  put<uint16_t>(&b[28], r.bestMove);
  return b;
}

PositionRecord decodeRecord(const uint8_t* b) {
  PositionRecord r;
  for (int p = 0; p < 2; ++p)
    for (int s = 0; s < 4; ++s) r.pieces[p][s] = get<uint16_t>(b + 2 * (4 * p + s));
  r.score = get<int16_t>(b + 16);
  r.sideToMove = b[18];
  r.result = get<int8_t>(b + 19);
  r.depth = b[20];
  r.flags = b[21];
  r.ply = get<uint16_t>(b + 22);
  r.game = get<uint32_t>(b + 24);
  r.bestMove = get<uint16_t>(b + 28);
  return r;
}

namespace {

// What a file holds, as far as it is whole.
struct FileContents {
  DataHeader header;
  uint64_t bytes = kHeaderSize;  // where its finished games end
  // Not OK: the first record refused (InvalidArgument, naming the file and
  // the record); the rest is what the records before it hold.
  absl::Status damage;
  // The games wholly before the record refused: games 0 .. wholeGames - 1
  // (at most the header's count), in the first wholeBytes bytes, with
  // wholeRecords records.
  uint64_t wholeGames = 0, wholeBytes = kHeaderSize, wholeRecords = 0;
};

// Reads the header and the records of `file` (at its start): the records
// of finished games into `records` (if not null) and their keys into
// `keys` (if not null). Fails (naming the file by `name`) on a header it
// does not know or a read error; a record refused is the contents' damage.
absl::StatusOr<FileContents> readFile(std::FILE* file, const std::string& name, std::vector<PositionRecord>* records,
                                      std::vector<uint64_t>* keys, uint64_t* unfinished) {
  auto refuse = [&name](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(quoteWord(name), ": ", why));
  };
  uint8_t head[kHeaderSize];
  const size_t got = std::fread(head, 1, kHeaderSize, file);
  auto header = decodeHeader(head, got);
  if (!header.ok()) return refuse(header.status().message());
  FileContents contents;
  contents.header = *header;
  const uint64_t finished = header->gamesFinished;
  uint8_t rec[kRecordSize];
  uint64_t index = 0, kept = 0;
  uint32_t lastGame = 0;
  for (;; ++index) {
    const size_t n = std::fread(rec, 1, kRecordSize, file);
    if (n == 0) break;
    if (n < kRecordSize) {
      // A run stopped inside a record of an unfinished game: not part of the file.
      if (unfinished) ++*unfinished;
      break;
    }
    const PositionRecord r = decodeRecord(rec);
    if (r.game < lastGame) {
      contents.damage = refuse(absl::StrCat("record ", index, ": game ", r.game, " after game ", lastGame));
      break;
    }
    if (r.game > lastGame) {
      // Every game before this one ended before this record.
      contents.wholeGames = std::min<uint64_t>(r.game, finished);
      contents.wholeBytes = contents.bytes;
      contents.wholeRecords = kept;
    }
    lastGame = r.game;
    if (r.game >= finished) {
      if (unfinished) ++*unfinished;
      continue;
    }
    auto board = positionOf(r, header->settings.variant);
    if (!board.ok()) {
      contents.damage = refuse(absl::StrCat("record ", index, ": ", board.status().message()));
      break;
    }
    if (r.result < -1 || r.result > 1) {
      contents.damage = refuse(absl::StrCat("record ", index, ": result ", r.result));
      break;
    }
    contents.bytes += kRecordSize;
    ++kept;
    if (records) records->push_back(r);
    if (keys) keys->push_back(board->key());
  }
  if (std::ferror(file)) return refuse(absl::StrCat("cannot be read: ", errnoText()));
  return contents;
}

// Holds `file`'s lock (flock), or says why not: the lock of a writer
// (TrainingDataWriter), released when its file is closed.
absl::Status lockForWriting(std::FILE* file, const std::string& path) {
  if (flock(fileno(file), LOCK_EX | LOCK_NB) == 0) return absl::OkStatus();
  if (errno == EWOULDBLOCK)
    return absl::FailedPreconditionError(
        absl::StrCat(quoteWord(path),
                     " is being written by another run (it holds the file's lock): two runs writing one file would "
                     "break it; wait for that run to end, or write another file"));
  return absl::FailedPreconditionError(absl::StrCat(quoteWord(path), ": cannot lock it: ", errnoText()));
}

}  // namespace

absl::StatusOr<TrainingData> readTrainingData(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return absl::NotFoundError(absl::StrCat(quoteWord(path), ": ", errnoText()));
  TrainingData data;
  auto read = readFile(file, path, &data.records, nullptr, &data.unfinishedRecords);
  std::fclose(file);
  if (!read.ok()) return read.status();
  if (!read->damage.ok()) return read->damage;
  data.header = read->header;
  return data;
}

absl::StatusOr<TrainingDataWriter> TrainingDataWriter::open(const std::string& path, const DataSettings& settings,
                                                            OnDamage onDamage) {
  TrainingDataWriter w;
  w.path_ = path;
  w.header_.settings = settings;
  // Opened without truncating, and locked before it is read or written:
  // a run that finds the file held leaves it as it is.
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) return absl::FailedPreconditionError(absl::StrCat(quoteWord(path), ": ", errnoText()));
  w.file_ = fdopen(fd, "r+b");
  if (!w.file_) {
    ::close(fd);
    return absl::FailedPreconditionError(absl::StrCat(quoteWord(path), ": ", errnoText()));
  }
  if (absl::Status locked = lockForWriting(w.file_, path); !locked.ok()) return locked;
  struct stat status;
  if (fstat(fd, &status) != 0) return absl::FailedPreconditionError(absl::StrCat(quoteWord(path), ": ", errnoText()));
  if (status.st_size > 0) {
    auto read = readFile(w.file_, path, nullptr, &w.existingKeys_, nullptr);
    if (!read.ok()) return read.status();
    const std::string difference = firstDifference(read->header.settings, settings);
    if (!difference.empty())
      return absl::InvalidArgumentError(
          absl::StrCat(quoteWord(path), " was made with other settings (", difference,
                       "): go on with the settings it was made with, or write another file"));
    w.header_ = read->header;
    uint64_t end = read->bytes;
    if (!read->damage.ok()) {
      if (onDamage == OnDamage::kRefuse)
        return absl::InvalidArgumentError(absl::StrCat(read->damage.message(), "; the ", read->wholeGames,
                                                       " games before it are whole: the same command with ",
                                                       "--repair cuts the file to them and goes on"));
      w.repaired_ = absl::StrCat(read->damage.message(), "; cut to the ", read->wholeGames, " games before it (",
                                 read->wholeRecords, " positions)");
      w.header_.gamesFinished = read->wholeGames;
      w.existingKeys_.resize(read->wholeRecords);
      end = read->wholeBytes;
    }
    w.gamesFinished_ = w.header_.gamesFinished;
    w.records_ = w.existingKeys_.size();
    // When repairing, the header counts the games kept; then the records of
    // the game the last run left unfinished, or from the damaged game on,
    // are cut (in this order, a run stopped between the two leaves the
    // games kept counted, with more records after them: --repair again).
    auto failed = [&path] { return absl::InternalError(absl::StrCat(quoteWord(path), ": ", errnoText())); };
    if (!w.repaired_.empty()) {
      const auto head = encodeHeader(w.header_);
      if (std::fseek(w.file_, 0, SEEK_SET) != 0 || std::fwrite(head.data(), 1, head.size(), w.file_) != head.size())
        return failed();
    }
    if (std::fflush(w.file_) != 0 || ftruncate(fd, static_cast<off_t>(end)) != 0 ||
        std::fseek(w.file_, 0, SEEK_END) != 0)
      return failed();
    return w;
  }
  const auto head = encodeHeader(w.header_);
  if (std::fwrite(head.data(), 1, head.size(), w.file_) != head.size() || std::fflush(w.file_) != 0)
    return absl::ResourceExhaustedError(absl::StrCat(quoteWord(path), ": ", errnoText()));
  return w;
}

TrainingDataWriter::TrainingDataWriter(TrainingDataWriter&& other) noexcept { *this = std::move(other); }

TrainingDataWriter& TrainingDataWriter::operator=(TrainingDataWriter&& other) noexcept {
  if (this != &other) {
    if (file_) std::fclose(file_);
    file_ = std::exchange(other.file_, nullptr);
    path_ = std::move(other.path_);
    header_ = other.header_;
    gamesFinished_ = other.gamesFinished_;
    records_ = other.records_;
    existingKeys_ = std::move(other.existingKeys_);
    repaired_ = std::move(other.repaired_);
  }
  return *this;
}

TrainingDataWriter::~TrainingDataWriter() {
  if (file_) std::fclose(file_);
}

absl::Status TrainingDataWriter::appendGame(const std::vector<PositionRecord>& records) {
  auto failed = [this](absl::string_view doing) {
    return absl::ResourceExhaustedError(absl::StrCat(quoteWord(path_), ": ", doing, ": ", errnoText()));
  };
  if (std::fseek(file_, 0, SEEK_END) != 0) return failed("seeking its end");
  for (const PositionRecord& r : records) {
    const auto bytes = encodeRecord(r);
    if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) return failed("writing a position");
  }
  // The records first, then the count that makes them part of the file.
  if (std::fflush(file_) != 0) return failed("writing a game's positions");
  header_.gamesFinished = gamesFinished_ + 1;
  const auto head = encodeHeader(header_);
  if (std::fseek(file_, 0, SEEK_SET) != 0 || std::fwrite(head.data(), 1, head.size(), file_) != head.size() ||
      std::fflush(file_) != 0) {
    header_.gamesFinished = gamesFinished_;
    return failed("counting a finished game");
  }
  ++gamesFinished_;
  records_ += records.size();
  return absl::OkStatus();
}

}  // namespace gobblet::datagen
