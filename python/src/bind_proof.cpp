// gobblet.prove() and Proof: the prover (proof/prover.h) from Python,
// gobblet.check_certificate(), the independent checker (proof/check.h), and
// gobblet.ProofDatabase, a proof database (proof/database.h) that prove()
// starts from and adds to.
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <string>
#include <tuple>
#include <utility>
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
// store_proof.h storedProof): (winner, plies) with winner "side to move" or
// "other side" and the checker's plies, or None; ValueError where the
// checker rejects the entry.
std::optional<std::tuple<std::string, int>> lookUp(ProofDatabaseHandle& h, const PositionArg& position) {
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
  {
    py::gil_scoped_release release;
    std::lock_guard lock(h.mutex);
    stored = proof::storedProof(*h.database, board);
  }
  if (absl::IsNotFound(stored.status())) return std::nullopt;
  if (!stored.ok())
    throw std::invalid_argument("ProofDatabase.lookup: the entry of " + positionToString(board) +
                                " is rejected: " + std::string(stored.status().message()));
  return std::make_tuple(std::string(stored->outcome == proof::Outcome::kWin ? "side to move" : "other side"),
                         stored->plies);
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

  void writeCertificate(const std::string& path) const {
    if (!certificate) throw std::invalid_argument("no certificate: the prover proved no win or loss");
    if (absl::Status st = proof::writeCertificate(*certificate, path); !st.ok())
      throw TablebaseError(std::string(st.message()));
  }
};

Proof prove(const PythonGame& game, std::optional<uint64_t> nodes, std::optional<double> seconds, size_t hashMiB,
            int threads, ProofDatabaseHandle* database) {
  if (game.game().result() != GameResult::kNone) throw GameOverError("prove: the game is over");
  if (hashMiB < 1 || hashMiB > 65536) throw std::invalid_argument("hash_mib: from 1 to 65536");
  if (threads < 1 || threads > 256) throw std::invalid_argument("threads: from 1 to 256");
  if (seconds && !(*seconds > 0)) throw std::invalid_argument("seconds: more than 0 (None: no limit)");
  if (nodes && *nodes == 0) throw std::invalid_argument("nodes: at least 1 (None: no limit)");
  proof::ProverOptions options;
  options.maxNodes = nodes.value_or(0);
  options.maxSeconds = seconds.value_or(0);
  options.hashMiB = hashMiB;
  options.threads = threads;
  options.history = game.game().positionsSinceLastDrop();  // (the proof holds in this game, its repetitions counted)
  const Board board = game.board();
  std::unique_lock<std::mutex> lock;
  if (database) {
    if (!(database->database->variant() == board.variant()))
      throw VariantError("a game of " + board.variant().name() + " proved with a proof database of " +
                         database->database->variant().name());
    py::gil_scoped_release release;
    lock = std::unique_lock(database->mutex);
    options.database = database->database.get();
  }
  // Ctrl-C stops the search; the answer is then "unknown".
  absl::StatusOr<proof::ProofResult> r = interruptible([&](const std::atomic<bool>& stop) {
    proof::ProverOptions stoppable = options;
    stoppable.stop = &stop;
    return proof::prove(board, stoppable);
  });
  if (!r.ok()) throw std::invalid_argument(std::string(r.status().message()));
  proof::certify(*r, options.history, options.database);  // (a win or a loss only once the checker accepts it)
  Proof p;
  if (database && database->writable) {
    p.stored = 0;
    if (r->certified) {  // the root and the positions its strategy reaches by a drop
      absl::StatusOr<proof::StoredProof> stored = absl::UnknownError("");
      {
        py::gil_scoped_release release;
        stored = proof::storeProof(*database->database, *r->certificate);
      }
      if (!stored.ok())
        throw TablebaseError("prove: nothing appended to " + database->path + ": " +
                             std::string(stored.status().message()));
      p.stored = stored->appended;
    }
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

}  // namespace

void bindProof(py::module_& m) {
  py::class_<Proof>(m, "Proof", "What prove() found, for the side to move.")
      .def_readonly("outcome", &Proof::outcome, "\"win\", \"loss\", \"draw\" or \"unknown\".")
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

  py::class_<ProofDatabaseHandle>(m, "ProofDatabase", R"doc(
A proof database file (docs/proof.md): positions proved won or lost, each with the certificate that
proves it, found under every symmetry of the board. writable=False opens an existing file for reading;
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
           "where the game's history since its last drop is empty (docs/proof.md).")
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
            d["nodes"] = report.nodes;
            return d;
          },
          R"doc(Checks the whole file by the rules alone, as `gobblet-prove db check` does: a dict with
"accepted", "reason" (the first bad entry, by its number, or what is wrong with the file), "bad_entry"
(None if none), "variant", "entries", "won", "lost" (entries by the winner, side to move first) and "nodes".)doc")
      .def("__repr__", [](const ProofDatabaseHandle& h) {
        return "<ProofDatabase '" + h.path + "' " + h.database->variant().name() + ", " +
               std::to_string(h.database->entries()) + " entries" + (h.writable ? "" : ", read-only") + ">";
      });

  m.def("prove", &prove, py::arg("game"), py::kw_only(), py::arg("nodes") = py::none(), py::arg("seconds") = py::none(),
        py::arg("hash_mib") = 64, py::arg("threads") = 1, py::arg("database") = nullptr,
        R"doc(Decides the game's position by proof-number search (docs/proof.md): a Proof whose outcome
is "win" (with the winning move), "loss", "draw" or "unknown" (the budget ran out, or Ctrl-C). Budget:
`nodes` (at least 1) and `seconds` (more than 0); None is no limit (then only Ctrl-C ends a hard one). A win or
a loss comes with a certificate that the independent checker has accepted (else it is "unknown"). The proof holds in
the game: it reaches none of the game's positions since its last drop. `database` (a ProofDatabase of the game's
variant): the prover starts from the positions it holds, and a writable one gets what is proved (Proof.stored).
Raises GameOverError at a finished game.)doc");

  m.def(
      "check_certificate",
      [](const std::string& path) {
        if (std::error_code error; !std::filesystem::exists(path, error)) {
          throwNotFound(path);  // an OSError, as open() raises, not a rejected certificate
        }
        proof::CheckReport report;
        {
          py::gil_scoped_release release;
          report = proof::checkCertificateFile(path);
        }
        py::dict d;
        d["accepted"] = report.accepted;
        d["reason"] = report.reason;
        d["variant"] = report.variant;
        d["position"] = report.position;
        d["winner"] = report.winner == 0 ? "side to move" : "other side";
        d["nodes"] = report.nodes;
        d["plies"] = report.plies;
        return d;
      },
      py::arg("path"),
      R"doc(Checks a certificate file with the checker that knows only the rules: a dict with "accepted"
(bool), "reason" (why it was rejected), "variant", "position", "winner", "nodes" and "plies". A path where
no file is raises FileNotFoundError; a file that is not a valid certificate is a rejection.)doc");
}

}  // namespace gobblet::python
