#pragma once
// OscApi: Spindle's OSC address space in one table: path, arguments (type, name,
// range), what it does, and the handler. /spindle/help, the OSC tables of docs/osc.md and
// the argument checks all come from this table, so they cannot drift apart.
//
//   incoming message ──► find(path) ──► check(entry, message) ──► entry.handle(call)
//                          │ none            │ wrong arity/type/range
//                          ▼                 ▼
//                     /spindle/error    /spindle/error   (path, reason)
//
// Wire numbering: parts and MIDI channels are 1..16, keys/velocities/controllers 0..127.
// Thread: the control thread (handlers call the ControlCore).
#include <optional>
#include <string>
#include <vector>

#include "control/OscMessage.h"

namespace spindle::control {

class ControlCore;

struct ArgSpec {
  char type = 'i';          // 'i' integer, 'f' number (i, h, f or d accepted), 's' string
  const char* name = "";
  double low = 0.0, high = 0.0;  // inclusive range for i and f; unused for s
};

struct OscCall {
  ControlCore& core;
  const OscMessage& message;

  int integer(std::size_t k) const { return static_cast<int>(message.args[k].number()); }
  float real(std::size_t k) const { return static_cast<float>(message.args[k].number()); }
  const std::string& text(std::size_t k) const { return message.args[k].text; }
};

struct OscEntry {
  const char* path = "";
  std::vector<ArgSpec> args;
  const char* doc = "";
  void (*handle)(OscCall& call) = nullptr;

  std::string typespec() const;
  std::string signature() const;  // "part 1..16, path"
};

// Replies Spindle sends (documented with the table; not dispatched).
struct OscReplyDoc {
  const char* path;
  const char* typespec;
  const char* doc;
};

const std::vector<OscEntry>& oscApi();
const std::vector<OscReplyDoc>& oscReplies();
const OscEntry* findEntry(const std::string& path);
// Why `message` does not fit `entry` (arity, type, range), or nullopt when it fits.
std::optional<std::string> check(const OscEntry& entry, const OscMessage& message);
// The tables of docs/osc.md, "Addresses and replies": Markdown of oscApi() and oscReplies().
std::string markdownTable();

}  // namespace spindle::control
