// gobblet.prove() and Proof: the prover (proof/prover.h) from Python;
// gobblet.prove_not_lost() and prove_draw(): the not-lost prover
// (proof/not_lost.h); gobblet.check_certificate(), the independent checker
// (proof/check.h); and gobblet.ProofDatabase, a proof database
// (proof/database.h) that prove() starts from and adds to.
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <string>
#include <tuple>
#include <utility>
#include <vector>
#include <variant>

#include <pybind11/stl.h>

#include "bindings.h"
#include "engine/notation.h"
#include "errors.h"
#include "interruptible.h"
#include "proof/certified.h"
#include "proof/check.h"
#include "proof/database.h"
#include "proof/database_check.h"
#include "proof/not_lost.h"
#include "proof/prover.h"
#include "proof/store_proof.h"
#include "python_game.h"

namespace py = pybind11;

namespace gobblet::python {
namespace {

// gobblet.ProofDatabase: a proof database file, open for reading or for
// reading and appending. The mutex keeps one thread at a time on it (a
// proof reads it from its own thread, then appends to it); it is taken
// with the GIL released.
struct ProofDatabaseHandle {
  std::unique_ptr<proof::ProofDatabase> database;
  std::string path;
  bool writable = false;
  std::mutex mutex;
};

// Opens `path`: NotFound is FileNotFoundError, a file that is no proof
// database or of another variant ValueError, anything else an OSError.
std::unique_ptr<ProofDatabaseHandle> openProofDatabase(const std::string& path,
                                                       const std::optional<VariantArg>& variant, bool writable) {
  std::optional<Variant> wanted;
  if (variant) wanted = toVariant(*variant);
  if (writable && !wanted) throw std::invalid_argument("ProofDatabase: writable=True wants the variant");
  absl::StatusOr<std::unique_ptr<proof::ProofDatabase>> opened = absl::UnknownError("");
  {
    py::gil_scoped_release release;
    opened = proof::ProofDatabase::open(
        path, writable ? proof::ProofDatabase::Mode::kReadWrite : proof::ProofDatabase::Mode::kRead, wanted);
  }
  if (!opened.ok()) {
    if (absl::IsInvalidArgument(opened.status())) throw std::invalid_argument(std::string(opened.status().message()));
    throwFileError(opened.status());
  }
  auto handle = std::make_unique<ProofDatabaseHandle>();
  handle->database = std::move(*opened);
  handle->path = path;
  handle->writable = writable;
  return handle;
}

// A position to look up: a Game (its current position) or position text.
using PositionArg = std::variant<const PythonGame*, std::string>;

// The entry of the position, its certificate checked again (proof/
// store_proof.h storedProof, storedNotLost): (winner, plies) with winner
// "side to move" or "other side" and the checker's plies; else, from its
// held entries, ("draw", None) where both sides hold, ("side to move
// holds" or "other side holds", None) where one does; or None. ValueError
// where the checker rejects the entry.
std::optional<std::tuple<std::string, std::optional<int>>> lookUp(ProofDatabaseHandle& h, const PositionArg& position) {
  const Variant& variant = h.database->variant();
  Board board(variant);
  if (const std::string* text = std::get_if<std::string>(&position)) {
    board = parsePositionOrThrow(variant, *text);
  } else {
    board = std::get<const PythonGame*>(position)->board();
    if (!(board.variant() == variant))
      throw VariantError("a game of " + board.variant().name() + " looked up in a proof database of " + variant.name());
  }
  absl::StatusOr<proof::ProofResult> stored = absl::UnknownError("");
  absl::StatusOr<proof::NotLostResult> held[2] = {absl::UnknownError(""), absl::UnknownError("")};
  {
    py::gil_scoped_release release;
    std::lock_guard lock(h.mutex);
    stored = proof::storedProof(*h.database, board);
    if (absl::IsNotFound(stored.status()))
      for (int relative : {0, 1})
        held[relative] = proof::storedNotLost(*h.database, board, board.sideToMove() ^ relative);
  }
  const auto rejected = [&](const absl::Status& status) {
    return std::invalid_argument("ProofDatabase.lookup: the entry of " + positionToString(board) +
                                 " is rejected: " + std::string(status.message()));
  };
  if (stored.ok())
    return std::make_tuple(std::string(stored->outcome == proof::Outcome::kWin ? "side to move" : "other side"),
                           std::optional<int>(stored->plies));
  if (!absl::IsNotFound(stored.status())) throw rejected(stored.status());
  for (const auto& side : held)
    if (!side.ok() && !absl::IsNotFound(side.status())) throw rejected(side.status());
  if (held[0].ok() && held[1].ok()) return std::make_tuple(std::string("draw"), std::optional<int>());
  if (held[0].ok()) return std::make_tuple(std::string("side to move holds"), std::optional<int>());
  if (held[1].ok()) return std::make_tuple(std::string("other side holds"), std::optional<int>());
  return std::nullopt;
}

// What prove() found, for the side to move of the game's position.
struct Proof {
  std::string outcome;              // "win", "loss", "draw", "unknown"
  std::optional<int> plies;         // win or loss: the longest game the proved strategy allows
  std::optional<std::string> move;  // win: the strategy's first move
  uint64_t nodes = 0;
  double seconds = 0;
  std::string note;
  std::optional<proof::Certificate> certificate;
  bool certified = false;
  std::optional<size_t> stored;  // with a writable database: the entries appended

