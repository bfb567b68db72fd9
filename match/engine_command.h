// EngineCommand: how an engine's command line is run, and what it names.
//
// A command goes to /bin/sh as "exec <command>", so it may carry arguments,
// quotes and redirections, and the engine takes the shell's place (its exit
// status is the engine's). A command may start with environment assignments,
// "NAME=VALUE ... program args", as in a shell: they are set for the engine
// only. It is then run as "exec env NAME=VALUE ... program args", because
// sh would take "exec NAME=VALUE" for a program called "NAME=VALUE" (which
// exits 127, as if the engine had crashed).
#pragma once

#include <string>

namespace gobblet::match {

// The text given to sh -c for `command` (see above).
std::string shellCommandFor(const std::string& command);

// The program `command` runs -- its first word that is not a NAME=VALUE
// assignment, quotes removed -- without its folder: "A=1 ./build/gobblet -q"
// gives "gobblet". Empty if the command holds nothing but assignments.
std::string programName(const std::string& command);

}  // namespace gobblet::match
