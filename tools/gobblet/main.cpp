// gobblet: the engine. Speaks UGI (and the UCI spellings) on stdin/stdout,
// or serves the same protocol over TCP, one session per connection:
//
//   gobblet [--tablebase-dir DIR] [--param NAME=VALUE]...
//   gobblet --listen [HOST:]PORT [--token-file FILE | --token T] [--max-sessions N] [--max-hash MiB]
//           [--max-threads N] [--idle-timeout SECONDS] [--io-threads N]
//           [--tablebase-dir DIR] [--param NAME=VALUE]...
//   gobblet --http [HOST:]PORT [the same server options]   the browser board
//   gobblet --params                                        the tuning values
//
// See docs/protocol.md; the options are declared in commandLine() below.
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "engine/printable_text.h"
#include "protocol/engine_options.h"
#include "protocol/http_server.h"
#include "protocol/stdio_transport.h"
#include "protocol/tcp_server.h"
#include "protocol/token_auth.h"
#include "search/search_params.h"
#include "tools/command_line/command_line.h"

namespace cli = gobblet::cli;

namespace {

// A server's defaults per session: a small Hash, one thread each.
constexpr int64_t kServerHashMiB = 256;
constexpr int64_t kServerThreads = 1;

// The default hash budget of a server (all its sessions' tables together):
// a quarter of the machine's memory, so that a full server leaves the rest
// to the machine (64 sessions at the 256 MiB cap would be 16 GiB).
int64_t defaultHashBudgetMiB() {
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0) return 1024;
  return std::max<int64_t>(64, static_cast<int64_t>(pages) * pageSize / (int64_t{1} << 20) / 4);
}

// The options that only mean something with --listen or --http.
constexpr const char* kServerOnlyOptions[] = {"--token",       "--token-file",   "--max-sessions", "--max-hash",
                                              "--hash-budget", "--max-threads",  "--idle-timeout", "--io-threads",
                                              "--allow-host"};

// The environment variable a server reads its token from when no option
// gives one (protocol/token_auth.h says which source to prefer).
constexpr const char* kTokenVariable = "GOBBLET_TOKEN";

