#include "control/OscDispatcher.h"

#include <lo/lo.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace spindle::control {

namespace {

thread_local std::string gLoError;  // liblo's error handler takes no user data

void onLoError(int number, const char* message, const char* where) {
  gLoError = std::string(message ? message : "error") + (where && *where ? std::string(" at ") + where : "") +
             " (liblo " + std::to_string(number) + ")";
}

// liblo would queue bundles with a future timetag for lo_server_recv(), which is never
// called here: rewrite the top-level timetag to "immediately".
void makeImmediate(uint8_t* data, std::size_t size) {
  static const uint8_t kBundle[8] = {'#', 'b', 'u', 'n', 'd', 'l', 'e', 0};
  static const uint8_t kNow[8] = {0, 0, 0, 0, 0, 0, 0, 1};
  if (size >= 16 && std::equal(kBundle, kBundle + 8, data)) std::copy(kNow, kNow + 8, data + 8);
}

int onLoMessage(const char* path, const char* types, lo_arg** argv, int argc, lo_message, void* slot) {
  const auto* handler = *static_cast<const OscDispatcher::Handler* const*>(slot);
  (*handler)(decode(path, types, reinterpret_cast<void* const*>(argv), argc));
  return 0;
}

}  // namespace

OscDispatcher::~OscDispatcher() {
  if (server_) lo_server_free(static_cast<lo_server>(server_));
}

bool OscDispatcher::create(std::string& error) {
  char dir[] = "/tmp/spindle-osc.XXXXXX";
  if (!mkdtemp(dir)) {
    error = "cannot create a temporary folder for the OSC dispatcher";
    return false;
  }
  const std::string path = std::string(dir) + "/d";
  lo_server server = lo_server_new_with_proto(path.c_str(), LO_UNIX, onLoError);
  ::unlink(path.c_str());
  ::rmdir(dir);
  if (!server) {
    error = "cannot create the OSC dispatcher: " + gLoError;
    return false;
  }
  lo_server_add_method(server, nullptr, nullptr, onLoMessage, &handler_);
  server_ = server;
  return true;
}

bool OscDispatcher::dispatch(uint8_t* data, std::size_t size, const Handler& handler, std::string& error) {
  gLoError.clear();
  handler_ = &handler;
  makeImmediate(data, size);
  const bool ok = size > 0 && lo_server_dispatch_data(static_cast<lo_server>(server_), data, size) >= 0;
  handler_ = nullptr;
  if (!ok) error = "unreadable OSC packet of " + std::to_string(size) + " bytes" + (gLoError.empty() ? "" : ": " + gLoError);
  return ok;
}

}  // namespace spindle::control
