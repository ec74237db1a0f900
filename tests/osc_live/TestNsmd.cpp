// spindle-test-nsmd: a minimal New Session Manager server for the live tests, written
// with liblo (Debian 12 has no nsmd).
//
//   spindle-test-nsmd --prefix PATH --client-id ID [--timeout S] -- COMMAND ARGS...
//
// Listens on a free UDP port, starts COMMAND with NSM_URL pointing at it, and plays
// the server's side of the protocol, printing one line per event on stdout:
//   ANNOUNCE <capabilities>   the client announced; it gets /reply and /nsm/client/open
//   OPENED <message>          the client answered the open
//   DIRTY                     the client said is_dirty; it gets /nsm/client/save
//   SAVED                     the client answered the save
//   CLEAN                     the client said is_clean
//   ERROR <path> <message>    the client answered with /error
// Ends on SIGTERM/SIGINT or after the timeout (exit 3), stopping COMMAND (TERM, then KILL).
#include <lo/lo.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

namespace {

const lo_timetag kNow{0, 1};  // liblo's LO_TT_IMMEDIATE is a C compound literal

volatile std::sig_atomic_t gStop = 0;
extern "C" void onSignal(int) { gStop = 1; }

struct Server {
  lo_server server = nullptr;
  lo_address client = nullptr;
  std::string prefix, clientId;
};

void say(const std::string& line) {
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

std::string str(lo_arg** argv, int k) { return &argv[k]->s; }

int onMessage(const char* path, const char* types, lo_arg** argv, int argc, lo_message m, void* data) {
  auto& s = *static_cast<Server*>(data);
  const std::string p = path, t = types;
  if (p == "/nsm/server/announce" && t == "sssiii") {
    lo_address from = lo_message_get_source(m);
    s.client = lo_address_new(lo_address_get_hostname(from), lo_address_get_port(from));
    say("ANNOUNCE " + str(argv, 1));
    lo_send_from(s.client, s.server, kNow, "/reply", "ssss", "/nsm/server/announce", "welcome",
                 "spindle-test-nsmd", ":server-control:");
    lo_send_from(s.client, s.server, kNow, "/nsm/client/open", "sss", s.prefix.c_str(), "Spindle",
                 s.clientId.c_str());
  } else if (p == "/reply" && argc >= 2 && str(argv, 0) == "/nsm/client/open") {
    say("OPENED " + str(argv, 1));
  } else if (p == "/reply" && argc >= 1 && str(argv, 0) == "/nsm/client/save") {
    say("SAVED");
  } else if (p == "/nsm/client/is_dirty") {
    say("DIRTY");
    lo_send_from(s.client, s.server, kNow, "/nsm/client/save", "");
  } else if (p == "/nsm/client/is_clean") {
    say("CLEAN");
  } else if (p == "/error" && t == "sis") {
    say("ERROR " + str(argv, 0) + " " + str(argv, 2));
  }
  return 0;
}

pid_t launch(const std::vector<char*>& command, const std::string& url) {
  const pid_t pid = fork();
  if (pid == 0) {
    setenv("NSM_URL", url.c_str(), 1);
    execvp(command[0], command.data());
    _exit(127);
  }
  return pid;
}

void stopChild(pid_t pid) {
  for (int sig : {SIGTERM, SIGKILL}) {
    kill(pid, sig);
    for (int k = 0; k < 100; ++k) {
      if (waitpid(pid, nullptr, WNOHANG) == pid) return;
      usleep(50000);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Server s;
  double timeout = 60.0;
  std::vector<char*> command;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") {
      command.assign(argv + i + 1, argv + argc);
      break;
    }
    if (i + 1 >= argc) return 2;
    if (a == "--prefix") s.prefix = argv[++i];
    else if (a == "--client-id") s.clientId = argv[++i];
    else if (a == "--timeout") timeout = std::stod(argv[++i]);
    else return 2;
  }
  if (command.empty() || s.prefix.empty() || s.clientId.empty()) {
    std::fprintf(stderr, "usage: spindle-test-nsmd --prefix PATH --client-id ID [--timeout S] -- COMMAND...\n");
    return 2;
  }
  command.push_back(nullptr);
  std::signal(SIGTERM, onSignal);
  std::signal(SIGINT, onSignal);
  s.server = lo_server_new_with_proto(nullptr, LO_UDP, nullptr);
  if (!s.server) return 1;
  lo_server_add_method(s.server, nullptr, nullptr, onMessage, &s);
  const std::string url = "osc.udp://127.0.0.1:" + std::to_string(lo_server_get_port(s.server)) + "/";
  say("URL " + url);
  const pid_t child = launch(command, url);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout);
  while (!gStop && std::chrono::steady_clock::now() < deadline) lo_server_recv_noblock(s.server, 50);
  stopChild(child);
  if (s.client) lo_address_free(s.client);
  lo_server_free(s.server);
  return gStop ? 0 : 3;
}
