// gobblet's network server from its command line (serve.h): --listen (UGI
// over TCP, one session per connection) and --http (the browser board, UGI
// over WebSocket), with the options of a server shared by many clients.
#include "serve.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/printable_text.h"
#include "protocol/engine_options.h"
#include "server/http_server.h"
#include "server/process_memory.h"
#include "server/tcp_server.h"
#include "server/token_auth.h"

namespace gobblet {
namespace {

// A server's defaults per session: a small Hash, one thread each.
constexpr int64_t kServerHashMiB = 256;
constexpr int64_t kServerThreads = 1;

// The options that only mean something with --listen or --http.
constexpr const char* kServerOnlyOptions[] = {"--token",        "--token-file",  "--max-sessions",
                                              "--max-hash",     "--hash-budget", "--max-threads",
                                              "--idle-timeout", "--io-threads",  "--allow-host"};

// The environment variable a server reads its token from when no option
// gives one (server/token_auth.h says which source to prefer).
constexpr const char* kTokenVariable = "GOBBLET_TOKEN";

// A server's defaults: per session a small Hash, one thread, perft kept
// to about a second (it shares the server's cores), no bench.
ServerConfig defaultServerConfig() {
  ServerConfig server;
  server.hashBudgetMiB = defaultHashBudgetMiB(processMemoryBounds());
  server.session.caps.maxHashMiB = std::min(kServerHashMiB, server.hashBudgetMiB);
  server.session.caps.maxThreads = kServerThreads;
  server.session.caps.tablebasePathSettable = false;
  server.session.maxPerftDepth = 4;
  server.session.benchAllowed = false;
  return server;
}

}  // namespace

std::vector<cli::Option> serverOptions() {
  const ServerConfig server = defaultServerConfig();
  const OptionDeclaration& hash = declarationOf(OptionId::kHash);
  const OptionDeclaration& threads = declarationOf(OptionId::kThreads);
  return {
      cli::text("--listen", "[HOST:]PORT",
                "serve the protocol over TCP, one session per connection (host 127.0.0.1 "
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
                   "server: all sessions' Hash together (default: a quarter of this machine's memory, at most "
                   "half of this process's limit: RLIMIT_AS, RLIMIT_DATA, cgroup)")
          .withDefault(server.hashBudgetMiB),
      cli::integer("--max-threads", "N", threads.min, threads.max, "server: per-session Threads cap")
          .withDefault(server.session.caps.maxThreads),
      cli::integer("--idle-timeout", "SECONDS", 1, 1 << 24, "server: close clients silent this long")
          .withDefault(server.connection.idleTimeout.count()),
      cli::integer("--io-threads", "N", 1, 1024, "server: network threads, by default from the number of cores"),
  };
}

std::optional<int> serveIfAsked(const cli::Program& program, const cli::Arguments& args,
                                const HostedDatabases& hosted) {
  const auto usage = [&program](absl::string_view why) { return cli::usageError(program, why); };
  ServerConfig server = defaultServerConfig();
  server.session.hostedDatabases = hosted;
  std::string tokenFromEnvironment;
  bool tokenInEnvironment = false;  // set, even empty (an empty token is refused, not ignored)
  if (char* value = std::getenv(kTokenVariable)) {
    tokenFromEnvironment = value;
    tokenInEnvironment = true;
    // Wipe it where the process started with it: unsetenv alone leaves the
    // bytes in /proc/PID/environ.
    std::fill(value, value + tokenFromEnvironment.size(), '\0');
  }
  if (args.has("--listen") && args.has("--http")) return usage("--http and --listen: choose one");
  if (args.has("--listen") || args.has("--http")) {
    const std::string address = args.text(args.has("--http") ? "--http" : "--listen");
    if (auto st = parseListenAddress(address, server); !st.ok()) return usage(st.message());
  } else {
    unsetenv(kTokenVariable);
    for (const char* option : kServerOnlyOptions)
      if (args.has(option)) return usage("server options need --listen or --http");
    return std::nullopt;
  }
  // The token: from a file, the environment, or (visible to every local
  // user) the command line — server/token_auth.h.
  if (args.has("--token") && args.has("--token-file")) return usage("--token and --token-file: choose one");
  if (args.has("--token-file")) {
    std::string warning;
    auto token = readTokenFile(args.text("--token-file"), &warning);
    if (!token.ok()) return usage(token.status().message());
    if (!warning.empty()) std::fprintf(stderr, "gobblet: warning: %s\n", warning.c_str());
    server.connection.token = *std::move(token);
  } else if (args.has("--token")) {
    server.connection.token = args.text("--token");
    if (absl::Status st = checkToken(server.connection.token); !st.ok())
      return usage("--token: " + std::string(st.message()));
  } else if (tokenInEnvironment) {
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
  if (const auto limit = processMemoryLimit(processMemoryBounds());
      limit && server.hashBudgetMiB > limit->bytes / (int64_t{1} << 20))
    return usage("--hash-budget " + std::to_string(server.hashBudgetMiB) + " MiB is more than this process may hold (" +
                 limit->name + ": " + std::to_string(limit->bytes >> 20) + " MiB)");
  server.session.caps.maxThreads = args.integer("--max-threads");
  server.connection.idleTimeout = std::chrono::seconds(args.integer("--idle-timeout"));
  server.ioThreads = static_cast<int>(args.integer("--io-threads"));
  if (args.has("--http")) {  // the browser board: see server/http_server.h
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

}  // namespace gobblet
