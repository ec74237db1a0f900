// spindle's OSC security options: parsed, and turned into the server's options with the
// secret read, or refused with an error naming the file or the missing option.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "app/LiveArgs.h"
#include "catch.h"
#include "control/OscServer.h"

namespace osc_args_tests {

using namespace spindle;

TEST_CASE("--osc-secret-file, --osc-require-signed and --osc-insecure reach the OSC server's options", "[app][osc]") {
  std::string error;
  const auto path = std::filesystem::temp_directory_path() / ("spindle-args-secret-" + std::to_string(::getpid()));
  std::ofstream(path) << "0123456789abcdefXYZ\n";
  ::chmod(path.c_str(), 0600);
  const auto a = app::parseLiveArgs({"--osc-bind", "10.0.0.5", "--osc-secret-file", path.string(),
                                     "--osc-require-signed", "--osc-insecure"}, error);
  REQUIRE(a);
  CHECK(a->oscSecretFile == path.string());
  CHECK((a->oscRequireSigned && a->oscInsecure));
  auto options = control::oscServerOptions(a->oscPort, a->oscBind, a->oscSecretFile, a->oscRequireSigned,
                                           a->oscInsecure, error);
  REQUIRE(options);
  CHECK(std::string(options->auth.secret.begin(), options->auth.secret.end()) == "0123456789abcdefXYZ");
  CHECK(options->auth.requireSigned);
  CHECK(options->bindAddress == "10.0.0.5");

  CHECK_FALSE(control::oscServerOptions(9951, "127.0.0.1", "", true, false, error));
  CHECK(error == "--osc-require-signed needs --osc-secret-file");
  ::chmod(path.c_str(), 0640);
  CHECK_FALSE(control::oscServerOptions(9951, "127.0.0.1", path.string(), false, false, error));
  CHECK_THAT(error, Catch::Contains(path.string()) && Catch::Contains("mode 0640"));
  CHECK_FALSE(app::parseLiveArgs({"--osc-secret-file"}, error));
  CHECK(error == "--osc-secret-file needs a value");
  std::filesystem::remove(path);
}

TEST_CASE("--host NAME=ADDR[:PORT]@CLIENT names the host's NetJACK2 client the master routes", "[app][osc][hosts]") {
  std::string error;
  const auto a = app::parseLiveArgs({"--host", "h1=10.0.0.11:9960@spindle_host1", "--host", "h2=10.0.0.12"}, error);
  REQUIRE(a);
  REQUIRE(a->hosts.size() == 2);
  CHECK(a->hosts[0].name == "h1");
  CHECK(a->hosts[0].address == "10.0.0.11");
  CHECK(a->hosts[0].port == 9960);
  CHECK(a->hosts[0].jackClient == "spindle_host1");
  CHECK(a->hosts[1].jackClient.empty());
  CHECK_FALSE(app::parseLiveArgs({"--host", "h1=10.0.0.11@"}, error));
  CHECK(error == "--host: a host's JACK client is a name without ':' or spaces, not ''");
}

}  // namespace osc_args_tests
