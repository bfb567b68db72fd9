#include "proof/grow.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/canonical.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/printable_text.h"
#include "file_bytes.h"
#include "proof/store_proof.h"

namespace gobblet::proof {

namespace {

constexpr const char* kMagicLine = "gobblet-grow-frontier 1";
constexpr size_t kMaxLineBytes = 4096;

int piecesOnBoard(const Board& board) {
  int n = 0;
  for (int player = 0; player < 2; ++player)
    for (int size = 0; size < board.variant().sizes; ++size) n += board.placed(player, size);
  return n;
}

std::string hex16(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

// Writes `bytes` to `path` through path.tmp, synced and renamed.
absl::Status writeAtomically(const std::string& path, const std::string& bytes) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return absl::UnavailableError(absl::StrCat("cannot write ", tmp, ": ", std::strerror(errno)));
  size_t done = 0;
  int error = 0;
  while (done < bytes.size()) {
    const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      error = w == 0 ? EIO : errno;
      break;
    }
    done += static_cast<size_t>(w);
  }
  if (error == 0 && fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && std::rename(tmp.c_str(), path.c_str()) != 0) error = errno;
  if (error != 0) {
    std::remove(tmp.c_str());
    return absl::UnavailableError(absl::StrCat("cannot write ", path, ": ", std::strerror(error)));
  }
  // The rename itself made durable: the folder synced (best effort).
  const size_t slash = path.rfind('/');
  const std::string folder = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  if (const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
    (void)fsync(dir);
    ::close(dir);
  }
  return absl::OkStatus();
}

bool readCount(absl::string_view text, uint64_t* value) { return absl::SimpleAtoi(text, value); }
bool readInt(absl::string_view text, int* value) { return absl::SimpleAtoi(text, value) && *value >= 0; }

}  // namespace

const char* growOrderWord(GrowOrder order) { return order == GrowOrder::kBreadth ? "breadth" : "priority"; }

absl::StatusOr<GrowOrder> parseGrowOrder(std::string_view word) {
  if (word == "breadth") return GrowOrder::kBreadth;
  if (word == "priority") return GrowOrder::kPriority;
  return absl::InvalidArgumentError(
      absl::StrCat("an order is breadth or priority, not \"", printableText(std::string(word), 64), "\""));
}

GrowFrontier::Key GrowFrontier::key(const GrowItem& item) const {
  if (order_ == GrowOrder::kBreadth && item.pass == 0) return {0, item.ply, 0, item.seq};
  return {item.pass, -piecesOnBoard(item.position), -item.ply, item.seq};
}

void GrowFrontier::enqueue(GrowItem item) {
  const Key k = key(item);
  queue_.emplace(k, std::move(item));
}

void GrowFrontier::expand(const GrowItem& item) {
  if (item.ply >= maxPly_) return;
  MoveList moves;
  generateMoves(item.position, moves);
  for (const Move move : moves) {
    Board child = item.position;
    child.makeMove(move);
    if (child.winner() != kNoWinner || countMoves(child) == 0) continue;  // the game is over there
    child = canonicalBoard(child);
    if (!seen_.insert(positionToString(child)).second) continue;
    enqueue({child, item.ply + 1, 0, nextSeq_++});
  }
}

absl::StatusOr<GrowFrontier> GrowFrontier::start(const Variant& variant, GrowOrder order, int maxPly,
                                                 const std::vector<Board>& roots) {
  if (roots.empty()) return absl::InvalidArgumentError("a frontier needs a position to start from");
  if (maxPly < 0) return absl::InvalidArgumentError("max-ply below 0");
  GrowFrontier frontier(variant, order, maxPly);
  for (const Board& root : roots) {
    if (root.variant() != variant)
      return absl::InvalidArgumentError(absl::StrCat(positionToString(root), " is a position of ",
                                                     root.variant().name(), ", not of ", variant.name()));
    if (root.winner() != kNoWinner || countMoves(root) == 0)
      return absl::InvalidArgumentError(absl::StrCat("the game is over in ", positionToString(root)));
    const Board canonical = canonicalBoard(root);
    if (!frontier.seen_.insert(positionToString(canonical)).second) continue;
    frontier.enqueue({canonical, 0, 0, frontier.nextSeq_++});
  }
  return frontier;
}

std::optional<GrowItem> GrowFrontier::next() {
  if (queue_.empty() && out_.empty() && !failed_.empty() && decidedInPass_ > 0) {
    ++pass_;
    decidedInPass_ = 0;
    for (auto& [seq, item] : failed_) {
      item.pass = pass_;
      enqueue(item);
    }
    failed_.clear();
  }
  if (queue_.empty()) return std::nullopt;
  GrowItem item = queue_.begin()->second;
  queue_.erase(queue_.begin());
  out_.emplace(item.seq, item);
  return item;
}

