// Files a controller names that are no net: a FIFO given as EvalFile is
// refused at once with an error, and the engine goes on answering (opening
// a FIFO waits for a writer: on the input thread, the engine would never
// read another line).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <string>
#include <vector>

#include "tests/support/engine_client.h"
#include "tests/support/scratch_dir.h"

namespace gobblet {
namespace {

using testing::EngineProcess;
using testing::Ms;

TEST(ProtocolHostileFiles, AFifoAsEvalFileIsRefusedAndTheEngineAnswers) {
  testing::ScratchDir dir("gobblet_evalfile_fifo");
  const std::string fifo = dir.file("net.gnn");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EngineProcess e;
  e.send("setoption name EvalFile value " + fifo);
  e.send("isready");
  std::vector<std::string> seen;
  EXPECT_TRUE(e.until("readyok", Ms(10000), &seen)) << "the engine hangs on the FIFO";
  bool refused = false;
  for (const std::string& line : seen) refused |= line.find("not a regular file") != std::string::npos;
  EXPECT_TRUE(refused) << "no error said why";
  e.send("quit");
  EXPECT_TRUE(e.waitExit(Ms(10000)));
}

}  // namespace
}  // namespace gobblet
