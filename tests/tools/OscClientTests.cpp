// spindle-osc's pieces and the whole client against a real OscServer on 127.0.0.1 that
// requires signing from every peer: messages built as oscsend builds them, a signed
// ping answered by a verified pong, a signed note reaching the target, a wrong secret
// refused, an unsigned packet refused and counted, a tampered reply not trusted.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../control/RecordingTarget.h"
#include "catch.h"
#include "control/OscServer.h"
#include "tools/OscClient.h"

namespace osc_client_tests {

using namespace spindle;

namespace {

std::string writeSecret(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / (name + std::to_string(::getpid()));
  std::ofstream(path, std::ios::trunc) << text << '\n';
  ::chmod(path.c_str(), 0600);
  return path.string();
}

int client(std::vector<std::string> args, std::string& out, std::string& err) {
  std::ostringstream o, e;
  const int status = tools::runOscClient(args, o, e);
  out = o.str();
  err = e.str();
  return status;
}

}  // namespace

TEST_CASE("spindle-osc builds messages from types and values as oscsend does", "[tools][osc]") {
  std::string error;
  const auto m = tools::buildMessage("/spindle/part/volume", "ifTsh", {"3", "-6.5", "text", "9000000000"}, error);
  REQUIRE(m);
  CHECK(control::describe(*m) == "/spindle/part/volume ifTsh 3 -6.500000 1 \"text\" 9000000000");
  CHECK_FALSE(tools::buildMessage("/a", "i", {"x"}, error));
  CHECK(error == "argument 1 does not fit type 'i'");
  CHECK_FALSE(tools::buildMessage("/a", "i", {"1", "2"}, error));
  CHECK(error == "more values than types");
  CHECK_FALSE(tools::buildMessage("a", "", {}, error));
  CHECK(error == "the address must start with /");
}

TEST_CASE("spindle-osc talks to a Spindle that requires signing, and trusts only verified replies",
          "[tools][osc][net]") {
  const std::string secretFile = writeSecret("spindle-osc-secret-", "0123456789abcdef-cluster");
  const std::string wrongFile = writeSecret("spindle-osc-wrong-", "0123456789abcdef-another");
  std::string error;
  auto options = control::oscServerOptions(-1, "127.0.0.1", secretFile, true, false, error);
  REQUIRE(options);
  test::RecordingTarget target;
  control::OscServer server(target, std::move(*options));
  REQUIRE(server.start(error));
  const std::string port = std::to_string(server.port());
  std::string out, err;

  CHECK(client({"--secret-file", secretFile, "--wait", "300", "127.0.0.1", port, "/spindle/ping"}, out, err) == 0);
  CHECK(out == "/spindle/pong \n");
  // Signed for another receiver (a Spindle named studio-b): refused, and said so.
  CHECK(client({"--secret-file", secretFile, "--to", "studio-b", "--wait", "300", "127.0.0.1", port, "/spindle/ping"},
               out, err) == 1);
  CHECK_THAT(out, Catch::StartsWith("unsigned /spindle/error") && Catch::Contains("signed for 'studio-b'"));
  CHECK(client({"--secret-file", secretFile, "--identity", "a", "127.0.0.1", port, "/spindle/note_on", "iii", "2", "64",
                "99"}, out, err) == 0);
  CHECK(client({"--secret-file", wrongFile, "--wait", "300", "127.0.0.1", port, "/spindle/note_on", "iii", "2", "60",
                "1"}, out, err) == 1);
  CHECK(out == "unsigned /spindle/error ss \"\" \"signed OSC refused: the signature does not match (wrong secret or "
               "altered packet)\"\n");
  CHECK(client({"--secret-file", secretFile, "--send-packet", "/nonexistent", "127.0.0.1", port}, out, err) == 2);
  CHECK(client({"--secret-file", "/nonexistent/secret", "127.0.0.1", port, "/spindle/ping"}, out, err) == 2);
  CHECK_THAT(err, Catch::Contains("/nonexistent/secret"));
  server.stop();
  CHECK(target.last() == "midi 145 64 99");
  CHECK(server.core().refused(control::AuthRefusal::BadMac) == 1);
  CHECK(server.core().refused(control::AuthRefusal::Misaddressed) == 1);
  std::filesystem::remove(secretFile);
  std::filesystem::remove(wrongFile);
}

TEST_CASE("a reply whose MAC, counter or route does not verify is not trusted", "[tools][osc]") {
  const control::Bytes secret(20, 'k');
  const int64_t now = control::nowMicros();
  const control::OscMessage pong{"/spindle/pong", {}};
  const control::SignedRoute back{"10.0.0.2:9951", "me"};  // from the host asked, to this client
  const auto now64 = static_cast<uint64_t>(now);
  std::string error;
  auto reply = tools::readReply(secret, back, control::signMessage(secret, back, now64, pong), now, error);
  REQUIRE(reply);
  CHECK(reply->verified);
  CHECK(reply->lines == std::vector<std::string>{"/spindle/pong "});
  control::Bytes altered = control::signMessage(secret, back, now64, pong);
  altered[altered.size() - 1] ^= 0x40;
  CHECK_FALSE(tools::readReply(secret, back, altered, now, error));
  CHECK_FALSE(tools::readReply(secret, back, control::signMessage(secret, back, now64 - 31'000'000, pong), now, error));
  CHECK_FALSE(tools::readReply(secret, back, control::signMessage(secret, {"10.0.0.3:9951", "me"}, now64, pong), now,
                               error));
  CHECK_THAT(error, Catch::Contains("10.0.0.3:9951"));
  CHECK_FALSE(tools::readReply(secret, back, control::signMessage(secret, {"10.0.0.2:9951", "you"}, now64, pong), now,
                               error));
  reply = tools::readReply(secret, back, control::serialise({"/spindle/error", {control::OscValue::s(""),
                                                                                control::OscValue::s("no")}}), now, error);
  REQUIRE(reply);
  CHECK_FALSE(reply->verified);
  CHECK(reply->error);
  CHECK(reply->lines == std::vector<std::string>{"unsigned /spindle/error ss \"\" \"no\""});
}

}  // namespace osc_client_tests
