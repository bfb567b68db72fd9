// gobblet: the engine. Speaks UGI (and the UCI spellings) on stdin/stdout,
// or serves the same protocol over TCP, one session per connection:
//
//   gobblet [--tablebase-dir DIR]
//   gobblet --listen [HOST:]PORT [--token T] [--max-sessions N] [--max-hash MiB]
//           [--max-threads N] [--idle-timeout SECONDS] [--io-threads N]
//           [--tablebase-dir DIR]
//   gobblet --http [HOST:]PORT [the same server options]   the browser board
//
// See docs/protocol.md.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "engine/bounded_integer.h"
#include "protocol/engine_options.h"
#include "protocol/http_server.h"
#include "protocol/stdio_transport.h"
#include "protocol/tcp_server.h"
#include "search/search_params.h"

namespace {

// A server's defaults per session: a small Hash, one thread each.
constexpr int64_t kServerHashMiB = 256;
constexpr int64_t kServerThreads = 1;

int usage(const std::string& why) {
  using gobblet::OptionId;
  const int64_t maxHash = gobblet::declarationOf(OptionId::kHash).max;
  const int64_t maxThreads = gobblet::declarationOf(OptionId::kThreads).max;
  std::fprintf(stderr,
               "gobblet: %s\n"
               "usage: gobblet                       UGI/UCI on stdin/stdout\n"
               "               [--tablebase-dir DIR] where the 3x3 tablebases are (default $GOBBLET_TB_DIR,\n"
               "                                     else $XDG_DATA_HOME/gobblet, else ~/.local/share/gobblet)\n"
               "       gobblet --listen [HOST:]PORT  the same protocol over TCP (default host 127.0.0.1)\n"
               "               [--token T]           clients must first send 'auth T'\n"
               "               [--max-sessions N]    concurrent connections (default 64)\n"
               "               [--max-hash MiB]      per-session Hash cap, 1..%lld (default %lld)\n"
               "               [--max-threads N]     per-session Threads cap, 1..%lld (default %lld)\n"
               "               [--idle-timeout S]    close clients silent this long (default 300)\n"
               "               [--io-threads N]      network threads (default: from the core count)\n"
               "       gobblet --http [HOST:]PORT    the browser board at http://HOST:PORT/ and UGI over\n"
               "                                     WebSocket at /ugi, with the same server options\n"
               "       any of them [--param NAME=VALUE]  a search tuning value (repeatable)\n"
               "       gobblet --params              lists the tuning values, defaults and ranges\n",
               why.c_str(), static_cast<long long>(maxHash), static_cast<long long>(kServerHashMiB),
               static_cast<long long>(maxThreads), static_cast<long long>(kServerThreads));
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gobblet;
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe or socket is an error code, not a death

  std::string listen, http, tablebaseDir;
  bool serverOnly = false;  // an option that only means something with --listen
  ServerConfig server;
  server.session.caps.maxHashMiB = kServerHashMiB;
  server.session.caps.maxThreads = kServerThreads;
  server.session.caps.tablebasePathSettable = false;
  server.session.maxPerftDepth = 4;  // perft shares the server's cores: keep it to about a second
  server.session.benchAllowed = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") return usage("help"), 0;
    if (arg == "--params") {
      for (const std::string& line : describeSearchParams()) std::printf("%s\n", line.c_str());
      return 0;
    }
    if (i + 1 >= argc) return usage("unknown or incomplete argument '" + arg + "'");
    const std::string value = argv[++i];
    // A number flag: its value in [lo, hi], else a usage error naming both.
    const auto number = [&](int64_t lo, int64_t hi, int64_t& out) {
      auto n = parseBoundedInteger(value, lo, hi, arg);
      if (n.ok()) out = *n;
      return n.status();
    };
    int64_t n = 0;
    absl::Status bad;
    const OptionDeclaration& hash = declarationOf(OptionId::kHash);
    const OptionDeclaration& threads = declarationOf(OptionId::kThreads);
    if (arg != "--listen" && arg != "--tablebase-dir" && arg != "--http" && arg != "--param") serverOnly = true;
    if (arg == "--param") {  // a search tuning value: see search/search_params.h
      bad = setSearchParam(value);
    } else if (arg == "--tablebase-dir") {
      std::error_code ec;
      if (value.empty() || !std::filesystem::is_directory(value, ec))
        return usage("--tablebase-dir: '" + value + "' is not a directory");
      tablebaseDir = value;
    } else if (arg == "--listen") {
      listen = value;
      if (auto st = parseListenAddress(value, server); !st.ok()) return usage(std::string(st.message()));
    } else if (arg == "--http") {  // the browser board: see protocol/http_server.h
      http = value;
      if (auto st = parseListenAddress(value, server); !st.ok()) return usage(std::string(st.message()));
    } else if (arg == "--token") {
      if (value.empty() || value.find_first_of(" \t\r\n") != std::string::npos)
        return usage("the token must be one word");
      server.connection.token = value;
    } else if (arg == "--max-sessions") {
      if ((bad = number(1, 100000, n)).ok()) server.maxSessions = static_cast<int>(n);
    } else if (arg == "--max-hash") {
      if ((bad = number(hash.min, hash.max, n)).ok()) server.session.caps.maxHashMiB = n;
    } else if (arg == "--max-threads") {
      if ((bad = number(threads.min, threads.max, n)).ok()) server.session.caps.maxThreads = n;
    } else if (arg == "--idle-timeout") {
      if ((bad = number(1, 1 << 24, n)).ok()) server.connection.idleTimeout = std::chrono::seconds(n);
    } else if (arg == "--io-threads") {
      if ((bad = number(1, 1024, n)).ok()) server.ioThreads = static_cast<int>(n);
    } else {
      return usage("unknown argument '" + arg + "'");
    }
    if (!bad.ok()) return usage(std::string(bad.message()));
  }
  // Every session, on stdin or over TCP, finds its variant's file through
  // tb::defaultPath, which reads GOBBLET_TB_DIR: the flag overrides
  // the environment and the XDG default (the TablebasePath option, where it
  // may be set, still overrides the flag).
  if (!tablebaseDir.empty()) setenv("GOBBLET_TB_DIR", tablebaseDir.c_str(), 1);
  if (!http.empty()) {
    if (!listen.empty()) return usage("--http and --listen: choose one");
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
  if (listen.empty()) {
    if (serverOnly) return usage("server options need --listen or --http");
    return runStdio(0, 1);
  }

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