void GrowFrontier::record(const GrowItem& item, GrowVerdict verdict, uint64_t appended, uint64_t nodes) {
  out_.erase(item.seq);
  ++counts_.handled;
  counts_.entries += appended;
  counts_.nodes += nodes;
  switch (verdict) {
    case GrowVerdict::kKnown:
      ++counts_.known;
      ++decidedInPass_;
      return;
    case GrowVerdict::kProved:
      ++counts_.proved;
      ++decidedInPass_;
      return;
    case GrowVerdict::kDrawn:
      ++counts_.drawn;
      break;
    case GrowVerdict::kFailed:
      ++counts_.failed;
      break;
  }
  if (item.pass == 0) expand(item);
  if (verdict == GrowVerdict::kFailed) failed_.emplace(item.seq, item);
}

bool GrowFrontier::done() const { return queue_.empty() && out_.empty() && (failed_.empty() || decidedInPass_ == 0); }

absl::Status GrowFrontier::save(const std::string& path) const {
  std::string text =
      absl::StrCat(kMagicLine, "\nvariant ", variant_.name(), "\norder ", growOrderWord(order_), "\nmax-ply ", maxPly_,
                   "\nbudget ", budget_.nodes, " ", budget_.hashMiB, "\npass ", pass_, " ", decidedInPass_, "\nnext ",
                   nextSeq_, "\ncounts ", counts_.handled, " ", counts_.proved, " ", counts_.known, " ", counts_.drawn,
                   " ", counts_.failed, " ", counts_.entries, " ", counts_.nodes, "\n");
  const auto queueLine = [&](const GrowItem& item) {
    absl::StrAppend(&text, "queue ", item.seq, " ", item.pass, " ", item.ply, " ", positionToString(item.position),
                    "\n");
  };
  for (const auto& [seq, item] : out_) queueLine(item);
  for (const auto& [k, item] : queue_) queueLine(item);
  for (const auto& [seq, item] : failed_)
    absl::StrAppend(&text, "failed ", item.seq, " ", item.ply, " ", positionToString(item.position), "\n");
  std::vector<const std::string*> seen;  // sorted: the same frontier, the same file
  seen.reserve(seen_.size());
  for (const std::string& position : seen_) seen.push_back(&position);
  std::sort(seen.begin(), seen.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
  for (const std::string* position : seen) absl::StrAppend(&text, "seen ", *position, "\n");
  absl::StrAppend(&text, "checksum ", hex16(checksum(kChecksumStart, text.data(), text.size())), "\n");
  return writeAtomically(path, text);
}

absl::StatusOr<GrowFrontier> GrowFrontier::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const std::string why = absl::StrCat("cannot open ", path, ": ", std::strerror(errno));
    return errno == ENOENT ? absl::NotFoundError(why) : absl::UnavailableError(why);
  }
  std::string line;
  if (!std::getline(in, line) || line != kMagicLine) {
    if (line.rfind("gobblet-grow-frontier ", 0) == 0)
      return absl::InvalidArgumentError(absl::StrCat(path, " is a frontier of another version (\"",
                                                     printableText(line, 64), "\"), this reader knows 1"));
    return absl::InvalidArgumentError(
        absl::StrCat(path, " is not a grow frontier (its first line is not \"", kMagicLine, "\")"));
  }
  uint64_t sum = checksum(kChecksumStart, line.data(), line.size());
  sum = checksum(sum, "\n", 1);
  int number = 1;
  const auto bad = [&](const std::string& why) {
    return absl::DataLossError(absl::StrCat(path, " line ", number, ": ", why));
  };
  std::optional<Variant> variant;
  std::optional<GrowOrder> order;
  std::optional<int> maxPly;
  std::optional<GrowFrontier> frontier;
  bool summed = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.size() > kMaxLineBytes) return bad("a line longer than " + std::to_string(kMaxLineBytes) + " bytes");
    if (summed) return bad("a line after the checksum");
    const size_t space = line.find(' ');
    const std::string word = line.substr(0, space);
    const std::string rest = space == std::string::npos ? "" : line.substr(space + 1);
    if (word == "checksum") {
      if (rest != hex16(sum)) return bad("the checksum is wrong: the file is damaged or was edited");
      summed = true;
      continue;
    }
    sum = checksum(sum, line.data(), line.size());
    sum = checksum(sum, "\n", 1);
    const std::vector<absl::string_view> f = absl::StrSplit(rest, ' ');
    if (!frontier) {  // the settings come first
      if (word == "variant") {
        auto v = Variant::parse(rest);
        if (!v.ok()) return bad(std::string(v.status().message()));
        variant = *v;
      } else if (word == "order") {
        auto o = parseGrowOrder(rest);
        if (!o.ok()) return bad(std::string(o.status().message()));
        order = *o;
      } else if (word == "max-ply") {
        int p;
        if (!readInt(rest, &p)) return bad("max-ply is not a number");
        maxPly = p;
      } else {
        return bad(absl::StrCat("\"", printableText(word, 64), "\" before the variant, order and max-ply"));
      }
      if (variant && order && maxPly) frontier = GrowFrontier(*variant, *order, *maxPly);
      continue;
    }
    GrowFrontier& g = *frontier;
    // The last fields of a line of positions: the position (it has spaces).
    const auto position = [&](size_t first) -> absl::StatusOr<Board> {
      if (f.size() <= first) return absl::InvalidArgumentError("no position");
      size_t at = 0;
      for (size_t i = 0; i < first; ++i) at = rest.find(' ', at) + 1;
      auto board = parsePosition(*variant, rest.substr(at));
      if (!board.ok()) return board.status();
      if (canonicalBoard(*board) != *board) return absl::InvalidArgumentError("a position not in canonical form");
      return *board;
    };
    if (word == "budget") {
      uint64_t hash = 0;
      if (f.size() != 2 || !readCount(f[0], &g.budget_.nodes) || !readCount(f[1], &hash) || g.budget_.nodes == 0 ||
          hash == 0 || hash > (uint64_t{1} << 20))
        return bad("bad budget");
      g.budget_.hashMiB = static_cast<size_t>(hash);
    } else if (word == "pass") {
      if (f.size() != 2 || !readInt(f[0], &g.pass_) || !readCount(f[1], &g.decidedInPass_)) return bad("bad pass");
    } else if (word == "next") {
      if (!readCount(rest, &g.nextSeq_)) return bad("bad next");
    } else if (word == "counts") {
      GrowCounts& c = g.counts_;
      if (f.size() != 7 || !readCount(f[0], &c.handled) || !readCount(f[1], &c.proved) || !readCount(f[2], &c.known) ||
          !readCount(f[3], &c.drawn) || !readCount(f[4], &c.failed) || !readCount(f[5], &c.entries) ||
          !readCount(f[6], &c.nodes))
        return bad("bad counts");
    } else if (word == "queue" || word == "failed") {
      GrowItem item;
      const bool queued = word == "queue";
      const size_t fields = queued ? 3 : 2;
      if (f.size() < fields || !readCount(f[0], &item.seq) || (queued && !readInt(f[1], &item.pass)) ||
          !readInt(f[fields - 1], &item.ply))
        return bad("bad " + word + " line");
      if (item.seq >= g.nextSeq_) return bad("a position numbered at or beyond next");
      auto board = position(fields);
      if (!board.ok()) return bad(std::string(board.status().message()));
      item.position = *board;
      if (queued) {
        g.enqueue(item);
      } else {
        item.pass = g.pass_;
        g.failed_.emplace(item.seq, item);
      }
    } else if (word == "seen") {
      auto board = position(0);
      if (!board.ok()) return bad(std::string(board.status().message()));
      g.seen_.insert(rest);
    } else {
      return bad(absl::StrCat("an unknown line \"", printableText(word, 64), "\""));
    }
  }
  if (!summed) return absl::DataLossError(absl::StrCat(path, " is cut short: it ends before its checksum line"));
  if (!frontier) return absl::DataLossError(absl::StrCat(path, ": no variant, order or max-ply"));
  return std::move(*frontier);
}

