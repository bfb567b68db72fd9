// gobblet built without the network server (no Boost): no server options,
// never a server.
#include "serve.h"

namespace gobblet {

std::vector<cli::Option> serverOptions() { return {}; }

std::optional<int> serveIfAsked(const cli::Program&, const cli::Arguments&, const HostedDatabases&) {
  return std::nullopt;
}

}  // namespace gobblet
