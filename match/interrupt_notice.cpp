#include "interrupt_notice.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstring>

namespace gobblet::match {
namespace {

// The notice's texts, made before the handlers are installed: a handler
// may only write (no allocation, no stdio).
constexpr size_t kTextBytes = 4096;
char before[kTextBytes], after[kTextBytes];                  // around the count, while games are still to play
char completeBefore[kTextBytes], completeAfter[kTextBytes];  // the same once the match is complete
std::atomic<int> gamesRecorded{0};
std::atomic<int64_t> gamesInMatch{0};
std::atomic<bool> matchOver{false};  // noticeMatchOver() was called
std::atomic<bool> writing{false};    // a RecordWriting is held
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<int64_t>::is_always_lock_free &&
              std::atomic<bool>::is_always_lock_free);

void writeAll(const char* text, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(STDERR_FILENO, text, size);
    if (n <= 0) return;
    text += n, size -= static_cast<size_t>(n);
  }
}

extern "C" void onInterrupt(int signal) {
  while (writing.load()) {
  }  // (never on the writing thread: it blocks these signals)
  const char* name = signal == SIGINT ? "\ngobblet-match: SIGINT" : "\ngobblet-match: SIGTERM";
  const int games = gamesRecorded.load();
  const bool complete = matchOver.load() || games >= gamesInMatch.load();
  const char* head = complete ? completeBefore : before;
  const char* tail = complete ? completeAfter : after;
  writeAll(name, std::strlen(name));
  writeAll(head, std::strlen(head));
  if (tail[0] != '\0') {
    if (games >= gamesInMatch.load()) writeAll("all ", 4);
    char digits[16];
    int n = 0;
    for (unsigned left = static_cast<unsigned>(games); n == 0 || left > 0; left /= 10)
      digits[n++] = static_cast<char>('0' + left % 10);
    while (n > 0) writeAll(&digits[--n], 1);
    writeAll(tail, std::strlen(tail));
  }
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

// `text` into `out`, cut to fit.
void copyText(char* out, const std::string& text) {
  const size_t n = std::min(text.size(), kTextBytes - 1);
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
}

}  // namespace

void installInterruptNotice(const std::string& recordPath, int games, int64_t matchGames) {
  gamesRecorded = games;
  gamesInMatch = matchGames;
  matchOver = false;
  if (recordPath.empty()) {
    copyText(before, ": no --record was given, the games are not kept\n");
    copyText(after, "");
    copyText(completeBefore, ": the match is complete; no --record was given, the games are not kept\n");
    copyText(completeAfter, "");
  } else {
    copyText(before, ": the record " + recordPath + " holds ");
    copyText(after, " games; to play the others, run the same command with --resume " + recordPath + "\n");
    copyText(completeBefore, ": the match is complete: the record " + recordPath + " holds ");
    copyText(completeAfter, " games\n");
  }
  struct sigaction action {};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

void noticeRecorded(int games) { gamesRecorded = games; }

void noticeMatchOver() { matchOver = true; }

RecordWriting::RecordWriting() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, &before_);
  writing = true;
}

RecordWriting::~RecordWriting() {
  writing = false;
  pthread_sigmask(SIG_SETMASK, &before_, nullptr);
}

}  // namespace gobblet::match
