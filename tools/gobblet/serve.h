// The network server's part of gobblet's command line: --listen, --http and
// the options that only mean something with them. serve.cpp is it in a
// build with the server (gobblet::server, Boost); without_server.cpp in a
// build without Boost, where gobblet speaks on stdin/stdout only and the
// server's options are unknown words.
#pragma once

#include <optional>
#include <vector>

#include "proof_databases.h"
#include "tools/command_line/command_line.h"

namespace gobblet {

// The server's options, with their defaults, for gobblet's option table.
std::vector<cli::Option> serverOptions();

// When `args` ask for a server: runs it until it is stopped (SIGINT,
// SIGTERM) and returns the exit status, or the usage error's. Otherwise
// nullopt (a server-only option without --listen or --http is a usage
// error, returned). Reads, and then removes, $GOBBLET_TOKEN. Every session
// reads `hosted` (--proof-db).
std::optional<int> serveIfAsked(const cli::Program& program, const cli::Arguments& args, const HostedDatabases& hosted);

}  // namespace gobblet
