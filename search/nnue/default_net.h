// The bytes of the net built into every program: search/nnue/default.gnn,
// embedded at build time (embed_net.cmake). docs/nnue.md says how it was made.
#pragma once

#include <string_view>

namespace gobblet::nnue {

std::string_view defaultNetBytes();

}  // namespace gobblet::nnue
