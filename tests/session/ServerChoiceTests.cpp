// The server choice: a named server that does not answer is tried again each time the
// door's retry says so, with the reason, and none comes back once it gives up.
#include <cstdlib>
#include <string>

#include "catch.h"
#include "session/ServerChoice.h"

namespace server_choice_tests {

using namespace spindle;

TEST_CASE("a JACK server that does not run: each retry hears why, giving up gives no backend", "[session]") {
  ::setenv("JACK_DEFAULT_SERVER", "spindle-session-test-no-such-server", 1);
  std::string error;
  CHECK(!session::tryServer("jack", io::BackendOptions{}, error));
  CHECK(!error.empty());
  std::vector<std::string> heard;
  const auto backend = session::connectToServer("jack", io::BackendOptions{}, [&](const std::string& why) {
    heard.push_back(why);
    return heard.size() < 3;
  });
  CHECK(!backend);
  REQUIRE(heard.size() == 3);
  CHECK(heard[0] == error);
  CHECK(session::noServerAdvice("JACK: a; PipeWire: b").starts_with("no sound server is running (JACK: a; PipeWire: b).\n"));
}

}  // namespace server_choice_tests
