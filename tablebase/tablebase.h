// The tablebase library's one public header: exact values of the 3x3
// family and of the 4x4 family's small members (4x4:<sizes>,<stacks> whose
// numbering fits), solved by retrograde analysis (docs/tablebase.md describes the
// method and the file format). The search, the protocol and the tools reach
// the tablebase through this header; the other files of this folder are the
// library's inside (numbering, building, file format, verifying).
//
// A Tablebase answers, for any position of its variant, win/draw/loss for
// the side to move and the distance in plies to the end of the game with
// optimal play (winner fastest, loser slowest).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/board.h"
#include "engine/move.h"
#include "engine/variant.h"

namespace gobblet::tb {

enum class Value : uint8_t { kLoss, kDraw, kWin, kUnknown };

struct Probe {
  Value value = Value::kUnknown;  // for the side to move
  int distance = 0;               // plies to the end; 0 for a decided position and for draws
};

class Tablebase {
 public:
  virtual ~Tablebase() = default;
  virtual const Variant& variant() const = 0;
  // kUnknown if the board is not of this variant or not reachable.
  virtual Probe probe(const Board& board) const = 0;
};

// Opens and validates a tablebase file; a missing, wrong, truncated or
// corrupt file, or one that is not a regular file, gives an error that says
// what is wrong (never a hang: a FIFO is refused without blocking). The
// values are read into memory that the file cannot change afterwards.
// Every caller of a process shares one copy per path (the one cache of
// open files): a file stays loaded while anyone holds it. A file refused
// for what it is (its bytes or its kind) is refused again from memory,
// without reading it, until the path names another file (another device,
// inode, size or modification time); other failures (no file, no access,
// no memory) are tried again next time.
absl::StatusOr<std::shared_ptr<const Tablebase>> open(const std::string& path);

// Reads `size` bytes at `offset` of a tablebase file that is read piecewise
// (a hosted file fetched by HTTP range requests in the WebAssembly build):
// exactly `size` bytes, or an error saying why not. If probes come from
// several threads, it is called from several threads at once.
using RangeReader = std::function<absl::StatusOr<std::string>(uint64_t offset, uint64_t size)>;

// A tablebase read piecewise through `read`: the file `name` (for
// messages) of `fileSize` bytes. No network code: the caller's reader
// fetches the bytes.
//
// At open the header, the dictionary and the block table are read (two
// reads) and checked as open() checks them: magic, version, variant,
// entries, sizes, a block table that spans the frames and lies inside the
// file, and `fileSize` exactly what the block table says. The frames are
// not read, so the whole-file checksum is NOT checked: a block whose bytes
// were changed but still decode to the right number of codes gives wrong
// values (open() would have refused the file).
//
// A probe reads the one block its position needs (one read of that block's
// frame) unless that block is cached, checks that it decodes to exactly its
// codes, and keeps up to `cacheBlocks` decoded blocks (the least recently
// used dropped; 0 keeps none). A block that cannot be read (an error, or
// more or fewer bytes than asked) or does not decode makes that probe
// kUnknown, never a crash or a wrong value; it is not cached, so the next
// probe that needs it reads it again (a passing network failure heals).
// Probes may come from several threads: the cache is locked, the reads are
// made outside the lock (two threads missing the same block may both read
// it). Errors at open name `name` and say what is wrong: InvalidArgument or
// DataLoss for the file's bytes (the reader's more or fewer bytes than
// asked included), or the reader's own error, its code kept.
absl::StatusOr<std::shared_ptr<const Tablebase>> openRanges(std::string name, uint64_t fileSize, RangeReader read,
                                                            size_t cacheBlocks = 1024);

// What a tablebase of openRanges has read through its reader since it was
// opened (the reads of the opening included), for measuring that probes
// read only the blocks they need.
struct RangeStats {
  uint64_t reads = 0;     // calls of the reader
  uint64_t bytes = 0;     // bytes asked for in them
  uint64_t failures = 0;  // blocks that could not be read or did not decode (probes answered kUnknown)
};
// All zero for a tablebase not made by openRanges.
RangeStats rangeStats(const Tablebase& tablebase);

// Whether a variant can have a tablebase at all: its numbering fits in 64
// bits. Every 3x3 variant and every 4x4 member but 4x4 Gobblet itself
// (4x4:4,3); whether it fits this machine is estimateSolve's to say.
bool hasIndex(const Variant& variant);

// Where the engine looks for a variant's file without configuration:
// $GOBBLET_TB_DIR, else $XDG_DATA_HOME/gobblet, else ~/.local/share/gobblet;
// the file name is derived from the variant name.
std::string defaultPath(const Variant& variant);

// "win in 13", "loss in 4", "draw" or "unknown".
std::string describe(const Probe& probe);

// A legal move with its exact value for the side that plays it.
struct RankedMove {
  Move move;
  Probe value;  // for the mover: the child's value seen from the other side, one ply longer
};

// Every legal move of `board` (rules core) with its value, best first: wins
// (shortest first), draws, unknowns, losses (longest first); moves of equal
// value keep the rules core's order. Empty if the game is over.
std::vector<RankedMove> rankMoves(const Tablebase& tablebase, const Board& board);

// ---- Building, inspecting and verifying files (the work of gobblet-tb) ----

// What a table holds: its states and their values, for the side to move.
struct TableCounts {
  uint64_t states = 0;    // reachable states up to symmetry, player-relative
  uint64_t terminal = 0;  // of them, games over (a line shows)
  uint64_t wins = 0, draws = 0, losses = 0;
  Probe start;      // the start position's value
  int longest = 0;  // the longest distance to the end, in plies
};

// progress(phase, done, total): called from the calling thread now and then.
using SolveProgress = std::function<void(const std::string& phase, uint64_t done, uint64_t total)>;

// What solving a variant takes: the exact size of its numbering and the
// 3x3 builder's memory model, at its worst (every state open, a state whose
// code its outcome does not tell): a directory word per 256 numbers, the
// working arrays of the groups solved at once (a count and a longest win
// per open state and a 4-byte bucket entry: the largest shared group
// alone, or as many of the largest other groups as threads), and the
// packed codes (2 bits a number, a byte per open state), either all in
// memory or (codes in a file) those of the groups in hand: a group and the
// groups one level up its placements lead to.
struct SolveEstimate {
  uint64_t slots = 0;             // numbers of the Index (states and holes)
  uint64_t states = 0;            // numbers that are states (up to symmetry; reachable or not)
  uint64_t largestGroup = 0;      // numbers of the largest group
  uint64_t bytes = 0;             // expected peak memory of solve() with the codes in memory
  uint64_t bytesCodesInFile = 0;  // the same with the codes in a file (their pages in hand counted)
  // The same figures not rounded to 64 bits (4x4 members too large to
  // number, 4x4:4,3, have only these; the integers above are then 0).
  double wideSlots = 0, wideStates = 0, wideBytes = 0;
};
SolveEstimate estimateSolve(const Variant& variant, int threads);

// A build of the 3x3 family spread over `ranks` processes (BuildShare) of
// `threads` threads each: each rank holds the slices of the groups dealt
// to it and, for one step at a time, the slices next to its groups that
// it takes from the others (retrograde.h). Every state is counted open
// (a byte each), the most there can be.
struct ClusterEstimate {
  // memory of one rank: `bytes` with the codes in memory, the most of any
  // rank (its slices, the most it takes at once, the working arrays of the
  // largest groups, the pieces of a fetch); with the codes in files
  // (bytesCodesInFile) each rank's files are reserved whole, as one
  // process's (slots bytes of disk)
  SolveEstimate perRank;
  uint64_t codeBytesIn = 0;   // slice bytes a rank receives in all (symbols, directory, open bytes), the most
  uint64_t codeBytesOut = 0;  // slice bytes a rank sends in all, the most
  uint64_t bitBytes = 0;      // symbol bytes of the lines two slices share, OR-ed over the ranks once
  // The work of the slowest rank summed over the levels of both passes,
  // as a share of all the work (1 on one rank; at least 1 / ranks): the
  // levels wait for their largest groups.
  double criticalShare = 1;
  uint64_t levels = 0;  // exchanges per pass (one before each level)
};
ClusterEstimate estimateCluster(const Variant& variant, int threads, int ranks);

// What a 4x4 member's build (the ranks each own a range of the
// numbers) takes on each of `ranks` ranks of `threads` threads: the
// largest range's codes, counts and bits, the message buffers (a round's
// words out, twice, and as much from each other rank: 8 MiB, and each
// thread's last chunk of 4,096 states) and about 80 MiB of MPI's own (Open
// MPI on one machine); and what a rank sends (and about as much it
// receives): each reached state's children and each won or lost state's
// parents that are another rank's, a word each: 40 words a state in all
// (measured: 39 on 4x4:4,1, 27 on 4x4:2,2, from every rank's bytes sent
// over 2 and 3 ranks), (ranks - 1) / ranks of them another rank's.
struct ClusterEstimate4 {
  double bytesPerRank = 0;
  double bytesSentPerRank = 0;
};
ClusterEstimate4 estimateCluster4(const Variant& variant, int threads, int ranks);

// One process's part of a build spread over several processes, "ranks"
// (gobblet-tb build under mpirun implements it with MPI: tools/tb/mpi_share.cpp;
// the library knows no MPI). The 3x3 builder deals the groups of each
// level out to the ranks (largest first, each to the least loaded rank:
// the same deal on every rank); a rank solves and holds its own, and
// before each level takes from their holders the slices its groups need
// (exchangeWords); the 4x4 builder's ranks each hold a range of the
// numbers. Every call is collective (but sendBytes and receiveBytes): all
// ranks make the same calls with the same ranges, in the same order, from
// the thread that called build().
class BuildShare {
 public:
  struct Range {
    uint64_t offset = 0, size = 0;  // in words (orWords) or bytes (shareBytes)
    int owner = 0;                  // the rank whose copy holds the range (shareBytes)
  };
  virtual ~BuildShare() = default;
  virtual int rank() const = 0;
  virtual int ranks() const = 0;
  // Every range of `words` becomes the bitwise OR of all ranks' copies.
  virtual absl::Status orWords(uint64_t* words, const std::vector<Range>& ranges) = 0;
  // Every range of `bytes` becomes its owner's copy on every rank.
  virtual absl::Status shareBytes(uint8_t* bytes, const std::vector<Range>& ranges) = 0;
  // OK if every rank's `mine` is OK; else an error on every rank (on a
  // failing rank its own). A rank that fails must still make this call, so
  // that the others stop with it instead of waiting for it forever.
  virtual absl::Status agree(const absl::Status& mine) = 0;