  void writeCertificate(const std::string& path) const;
};

// The checks every prover call makes of its arguments: the game not over,
// a budget of at least 1 node and more than 0 s (None: no limit), a table
// of 1..65536 MiB.
void checkProverArguments(const char* call, const PythonGame& game, std::optional<uint64_t> nodes,
                          std::optional<double> seconds, size_t hashMiB) {
  if (game.game().result() != GameResult::kNone) throw GameOverError(std::string(call) + ": the game is over");
  if (hashMiB < 1 || hashMiB > 65536) throw std::invalid_argument("hash_mib: from 1 to 65536");
  if (seconds && !(*seconds > 0)) throw std::invalid_argument("seconds: more than 0 (None: no limit)");
  if (nodes && *nodes == 0) throw std::invalid_argument("nodes: at least 1 (None: no limit)");
}

void writeCertificateOrThrow(const std::optional<proof::Certificate>& certificate, const std::string& path,
                             const char* none) {
  if (!certificate) throw std::invalid_argument(none);
  if (absl::Status st = proof::writeCertificate(*certificate, path); !st.ok())
    throw TablebaseError(std::string(st.message()));
}

// Runs `search(options)` with options.stop set: Ctrl-C stops the search
// (the answer is then "unknown"). For each prover's options.
template <class Options, class Search>
auto stoppable(const Options& options, Search search) {
  return interruptible([&](const std::atomic<bool>& stop) {
    Options o = options;
    o.stop = &stop;
    return search(o);
  });
}

// The lock a prover call on `board` holds on `database` (none without
// one), taken with the GIL released. VariantError for a database of
// another variant.
std::unique_lock<std::mutex> lockFor(ProofDatabaseHandle* database, const Board& board) {
  if (!database) return {};
  if (!(database->database->variant() == board.variant()))
    throw VariantError("a game of " + board.variant().name() + " proved with a proof database of " +
                       database->database->variant().name());
  py::gil_scoped_release release;
  return std::unique_lock(database->mutex);
}

// Appends `certificates` through storeProof (proof/store_proof.h), all or
// nothing, for `call` (its name starts the errors): the entries appended.
// ValueError where the database refuses them, TablebaseError where the
// write fails. The caller holds h.mutex when `locked`.
size_t storeCertificates(ProofDatabaseHandle& h, const std::vector<proof::Certificate>& certificates,
                         const std::string& call, bool locked = false) {
  absl::StatusOr<proof::StoredProof> stored = absl::UnknownError("");
  {
    py::gil_scoped_release release;
    std::unique_lock lock(h.mutex, std::defer_lock);
    if (!locked) lock.lock();
    stored = proof::storeProof(*h.database, certificates);
  }
  if (absl::IsInvalidArgument(stored.status()))
    throw std::invalid_argument(call + ": " + std::string(stored.status().message()));
  if (!stored.ok())
    throw TablebaseError(call + ": nothing appended to " + h.path + ": " + std::string(stored.status().message()));
  return stored->appended;
}

Proof prove(const PythonGame& game, std::optional<uint64_t> nodes, std::optional<double> seconds, size_t hashMiB,
            int threads, ProofDatabaseHandle* database) {
  checkProverArguments("prove", game, nodes, seconds, hashMiB);
  if (threads < 1 || threads > 256) throw std::invalid_argument("threads: from 1 to 256");
  proof::ProverOptions options;
  options.maxNodes = nodes.value_or(0);
  options.maxSeconds = seconds.value_or(0);
  options.hashMiB = hashMiB;
  options.threads = threads;
  options.history = game.game().positionsSinceLastDrop();  // (the proof holds in this game, its repetitions counted)
  const Board board = game.board();
  const std::unique_lock<std::mutex> lock = lockFor(database, board);
  if (database) options.database = database->database.get();
  absl::StatusOr<proof::ProofResult> r =
      stoppable(options, [&](const proof::ProverOptions& o) { return proof::prove(board, o); });
  if (!r.ok()) throw std::invalid_argument(std::string(r.status().message()));
  proof::certify(*r, options.history, options.database);  // (a win or a loss only once the checker accepts it)
  Proof p;
  if (database && database->writable) {  // the root and the positions its strategy reaches by a drop
    p.stored = r->certified ? storeCertificates(*database, {*r->certificate}, "prove", /*locked=*/true) : 0;
  }
  p.outcome = proof::outcomeWord(r->outcome);
  if (r->plies >= 0) p.plies = r->plies;
  p.nodes = r->nodes;
  p.seconds = r->seconds;
  p.note = r->note;
  p.certificate = r->certificate;
  p.certified = r->certified;
  if (const Move first = proof::winningMove(*r); !first.isNone()) p.move = moveToString(first, board.variant());
  return p;
}

void Proof::writeCertificate(const std::string& path) const {
  writeCertificateOrThrow(certificate, path, "no certificate: the prover proved no win or loss");
}

// ValueError unless the database was opened for appending.
void checkWritable(const ProofDatabaseHandle& h) {
  if (!h.writable) throw std::invalid_argument("ProofDatabase.store: " + h.path + " was opened for reading only");
}

// ProofDatabase.store(proof): a certified win or loss appended with the
// positions its strategy reaches by a drop (proof/store_proof.h).
size_t store(ProofDatabaseHandle& h, const Proof& p) {
  checkWritable(h);
  if (!p.certified || !p.certificate)
    throw std::invalid_argument("ProofDatabase.store: the proof is no certified win or loss (outcome " + p.outcome +
                                ")");
  return storeCertificates(h, {*p.certificate}, "ProofDatabase.store");
}

// What prove_not_lost() found for one player.
struct NotLost {
  int player = 1;      // 1 or 2: the defender
  std::string result;  // "held", "lost", "unknown"
  uint64_t nodes = 0;
  double seconds = 0;
  std::string note;                               // unknown: why
  std::optional<proof::Certificate> certificate;  // held: accepted by the checker
  std::optional<size_t> stored;                   // with a writable database: the entries appended