absl::StatusOr<GrowAttempt> attemptGrowItem(const Board& position, const KnownPositions* database, uint64_t maxNodes,
                                            size_t hashMiB) {
  ProverOptions options;
  options.maxNodes = maxNodes;
  options.hashMiB = hashMiB;
  options.threads = 1;
  options.database = database;
  auto result = prove(position, options);
  if (!result.ok()) return result.status();
  GrowAttempt attempt;
  attempt.outcome = result->outcome;
  attempt.nodes = result->nodes;
  if (result->outcome == Outcome::kWin || result->outcome == Outcome::kLoss) {
    attempt.certificate = std::move(result->certificate);
    if (!attempt.certificate) attempt.outcome = Outcome::kUnknown;  // a proof without its certificate is no proof
  }
  return attempt;
}

absl::StatusOr<GrowSettled> settleGrowAttempt(ProofDatabase& database, const GrowAttempt& attempt) {
  if (attempt.outcome == Outcome::kDraw) return GrowSettled{GrowVerdict::kDrawn, 0};
  if (!attempt.certificate) return GrowSettled{GrowVerdict::kFailed, 0};
  auto stored = storeProof(database, *attempt.certificate);
  if (!stored.ok()) return stored.status();
  return GrowSettled{GrowVerdict::kProved, stored->appended};
}

}  // namespace gobblet::proof