  // ---- For the 4x4 builder, whose ranks each own a range of the numbers
  // (retrograde4.h) and exchange messages instead of whole arrays. ----
  enum class Reduce { kSum, kMax };
  // Every rank's values[0..n) become their sum (or greatest) over the ranks.
  virtual absl::Status reduceWords(uint64_t* values, size_t n, Reduce op) = 0;
  // All to all: toEach[r] (toEach has ranks() entries; this rank's own is
  // ignored) goes to rank r, and `received` becomes what every other rank
  // sent this one, in rank order. At most 2^28 words to a rank in one
  // call: beyond, an error on every rank.
  virtual absl::Status exchangeWords(const std::vector<std::vector<uint64_t>>& toEach,
                                     std::vector<uint64_t>* received) = 0;
  // Point to point: `size` bytes to rank `to`, which takes them with
  // receiveBytes(this rank, ..., the same size); messages between two ranks
  // arrive in the order sent. Not collective.
  virtual absl::Status sendBytes(int to, const uint8_t* bytes, uint64_t size) = 0;
  virtual absl::Status receiveBytes(int from, uint8_t* bytes, uint64_t size) = 0;
};

// The most threads a build takes: more than any machine it runs on has
// cores, few enough that their buffers fit.
inline constexpr int kMaxBuildThreads = 256;

struct BuildOptions {
  int threads = 1;             // 1 to kMaxBuildThreads (else build() refuses)
  std::string codesDirectory;  // empty: the codes in memory; else in an unnamed file there
  SolveProgress progress;      // may be empty
  // Null: one process solves everything. Else this process's part of a
  // build over share->ranks() processes: each rank calls build() with the
  // same variant and path; rank 0 alone checks and writes the file (the
  // same file, byte for byte, as a one-process build), after every rank
  // has agreed that the solve succeeded. Every rank returns the counts, or
  // an error if any rank failed.
  BuildShare* share = nullptr;
  // Null, or a flag that ends the build (Cancelled, no file written) once
  // set: for a caller that must be able to interrupt it (Python's Ctrl-C).
  // Checked between two groups of the solve; ignored with a share.
  const std::atomic<bool>* stop = nullptr;
};

// Solves a variant of the 3x3 family, or a member of the 4x4 family (one
// process, codes in memory: a share or a codes directory is refused for
// it; a member too large to number is refused), by retrograde analysis and, unless
// `path` is empty, writes its file there: complete or not at all (written
// under a name of its own beside `path`, then renamed; missing directories
// made). The file is the same for any thread count and codes directory.
// An existing `path` that is not a regular file (a device, a FIFO, a
// socket, a directory, a symbolic link) is refused before solving: the
// rename would replace it.
absl::StatusOr<TableCounts> build(const Variant& variant, const std::string& path, const BuildOptions& options);

struct FileInfo {
  uint32_t formatVersion = 0;
  Variant variant;
  uint64_t entries = 0;  // numbered slots (states and holes)
  uint64_t blocks = 0;   // zstd frames of blockCodes codes each
  uint32_t blockCodes = 0;
  uint32_t dictionaryBytes = 0;
  uint64_t bytes = 0;     // the whole file
  uint64_t checksum = 0;  // checked
  TableCounts counts;
};

// Opens and checks a file as open() does (every block decoded) and says
// what it holds; an error says what is wrong with it.
absl::StatusOr<FileInfo> inspect(const std::string& path);

// progress(done, total): called from the calling thread now and then.
using VerifyProgress = std::function<void(uint64_t done, uint64_t total)>;

// The verifier's memory for a file of `slots` entries: two bits per slot
// (reached, expanded), and a code byte per slot unless the codes are in a
// file (whose pages are then the page cache's to keep or drop).
inline uint64_t verifyBytes(uint64_t slots, bool codesInFile) { return slots / 4 + (codesInFile ? 0 : slots); }

// Where verifyFile keeps the file's decoded codes, chosen once the file is
// open: "" for memory, else a directory for an unnamed file; an error stops
// the verification with it.
using CodesDirectoryChoice = std::function<absl::StatusOr<std::string>(const FileInfo& file)>;

// Opens a file and checks every value in it against the rules: each
// state's value follows from its children's, and the reachable states are
// exactly those numbered. OK, or the first inconsistency found (with the
// position in notation), or what is wrong with the file.
absl::Status verifyFile(const std::string& path, int threads, const CodesDirectoryChoice& codesDirectory,
                        const VerifyProgress& progress = {});

}  // namespace gobblet::tb
