#pragma once
// spindle-osc: sends one signed OSC message to a Spindle, like oscsend, and prints the
// replies that arrive within the wait, like oscdump. Signed replies are verified (MAC,
// a counter within 30 s of this host's clock, and their route: from the receiver the
// message was signed for, to this sender); an unsigned one (a refusal) is printed with
// "unsigned" in front; a reply that fails verification is not printed.
//
//   spindle-osc --secret-file F [--identity NAME] [--to NAME] [--wait MS] [--dump-packet FILE]
//               HOST PORT /address [types [args...]]
//   spindle-osc [--secret-file F] --send-packet FILE HOST PORT   (bytes as dumped, unchanged)
//
// Exit status: 0 sent (and no /spindle/error came back), 1 an error reply or a reply
// that failed verification, 2 wrong arguments or the secret file refused, 3 not sent.
//
// Thread: the main thread.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "control/OscAuth.h"
#include "control/OscMessage.h"

namespace spindle::tools {

// The message oscsend would build from `types` and `values` (types i h f d s S T F N).
std::optional<control::OscMessage> buildMessage(const std::string& path, const std::string& types,
                                                const std::vector<std::string>& values, std::string& error);

// How one reply packet reads: its messages (described), whether it was signed and
// verified along `expected` (the reply's sender and receiver); nullopt with `error` when
// it is signed but does not verify.
struct ReadReply {
  std::vector<std::string> lines;
  bool verified = false;
  bool error = false;  // it holds a /spindle/error
};
std::optional<ReadReply> readReply(const control::Bytes& secret, const control::SignedRoute& expected,
                                   control::Bytes packet, int64_t nowUs, std::string& error);

int runOscClient(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace spindle::tools
