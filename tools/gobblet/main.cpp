// gobblet: the engine. Speaks UGI (and the UCI spellings) on stdin/stdout,
// or serves the same protocol over TCP, one session per connection:
//
//   gobblet [--tablebase-dir DIR] [--proof-db FILE]... [--param NAME=VALUE]...
//   gobblet --listen [HOST:]PORT [--token-file FILE | --token T] [--max-sessions N] [--max-hash MiB]
//           [--max-threads N] [--idle-timeout SECONDS] [--io-threads N]
//           [--tablebase-dir DIR] [--param NAME=VALUE]...
//   gobblet --http [HOST:]PORT [the same server options]   the browser board
//   gobblet --params                                        the tuning values
//
// See docs/protocol.md; the options are declared in commandLine() below.
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>

#include "engine/printable_text.h"
#include "protocol/stdio_transport.h"
#include "search/search_params.h"
#include "serve.h"
#include "tools/command_line/command_line.h"

namespace cli = gobblet::cli;

namespace {

// What the engine accepts (the server's options from serve.h).
cli::Program commandLine() {
  cli::Program p;
  p.name = "gobblet";
  p.summary =
      "The Gobblet engine: UGI (and the UCI spellings) on stdin/stdout; with --listen the same protocol over TCP, "
      "one session per connection; with --http the browser board, and UGI over WebSocket.";
  p.usage = {
      "[--tablebase-dir DIR] [--proof-db FILE]... [--param NAME=VALUE]...",
      "--listen [HOST:]PORT [--tablebase-dir DIR] [--proof-db FILE]... [--param NAME=VALUE]... [server options]",
      "--http [HOST:]PORT [--tablebase-dir DIR] [--proof-db FILE]... [--param NAME=VALUE]... [server options]",
      "--params [--param NAME=VALUE]...",
  };
  p.syntax.options = {
      cli::text("--tablebase-dir", "DIR",
                "where the 3x3 tablebases are (default $GOBBLET_TB_DIR, else $XDG_DATA_HOME/gobblet, else "
                "~/.local/share/gobblet)"),
      cli::text("--proof-db", "FILE",
                "a proof database every session reads, for its variant (checked whole first; read only)")
          .repeated(),
      cli::text("--param", "NAME=VALUE", "a search tuning value").repeated(),
      cli::flag("--params", "list the search tuning values, their defaults and ranges, and exit"),
  };
  for (cli::Option& option : gobblet::serverOptions()) p.syntax.options.push_back(std::move(option));
  p.notes = "docs/protocol.md describes the protocol, the options and the server.";
  p.errorPrefix = "gobblet: ";
  return p;
}

// The engine, with the arguments checked: on stdin/stdout, or serving.
int runEngine(const cli::Program& program, const cli::Arguments& args, const cli::UsageFn& usage) {
  using namespace gobblet;
  for (const std::string& param : args.all("--param"))  // a search tuning value: see search/search_params.h
    if (absl::Status st = setSearchParam(param); !st.ok()) return usage(st.message());
  if (args.has("--params")) {
    for (const std::string& line : describeSearchParams()) std::printf("%s\n", line.c_str());
    return 0;
  }
  const std::string tablebaseDir = args.text("--tablebase-dir");
  if (args.has("--tablebase-dir")) {
    std::error_code ec;
    if (tablebaseDir.empty() || !std::filesystem::is_directory(tablebaseDir, ec))
      return usage("--tablebase-dir: " + quoteWord(tablebaseDir) + " is not a directory");
  }
  // Every session, on stdin or over TCP, finds its variant's file through
  // tb::defaultPath, which reads GOBBLET_TB_DIR: the flag overrides
  // the environment and the XDG default (the TablebasePath option, where it
  // may be set, still overrides the flag).
  if (!tablebaseDir.empty()) setenv("GOBBLET_TB_DIR", tablebaseDir.c_str(), 1);
  const absl::StatusOr<gobblet::HostedDatabases> hosted = gobblet::openHostedDatabases(args.all("--proof-db"));
  if (!hosted.ok()) return usage(hosted.status().message());
  if (const std::optional<int> status = serveIfAsked(program, args, *hosted)) return *status;
  gobblet::SessionConfig config;
  config.hostedDatabases = *hosted;
  return runStdio(0, 1, config);
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe or socket is an error code, not a death
  const cli::Program program = commandLine();
  return cli::runMain(program, argc, argv, [&program](const cli::Arguments& args, const cli::UsageFn& usage) {
    return runEngine(program, args, usage);
  });
}
