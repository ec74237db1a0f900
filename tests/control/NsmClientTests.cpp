// NSM: a minimal NSM server written with liblo drives the client through announce,
// open (with a session file), dirty, save and clean.
#include <lo/lo.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "RecordingTarget.h"
#include "catch.h"
#include "control/NsmClient.h"
#include "control/OscServer.h"

namespace nsm_client_tests {

using namespace spindle::control;

namespace {

const lo_timetag kNow{0, 1};  // liblo's LO_TT_IMMEDIATE is a C compound literal

// The NSM server side: records what clients send, answers announce with /reply and
// /nsm/client/open, and can send /nsm/client/save.
struct FakeNsmd {
  lo_server server = lo_server_new_with_proto(nullptr, LO_UDP, nullptr);
  std::vector<std::string> received;
  lo_address client = nullptr;
  std::string sessionPrefix;

  FakeNsmd() { lo_server_add_method(server, nullptr, nullptr, onMessage, this); }
  ~FakeNsmd() {
    if (client) lo_address_free(client);
    lo_server_free(server);
  }
  std::string url() const { return "osc.udp://127.0.0.1:" + std::to_string(lo_server_get_port(server)) + "/"; }

  static int onMessage(const char* path, const char* types, lo_arg** argv, int argc, lo_message m, void* self) {
    auto& d = *static_cast<FakeNsmd*>(self);
    d.received.push_back(describe(decode(path, types, reinterpret_cast<void* const*>(argv), argc)));
    if (std::string(path) == "/nsm/server/announce") {
      lo_address from = lo_message_get_source(m);
      d.client = lo_address_new(lo_address_get_hostname(from), lo_address_get_port(from));
      lo_send_from(d.client, d.server, kNow, "/reply", "ssss", "/nsm/server/announce", "hi", "fake-nsmd",
                   ":server-control:");
      lo_send_from(d.client, d.server, kNow, "/nsm/client/open", "sss", d.sessionPrefix.c_str(), "Spindle",
                   "spindle.nTEST");
    }
    return 0;
  }
  // Receives until a message starting with `prefix` arrived (at most 5 s).
  bool waitFor(const std::string& prefix) {
    for (int k = 0; k < 250; ++k) {
      for (const auto& r : received)
        if (r.rfind(prefix, 0) == 0) return true;
      lo_server_recv_noblock(server, 20);
    }
    return false;
  }
};

}  // namespace

TEST_CASE("NSM: announce, open a session, dirty, save, clean", "[control][nsm]") {
  const auto dir = std::filesystem::temp_directory_path() / ("spindle-nsm-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string instrument = SPINDLE_SOURCE_DIR "/tests/control/CMakeLists.txt";
  FakeNsmd nsmd;
  nsmd.sessionPrefix = (dir / "Spindle.nTEST").string();
  std::ofstream(nsmd.sessionPrefix + ".spindle") << "[part 3]\ninstrument = " << instrument << "\nvolume = -6\n";

  NsmClient nsm({nsmd.url(), "Spindle", "spindle", ":dirty:", {}});
  std::string error;
  REQUIRE(nsm.connect(error));
  REQUIRE(nsm.announce(error));
  REQUIRE(nsmd.waitFor("/nsm/server/announce"));
  INFO(nsmd.received[0]);
  CHECK(nsmd.received[0].rfind("/nsm/server/announce sssiii \"Spindle\" \":dirty:\" \"spindle\" 1 2 ", 0) == 0);
  const auto open = nsm.waitForOpen(std::chrono::seconds(5), error);
  REQUIRE(open);
  CHECK(open->clientId == "spindle.nTEST");
  CHECK(nsm.serverName() == "fake-nsmd");

  spindle::test::RecordingTarget target;
  OscServer server(target, {-1, "127.0.0.1"});
  server.attachNsm(nsm);
  REQUIRE(server.start(error));
  REQUIRE(nsmd.waitFor("/reply ss \"/nsm/client/open\""));
  lo_address osc = lo_address_new("127.0.0.1", std::to_string(server.port()).c_str());
  lo_send(osc, "/spindle/part/pan", "if", 1, 0.5);
  REQUIRE(nsmd.waitFor("/nsm/client/is_dirty"));
  lo_send_from(nsmd.client, nsmd.server, kNow, "/nsm/client/save", "");
  REQUIRE(nsmd.waitFor("/reply ss \"/nsm/client/save\" \"saved\""));
  REQUIRE(nsmd.waitFor("/nsm/client/is_clean"));
  server.stop();
  lo_address_free(osc);

  std::ifstream saved(nsmd.sessionPrefix + ".spindle");
  const std::string text((std::istreambuf_iterator<char>(saved)), std::istreambuf_iterator<char>());
  CHECK_THAT(text, Catch::Contains("[part 1]\ninstrument = \nvolume = 0\npan = 0.5\n"));
  CHECK_THAT(text, Catch::Contains("[part 3]\ninstrument = " + instrument + "\nvolume = -6\n"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("NSM: a new session opens empty and a missing server times out", "[control][nsm]") {
  const auto dir = std::filesystem::temp_directory_path() / ("spindle-nsm-new-" + std::to_string(::getpid()));
  FakeNsmd nsmd;
  nsmd.sessionPrefix = (dir / "sub" / "Spindle.nNEW").string();
  NsmClient nsm({nsmd.url(), "Spindle", "spindle", ":dirty:", {}});
  std::string error;
  REQUIRE(nsm.connect(error));
  REQUIRE(nsm.announce(error));
  REQUIRE(nsmd.waitFor("/nsm/server/announce"));
  REQUIRE(nsm.waitForOpen(std::chrono::seconds(5), error));
  spindle::test::RecordingTarget target;
  OscServer server(target, {0, "127.0.0.1"});  // OSC off: the control thread still serves NSM
  server.attachNsm(nsm);
  REQUIRE(server.start(error));
  CHECK(nsmd.waitFor("/reply ss \"/nsm/client/open\" \"new session\""));
  server.stop();
  std::filesystem::remove_all(dir);

  NsmClient nobody({"osc.udp://127.0.0.1:9/", "Spindle", "spindle", ":dirty:", {}});
  REQUIRE(nobody.connect(error));
  REQUIRE(nobody.announce(error));
  CHECK_FALSE(nobody.waitForOpen(std::chrono::milliseconds(200), error));
  CHECK_THAT(error, Catch::Contains("no /nsm/client/open"));
}

}  // namespace nsm_client_tests