// What the engine accepts. `server` holds a server's defaults, which the
// help gives.
cli::Program commandLine(const gobblet::ServerConfig& server) {
  using gobblet::OptionId;
  const gobblet::OptionDeclaration& hash = gobblet::declarationOf(OptionId::kHash);
  const gobblet::OptionDeclaration& threads = gobblet::declarationOf(OptionId::kThreads);
  cli::Program p;
  p.name = "gobblet";
  p.summary =
      "The Gobblet engine: UGI (and the UCI spellings) on stdin/stdout; with --listen the same protocol over TCP, "
      "one session per connection; with --http the browser board, and UGI over WebSocket.";
  p.usage = {
      "[--tablebase-dir DIR] [--param NAME=VALUE]...",
      "--listen [HOST:]PORT [--tablebase-dir DIR] [--param NAME=VALUE]... [server options]",
      "--http [HOST:]PORT [--tablebase-dir DIR] [--param NAME=VALUE]... [server options]",
      "--params [--param NAME=VALUE]...",
  };
  p.syntax.options = {
      cli::text("--tablebase-dir", "DIR",
                "where the 3x3 tablebases are (default $GOBBLET_TB_DIR, else $XDG_DATA_HOME/gobblet, else "
                "~/.local/share/gobblet)"),
      cli::text("--param", "NAME=VALUE", "a search tuning value").repeated(),
      cli::flag("--params", "list the search tuning values, their defaults and ranges, and exit"),
      cli::text("--listen", "[HOST:]PORT", "serve the protocol over TCP, one session per connection (host 127.0.0.1 "
                                           "unless given; port 0: any free port)"),
      cli::text("--http", "[HOST:]PORT", "serve the browser board at http://HOST:PORT/ and UGI over WebSocket at /ugi"),
      cli::text("--token-file", "FILE",
                "server: clients must first send 'auth T', T the first line of FILE (else $GOBBLET_TOKEN, if set)"),
      cli::text("--token", "T", "server: the same with T given here, where other users see it in ps"),
      cli::text("--allow-host", "NAME",
                "board: a name the page may be opened by besides the bound address and localhost "
                "(the board refuses other names, against DNS rebinding)")
          .repeated(),
      cli::integer("--max-sessions", "N", 1, 100000, "server: concurrent sessions").withDefault(server.maxSessions),
      cli::integer("--max-hash", "MiB", hash.min, hash.max, "server: per-session Hash cap")
          .withDefault(server.session.caps.maxHashMiB),
      cli::integer("--hash-budget", "MiB", 1, int64_t{1} << 30,
                   "server: all sessions' Hash together (default: a quarter of this machine's memory)")
          .withDefault(server.hashBudgetMiB),
      cli::integer("--max-threads", "N", threads.min, threads.max, "server: per-session Threads cap")
          .withDefault(server.session.caps.maxThreads),
      cli::integer("--idle-timeout", "SECONDS", 1, 1 << 24, "server: close clients silent this long")
          .withDefault(server.connection.idleTimeout.count()),
      cli::integer("--io-threads", "N", 1, 1024, "server: network threads, by default from the number of cores"),
  };
  p.notes = "docs/protocol.md describes the protocol, the options and the server.";
  p.errorPrefix = "gobblet: ";
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gobblet;
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe or socket is an error code, not a death

  ServerConfig server;
  server.hashBudgetMiB = defaultHashBudgetMiB();
  server.session.caps.maxHashMiB = std::min(kServerHashMiB, server.hashBudgetMiB);
  server.session.caps.maxThreads = kServerThreads;
  server.session.caps.tablebasePathSettable = false;
  server.session.maxPerftDepth = 4;  // perft shares the server's cores: keep it to about a second
  server.session.benchAllowed = false;
  const cli::Program program = commandLine(server);
  const cli::ParsedCommandLine parsed = cli::parseCommandLine(program, argc, argv);
  if (!parsed.arguments) return parsed.exitCode;
  const cli::Arguments& args = *parsed.arguments;
  const auto usage = [&program](absl::string_view why) { return cli::usageError(program, why); };

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
  if (args.has("--listen") && args.has("--http")) return usage("--http and --listen: choose one");
  if (args.has("--listen") || args.has("--http")) {
    const std::string address = args.text(args.has("--http") ? "--http" : "--listen");
    if (auto st = parseListenAddress(address, server); !st.ok()) return usage(st.message());
  } else {
    for (const char* option : kServerOnlyOptions)
      if (args.has(option)) return usage("server options need --listen or --http");
  }
  // The token: from a file, the environment, or (visible to every local
  // user) the command line — protocol/token_auth.h.
  if (args.has("--token") && args.has("--token-file")) return usage("--token and --token-file: choose one");
  std::string tokenFromEnvironment;
  if (char* value = std::getenv(kTokenVariable)) {
    tokenFromEnvironment = value;
    // Wipe it where the process started with it: unsetenv alone leaves the
    // bytes in /proc/PID/environ.
    std::fill(value, value + tokenFromEnvironment.size(), '\0');
  }
  if (args.has("--token-file")) {
    std::string warning;
    auto token = readTokenFile(args.text("--token-file"), &warning);
    if (!token.ok()) return usage(token.status().message());
    if (!warning.empty()) std::fprintf(stderr, "gobblet: warning: %s\n", warning.c_str());
    server.connection.token = *std::move(token);
  } else if (args.has("--token")) {
    server.connection.token = args.text("--token");
    if (absl::Status st = checkToken(server.connection.token); !st.ok()) return usage("--token: " + std::string(st.message()));
  } else if (std::getenv(kTokenVariable) && (args.has("--listen") || args.has("--http"))) {
    server.connection.token = tokenFromEnvironment;
    if (absl::Status st = checkToken(server.connection.token); !st.ok())
      return usage(std::string(kTokenVariable) + ": " + std::string(st.message()));
  }
  unsetenv(kTokenVariable);
  for (const std::string& name : args.all("--allow-host")) {
    if (name.empty() || name.find_first_of(" \t\r\n/:[]") != std::string::npos)
      return usage("--allow-host takes a host name, not " + quoteWord(name));
    server.allowedHosts.push_back(name);
  }
  server.maxSessions = static_cast<int>(args.integer("--max-sessions"));
  server.session.caps.maxHashMiB = args.integer("--max-hash");
  server.hashBudgetMiB = args.integer("--hash-budget");
  server.session.caps.maxThreads = args.integer("--max-threads");
  server.connection.idleTimeout = std::chrono::seconds(args.integer("--idle-timeout"));
  server.ioThreads = static_cast<int>(args.integer("--io-threads"));
  // Every session, on stdin or over TCP, finds its variant's file through
  // tb::defaultPath, which reads GOBBLET_TB_DIR: the flag overrides
  // the environment and the XDG default (the TablebasePath option, where it
  // may be set, still overrides the flag).
  if (!tablebaseDir.empty()) setenv("GOBBLET_TB_DIR", tablebaseDir.c_str(), 1);
  if (args.has("--http")) {  // the browser board: see protocol/http_server.h
    HttpServer board(server);
    if (auto st = board.listen(); !st.ok()) {
      std::fprintf(stderr, "gobblet: %s\n", std::string(st.message()).c_str());
      return 1;
    }
    board.handleSignals();
    const bool v6 = server.host.find(':') != std::string::npos;
    std::fprintf(stderr, "gobblet: serving the board on http://%s%s%s:%u/\n", v6 ? "[" : "", server.host.c_str(),
                 v6 ? "]" : "", static_cast<unsigned>(board.port()));
    std::fflush(stderr);
    board.run();
    std::fprintf(stderr, "gobblet: stopped\n");
    return 0;
  }
  if (!args.has("--listen")) return runStdio(0, 1);

  TcpServer tcp(server);
  if (auto st = tcp.listen(); !st.ok()) {
    std::fprintf(stderr, "gobblet: %s\n", std::string(st.message()).c_str());
    return 1;
  }
  tcp.handleSignals();
  std::fprintf(stderr, "gobblet: listening on %s:%u\n", server.host.c_str(), static_cast<unsigned>(tcp.port()));
  std::fflush(stderr);
  tcp.run(/*handleSignals=*/false);
  std::fprintf(stderr, "gobblet: stopped\n");
  return 0;
}
