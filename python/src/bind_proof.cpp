// gobblet.prove() and Proof: the prover (proof/prover.h) from Python, and
// gobblet.check_certificate(), the independent checker (proof/check.h).
#include <filesystem>
#include <optional>
#include <system_error>
#include <string>

#include <pybind11/stl.h>

#include "bindings.h"
#include "engine/notation.h"
#include "errors.h"
#include "interruptible.h"
#include "proof/certified.h"
#include "proof/check.h"
#include "proof/prover.h"
#include "python_game.h"

namespace py = pybind11;

namespace gobblet::python {
namespace {

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

  void writeCertificate(const std::string& path) const {
    if (!certificate) throw std::invalid_argument("no certificate: the prover proved no win or loss");
    if (absl::Status st = proof::writeCertificate(*certificate, path); !st.ok())
      throw TablebaseError(std::string(st.message()));
  }
};

Proof prove(const PythonGame& game, std::optional<uint64_t> nodes, std::optional<double> seconds, size_t hashMiB,
            int threads) {
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
  // Ctrl-C stops the search; the answer is then "unknown".
  absl::StatusOr<proof::ProofResult> r = interruptible([&](const std::atomic<bool>& stop) {
    proof::ProverOptions stoppable = options;
    stoppable.stop = &stop;
    return proof::prove(board, stoppable);
  });
  if (!r.ok()) throw std::invalid_argument(std::string(r.status().message()));
  proof::certify(*r, options.history);  // (a win or a loss only once the checker accepts its certificate)
  Proof p;
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
      .def_property_readonly(
          "certificate_nodes", [](const Proof& p) { return p.certificate ? p.certificate->nodes.size() : 0; },
          "The certificate's nodes (0 without one).")
      .def("write_certificate", &Proof::writeCertificate, py::arg("path"),
           "Writes the certificate (docs/proof.md) that check_certificate() and `gobblet-prove check` verify.")
      .def("__repr__", [](const Proof& p) {
        return "<Proof " + p.outcome + (p.plies ? " in " + std::to_string(*p.plies) + " plies" : "") +
               (p.move ? " by " + *p.move : "") + ">";
      });

  m.def("prove", &prove, py::arg("game"), py::kw_only(), py::arg("nodes") = py::none(), py::arg("seconds") = py::none(),
        py::arg("hash_mib") = 64, py::arg("threads") = 1,
        R"doc(Decides the game's position by proof-number search (docs/proof.md): a Proof whose outcome
is "win" (with the winning move), "loss", "draw" or "unknown" (the budget ran out, or Ctrl-C). Budget:
`nodes` (at least 1) and `seconds` (more than 0); None is no limit (then only Ctrl-C ends a hard one). A win or
a loss comes with a certificate that the independent checker has accepted (else it is "unknown"). The prover sees the
position alone, not the game's earlier positions. Raises GameOverError at a finished game.)doc");

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