  void writeCertificate(const std::string& path) const {
    writeCertificateOrThrow(certificate, path, "no certificate: the player was not proved to hold");
  }
};

// What prove_draw() found: each player's NotLost, the second not tried
// once the first is not held.
struct Draw {
  std::optional<NotLost> players[2];
  std::optional<size_t> stored;  // with a writable database: the entries appended (both players')
  // The players tried, player 1's first (null: not tried).
  std::vector<const NotLost*> sides() const {
    return {players[0] ? &*players[0] : nullptr, players[1] ? &*players[1] : nullptr};
  }
  bool drawn() const { return players[0] && players[1] && players[0]->certificate && players[1]->certificate; }
  void writeCertificates(const std::string& path) const {
    if (!drawn()) throw std::invalid_argument("no certificates: the position was not proved drawn");
    for (int i = 0; i < 2; ++i) players[i]->writeCertificate(path + "." + std::to_string(i + 1));
  }
};

NotLost toNotLost(int defender, const proof::NotLostResult& r) {
  NotLost n;
  n.player = defender + 1;
  n.result = proof::defenceWord(r.defence);
  n.nodes = r.nodes;
  n.seconds = r.seconds;
  n.note = r.note;
  if (r.defence == proof::Defence::kHeld) n.certificate = r.certificate;
  return n;
}

proof::NotLostOptions notLostOptions(std::optional<uint64_t> nodes, std::optional<double> seconds, size_t hashMiB) {
  proof::NotLostOptions options;
  options.maxNodes = nodes.value_or(0);
  options.maxSeconds = seconds.value_or(0);
  options.hashMiB = hashMiB;
  return options;
}

// The not-lost certificates of `sides` (the players proved to hold).
std::vector<proof::Certificate> heldCertificates(const std::vector<const NotLost*>& sides) {
  std::vector<proof::Certificate> certificates;
  for (const NotLost* side : sides)
    if (side && side->certificate) certificates.push_back(*side->certificate);
  return certificates;
}

// With a writable `database`, the held certificates of `sides` appended
// (the caller holds its lock): the entries appended; else none.
std::optional<size_t> storeHeldProved(ProofDatabaseHandle* database, const std::vector<const NotLost*>& sides,
                                      const std::string& call) {
  if (!database || !database->writable) return std::nullopt;
  const std::vector<proof::Certificate> certificates = heldCertificates(sides);
  if (certificates.empty()) return 0;
  return storeCertificates(*database, certificates, call, /*locked=*/true);
}

NotLost proveNotLost(const PythonGame& game, std::optional<int> player, std::optional<uint64_t> nodes,
                     std::optional<double> seconds, size_t hashMiB, ProofDatabaseHandle* database) {
  checkProverArguments("prove_not_lost", game, nodes, seconds, hashMiB);
  const Board board = game.board();
  if (player && *player != 1 && *player != 2) throw std::invalid_argument("player: 1 or 2 (None: the side to move)");
  const int defender = player ? *player - 1 : board.sideToMove();
  proof::NotLostOptions options = notLostOptions(nodes, seconds, hashMiB);
  const std::unique_lock<std::mutex> lock = lockFor(database, board);
  if (database) options.database = database->database.get();
  absl::StatusOr<proof::NotLostResult> r =
      stoppable(options, [&](const proof::NotLostOptions& o) { return proof::proveNotLost(board, defender, o); });
  if (!r.ok()) throw std::invalid_argument(std::string(r.status().message()));
  NotLost n = toNotLost(defender, *r);
  n.stored = storeHeldProved(database, {&n}, "prove_not_lost");
  return n;
}

Draw proveDraw(const PythonGame& game, std::optional<uint64_t> nodes, std::optional<double> seconds, size_t hashMiB,
               ProofDatabaseHandle* database) {
  checkProverArguments("prove_draw", game, nodes, seconds, hashMiB);
  const Board board = game.board();
  proof::NotLostOptions options = notLostOptions(nodes, seconds, hashMiB);
  const std::unique_lock<std::mutex> lock = lockFor(database, board);
  if (database) options.database = database->database.get();
  absl::StatusOr<proof::DrawResult> r =
      stoppable(options, [&](const proof::NotLostOptions& o) { return proof::proveDraw(board, o); });
  if (!r.ok()) throw std::invalid_argument(std::string(r.status().message()));
  Draw d;
  // proveDraw tries the side to move first, the other only if it holds.
  for (int side : {board.sideToMove(), board.sideToMove() ^ 1}) {
    d.players[side] = toNotLost(side, r->sides[side]);
    if (r->sides[side].defence != proof::Defence::kHeld) break;
  }
  d.stored = storeHeldProved(database, d.sides(), "prove_draw");
  return d;
}

// ProofDatabase.store(not_lost or draw): each held certificate appended as
// a held entry (proof/store_proof.h), all or nothing: the entries appended.
size_t storeHeld(ProofDatabaseHandle& h, const std::vector<const NotLost*>& sides) {
  checkWritable(h);
  const std::vector<proof::Certificate> certificates = heldCertificates(sides);
  if (certificates.empty())
    throw std::invalid_argument("ProofDatabase.store: no player was proved to hold (no not-lost certificate)");
  return storeCertificates(h, certificates, "ProofDatabase.store");
}

}  // namespace

void bindProof(py::module_& m) {
  py::class_<Proof>(m, "Proof", "What prove() found, for the side to move.")
      .def_readonly("outcome", &Proof::outcome,
                    "\"win\", \"loss\", \"draw\" or \"unknown\". A draw here is the prover's claim, with no "
                    "certificate (certified False); prove_draw() proves one with a certificate for each player.")
      .def_readonly("plies", &Proof::plies,
                    "A win or a loss: the longest game the proved strategy allows (at least the true distance).")
      .def_readonly("move", &Proof::move, "A win: the proved strategy's first move; else None.")
      .def_readonly("nodes", &Proof::nodes)
      .def_readonly("seconds", &Proof::seconds)
      .def_readonly("note", &Proof::note, "Unknown: why; draw: how.")
      .def_readonly("certified", &Proof::certified,
                    "A win or a loss: the independent checker accepted its certificate (always, or it is no answer).")
      .def_readonly("stored", &Proof::stored,
                    "With a writable database: the entries appended to it (the proved position and the positions "
                    "its strategy reaches by a drop, those it held already left out); else None.")
      .def_property_readonly(
          "certificate_nodes", [](const Proof& p) { return p.certificate ? p.certificate->nodes.size() : 0; },
          "The certificate's nodes (0 without one).")
      .def("write_certificate", &Proof::writeCertificate, py::arg("path"),
           "Writes the certificate (docs/proof.md) that check_certificate() and `gobblet-prove check` verify.")
      .def("__repr__", [](const Proof& p) {
        return "<Proof " + p.outcome + (p.plies ? " in " + std::to_string(*p.plies) + " plies" : "") +
               (p.move ? " by " + *p.move : "") + ">";
      });

  py::class_<NotLost>(m, "NotLost", "What prove_not_lost() found: whether a player cannot lose the position.")
      .def_readonly("player", &NotLost::player, "The defender: 1 or 2.")
      .def_readonly("result", &NotLost::result,
                    "\"held\" (the player cannot lose: a not-lost certificate the checker accepted), \"lost\" (the "
                    "prover found a forced line for the other player: its claim, with no certificate) or "
                    "\"unknown\" (the budget ran out, or Ctrl-C; see note).")
      .def_readonly("nodes", &NotLost::nodes)
      .def_readonly("seconds", &NotLost::seconds)
      .def_readonly("note", &NotLost::note, "Unknown: why.")
      .def_readonly("stored", &NotLost::stored,
                    "With a writable database: the entries appended (1 for a newly held position, 0 if it was "
                    "held already or not proved); else None.")
      .def_property_readonly(
          "certificate_nodes", [](const NotLost& n) { return n.certificate ? n.certificate->nodes.size() : 0; },
          "The certificate's nodes (0 without one).")
      .def("write_certificate", &NotLost::writeCertificate, py::arg("path"),
           "Writes the not-lost certificate (held only, else ValueError) that check_certificate() verifies.")
      .def("__repr__",
           [](const NotLost& n) { return "<NotLost player " + std::to_string(n.player) + " " + n.result + ">"; });

  py::class_<Draw>(m, "Draw", "What prove_draw() found: whether neither player can win the position.")
      .def_property_readonly("drawn", &Draw::drawn, "Both players proved to hold, each with its certificate.")
      .def_property_readonly(
          "players", [](const Draw& d) { return std::make_tuple(d.players[0], d.players[1]); },
          "(player 1's NotLost, player 2's): the side to move is tried first, the other only if it held "
          "(else None).")
      .def_readonly("stored", &Draw::stored,
                    "With a writable database: the held entries appended (one for each player proved to hold "
                    "that it did not hold yet); else None.")
      .def("write_certificates", &Draw::writeCertificates, py::arg("path"),
           "Writes the two not-lost certificates of a proved draw: path + \".1\" (player 1's) and path + "
           "\".2\" (ValueError if not drawn).")
      .def("__repr__", [](const Draw& d) { return std::string(d.drawn() ? "<Draw drawn>" : "<Draw not proved>"); });

  py::class_<ProofDatabaseHandle>(m, "ProofDatabase", R"doc(
A proof database file (docs/proof.md): positions proved won or lost, or held (a player cannot lose
them; held by both: drawn), each with the certificate that proves it, found under every symmetry of
the board. writable=False opens an existing file for reading;
writable=True opens it for appending too, made for `variant` if it is missing. prove(game,
database=db) starts from it and, when it is writable, appends what it proves. A missing file raises
FileNotFoundError, a file that is no proof database (or of another variant than `variant`) ValueError;
a cut tail (a crash mid-write) is dropped, not trusted: see `tail`.)doc")
      .def(py::init(&openProofDatabase), py::arg("path"), py::kw_only(), py::arg("variant") = py::none(),
           py::arg("writable") = false)
      .def_property_readonly("variant", [](const ProofDatabaseHandle& h) { return h.database->variant(); })
      .def_readonly("path", &ProofDatabaseHandle::path)
      .def_readonly("writable", &ProofDatabaseHandle::writable)
      .def(
          "__len__", [](const ProofDatabaseHandle& h) { return h.database->entries(); },
          "The entries read (a position stored twice counts twice).")
      .def_property_readonly(
          "tail",
          [](const ProofDatabaseHandle& h) -> std::optional<py::dict> {
            const proof::DatabaseTail& t = h.database->tail();
            if (t.bytes == 0) return std::nullopt;
            py::dict d;
            d["offset"] = t.offset;
            d["bytes"] = t.bytes;
            d["reason"] = t.reason;
            return d;
          },
          "The bytes at the end of the file that make no whole record, dropped when it was opened (a dict "
          "with offset, bytes and reason), or None.")
      .def("lookup", &lookUp, py::arg("position"),
           "The entry of a position (a Game's current one, or position text), under any symmetry: "
           "(winner, plies), winner \"side to move\" or \"other side\", plies the longest game its "
           "strategy allows (its certificate checked again by the independent checker: ValueError if it is "
           "rejected); None if the database does not hold it. The entry wins whatever came before only "
           "where the game's history since its last drop is empty (docs/proof.md). A position with no win "
           "entry but held entries: (\"draw\", None) where both sides cannot lose, (\"side to move holds\", "
           "None) or (\"other side holds\", None) where one cannot (whatever the history).")
      .def(
          "check",
          [](ProofDatabaseHandle& h) {
            proof::DatabaseReport report;
            {
              py::gil_scoped_release release;
              std::lock_guard lock(h.mutex);
              report = proof::checkDatabase(h.path);
            }
            py::dict d;
            d["accepted"] = report.accepted;
            d["reason"] = report.reason;
            d["bad_entry"] = report.badEntry >= 0 ? py::object(py::int_(report.badEntry)) : py::object(py::none());
            d["variant"] = report.variant;
            d["entries"] = report.entries;
            d["won"] = report.wins[0];
            d["lost"] = report.wins[1];
            d["held"] = report.held[0];
            d["held_by_other"] = report.held[1];
            d["drawn"] = report.draws;
            d["nodes"] = report.nodes;
            return d;
          },
          R"doc(Checks the whole file by the rules alone, as `gobblet-prove db check` does: a dict with
"accepted", "reason" (the first bad entry, by its number, or what is wrong with the file), "bad_entry"
(None if none), "variant", "entries", "won", "lost" (win entries by the winner, side to move first), "held",
"held_by_other" (held entries by the defender, side to move first), "drawn" (positions held for both sides)
and "nodes".)doc")
      .def("store", &store, py::arg("proof"),
           "Appends a Proof's certified win or loss (its database leaves, if any, held by this database) with the "
           "positions its strategy reaches by a drop, each checked first: the entries appended (those held "
           "already left out). ValueError for a read-only database, a proof with no certified win or loss, or "
           "a certificate the checker rejects given this database (one that names entries it does not hold); "
           "TablebaseError if the write fails (the file is as it was).")
      .def(
          "store", [](ProofDatabaseHandle& h, const NotLost& n) { return storeHeld(h, {&n}); }, py::arg("proof"),
          "Appends a NotLost's held position (its not-lost certificate, checked first) as a held entry: 1, or 0 if "
          "held already. ValueError for a read-only database, a player not proved to hold, a certificate the "
          "checker rejects or one that contradicts an entry (a win of the other side); TablebaseError if the "
          "write fails.")
      .def(
          "store", [](ProofDatabaseHandle& h, const Draw& d) { return storeHeld(h, d.sides()); }, py::arg("proof"),
          "Appends a Draw's held positions (each player's not-lost certificate it has, checked first), all or "
          "nothing: the entries appended. Errors as for a NotLost.")
      .def("__repr__", [](const ProofDatabaseHandle& h) {
        return "<ProofDatabase '" + h.path + "' " + h.database->variant().name() + ", " +
               std::to_string(h.database->entries()) + " entries" + (h.writable ? "" : ", read-only") + ">";
      });

  m.def("prove", &prove, py::arg("game"), py::kw_only(), py::arg("nodes") = py::none(), py::arg("seconds") = py::none(),
        py::arg("hash_mib") = 64, py::arg("threads") = 1, py::arg("database") = nullptr,
        R"doc(Decides the game's position by proof-number search (docs/proof.md): a Proof whose outcome
is "win" (with the winning move), "loss", "draw" (the prover's claim, with no certificate: prove_draw()
certifies one) or "unknown" (the budget ran out, or Ctrl-C). Budget:
`nodes` (at least 1) and `seconds` (more than 0); None is no limit (then only Ctrl-C ends a hard one). A win or
a loss comes with a certificate that the independent checker has accepted (else it is "unknown"). The proof holds in
the game: it reaches none of the game's positions since its last drop. `database` (a ProofDatabase of the game's
variant): the prover starts from the positions it holds, and a writable one gets what is proved (Proof.stored).
Raises GameOverError at a finished game.)doc");

  m.def("prove_not_lost", &proveNotLost, py::arg("game"), py::kw_only(), py::arg("player") = py::none(),
        py::arg("nodes") = py::none(), py::arg("seconds") = py::none(), py::arg("hash_mib") = 64,
        py::arg("database") = nullptr,
        R"doc(Proves that `player` (1 or 2; None: the side to move) cannot lose the game's position
(docs/proof.md, "Proved draws"): a NotLost whose result is "held" with a not-lost certificate the
independent checker has accepted, "lost" or "unknown". A repetition only draws, so the game's
earlier positions cannot make a held player lose: the result holds in the game. Budget as prove():
`nodes` and `seconds`, None no limit. `database` (a ProofDatabase of the game's variant): a position it
holds for the player is answered from it, its held and won positions end the search's lines, and a
writable one gets the held entry (NotLost.stored). Raises GameOverError at a finished game.)doc");
  m.def("prove_draw", &proveDraw, py::arg("game"), py::kw_only(), py::arg("nodes") = py::none(),
        py::arg("seconds") = py::none(), py::arg("hash_mib") = 64, py::arg("database") = nullptr,
        R"doc(Proves that neither player can win the game's position: prove_not_lost() for the side to
move, then for the other, each with the budget and the `database` as prove_not_lost() takes it. A Draw:
`drawn`, each player's NotLost, and with a writable database the held entries appended (Draw.stored).)doc");

  m.def(
      "check_certificate",
      [](const std::string& path) {
        if (std::error_code error; !std::filesystem::exists(path, error)) {
          throwNotFound(path);  // an OSError, as open() raises, not a rejected certificate
        }
        proof::CheckReport report;
        {
          py::gil_scoped_release release;
          report = proof::checkCertificateFileOfItsKind(path);
        }
        const bool notLost = report.kind == proof::CertificateKind::kNotLost;
        const char* side = report.winner == 0 ? "side to move" : "other side";
        py::dict d;
        d["accepted"] = report.accepted;
        d["reason"] = report.reason;
        d["kind"] = notLost ? "not lost" : "win";
        d["variant"] = report.variant;
        d["position"] = report.position;
        d["winner"] = notLost ? py::object(py::none()) : py::object(py::str(side));
        d["defender"] = notLost ? py::object(py::str(side)) : py::object(py::none());
        d["nodes"] = report.nodes;
        d["plies"] = report.plies;
        return d;
      },
      py::arg("path"),
      R"doc(Checks a certificate file with the checker that knows only the rules (a win's, or a not-lost
one's, by the kind its header names): a dict with "accepted" (bool), "reason" (why it was rejected),
"kind" ("win" or "not lost"), "variant", "position", "winner" (a win: "side to move" or "other side"; else
None), "defender" (not lost: the side that cannot lose; else None), "nodes" and "plies" (a win: the longest
game its strategy allows). A path where no file is raises FileNotFoundError; a file that is not a valid
certificate is a rejection.)doc");
}

}  // namespace gobblet::python
