// spindle-doctor's command: --json, profiles, --apply on a fixture tree, refusals.
#include <sstream>

#include "FixtureTrees.h"
#include "tools/Apply.h"
#include "tools/DoctorCommand.h"
#include "tools/Json.h"
#include "tools/Profiles.h"

namespace doctor_command_tests {

using namespace spindle::test;
using spindle::tools::runDoctorCommand;

namespace {

struct Output {
  int status = -1;
  std::string out, err;
};

Output doctor(const std::vector<std::string>& args, const spindle::tools::SystemRoot& system) {
  std::ostringstream out, err;
  Output o;
  o.status = runDoctorCommand(args, system, out, err);
  o.out = out.str();
  o.err = err.str();
  return o;
}

size_t countOf(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t pos = text.find(part); pos != std::string::npos; pos = text.find(part, pos + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("doctor --json: one object with every check, the summary and the profile's changes") {
  TempDir tree("doctor-json");
  const Output o = doctor({"--json", "--profile", "powersave"}, genericTree(tree));
  REQUIRE(o.status == 0);
  CHECK(o.out.front() == '{');
  CHECK(o.out.find("\"profile\": \"powersave\"") != std::string::npos);
  CHECK(countOf(o.out, "\"status\": ") == 12);
  CHECK(o.out.find("\"id\": \"limits.rtprio\",\n      \"title\": \"Real-time priority limit (rtprio)\",\n"
                   "      \"status\": \"FAIL\"") != std::string::npos);
  CHECK(o.out.find("\"summary\": {\n    \"pass\": 1,\n    \"warn\": 9,\n    \"fail\": 2\n  }") != std::string::npos);
  CHECK(o.out.find("\"rcutree.enable_rcu_lazy=1\"") != std::string::npos);
  CHECK(countOf(o.out, "{") == countOf(o.out, "}"));
  CHECK(countOf(o.out, "[") == countOf(o.out, "]"));
}

TEST_CASE("doctor text: statuses, fixes and the lowlatency profile's changes") {
  TempDir tree("doctor-text");
  const Output o = doctor({}, genericTree(tree));
  REQUIRE(o.status == 0);
  CHECK(o.out.find("[FAIL] Real-time priority limit (rtprio) (limits.rtprio)") != std::string::npos);
  CHECK(o.out.find("Summary: 0 PASS, 10 WARN, 2 FAIL") != std::string::npos);
  CHECK(o.out.find("    preempt=full threadirqs nohz_full=3 rcu_nocbs=3 irqaffinity=0-2\n") != std::string::npos);
  CHECK(o.out.find("    @audio - memlock unlimited\n") != std::string::npos);
  CHECK(o.out.find("    vm.swappiness = 10\n") != std::string::npos);
}

TEST_CASE("doctor: bad arguments and --apply without root") {
  TempDir tree("doctor-args");
  const auto system = genericTree(tree);
  CHECK(doctor({"--profile", "fast"}, system).status == 2);
  CHECK(doctor({"--profile"}, system).status == 2);
  CHECK(doctor({"--hold"}, system).status == 2);
  CHECK(doctor({"--bogus"}, system).status == 2);
  const Output refused = doctor({"--apply"}, system);
  CHECK(refused.status == 1);
  CHECK(refused.err.find("only root may do") != std::string::npos);
  CHECK(refused.err.find("sudo spindle-doctor --apply --profile lowlatency") != std::string::npos);
  CHECK(doctor({"--help"}, system).out.find("Usage: spindle-doctor") != std::string::npos);
  CHECK(doctor({"--version"}, system).out.find("spindle-doctor (Spindle) ") == 0);
}

TEST_CASE("doctor --apply as root: sets the governor, holds cpu_dma_latency, says so") {
  TempDir tree("doctor-apply");
  auto system = genericTree(tree);
  system.user = {0, 0, "root", {"root"}};
  const Output o = doctor({"--apply"}, system);
  CHECK(o.status == 0);
  CHECK(o.out.find("done:   cpu0: governor ondemand -> performance") != std::string::npos);
  CHECK(o.out.find("done:   cpu3: governor ondemand -> performance") != std::string::npos);
  CHECK(o.out.find("done:   /dev/cpu_dma_latency: holding 0 us") != std::string::npos);
  CHECK(o.out.find("the /dev/cpu_dma_latency hold ends as spindle-doctor exits") != std::string::npos);
  CHECK(readAll(tree.path() / "sys/devices/system/cpu/cpu2/cpufreq/scaling_governor") == "performance\n");
  CHECK(readAll(tree.path() / "dev/cpu_dma_latency") == std::string(4, '\0'));
  const Output again = doctor({"--apply", "--profile", "powersave", "--json"}, system);
  CHECK(again.out.find("\"cpu1: governor performance -> powersave\"") != std::string::npos);
  CHECK(again.out.find("\"failed\": []") != std::string::npos);
}

TEST_CASE("doctor --apply: a machine without cpufreq, a missing device") {
  TempDir tree("doctor-apply-missing");
  auto system = missingTree(tree);
  system.user = {0, 0, "root", {"root"}};
  const Output o = doctor({"--apply"}, system);
  CHECK(o.status == 1);
  CHECK(o.out.find("done:   governor: no cpufreq on this machine, nothing to change") != std::string::npos);
  CHECK(o.out.find("FAILED: /dev/cpu_dma_latency: cannot open") != std::string::npos);
}

TEST_CASE("profiles: boot options, sysctl and limits follow the Ubuntu 24.04 work") {
  using spindle::tools::Profile;
  const auto low = spindle::tools::profileChanges(Profile::LowLatency, 2);
  CHECK(low.kernelCommandLine == std::vector<std::string>{"preempt=full", "threadirqs"});
  CHECK(low.limits == std::vector<std::string>{"@audio - rtprio 95", "@audio - memlock unlimited"});
  const auto power = spindle::tools::profileChanges(Profile::PowerSave, 8);
  CHECK(power.kernelCommandLine ==
        std::vector<std::string>{"preempt=voluntary", "rcu_nocbs=all", "rcutree.enable_rcu_lazy=1"});
  const auto throughput = spindle::tools::profileChanges(Profile::Throughput, 8);
  CHECK(throughput.kernelCommandLine == std::vector<std::string>{"preempt=none"});
}

TEST_CASE("json writer: nesting, escaping, numbers") {
  std::ostringstream out;
  {
    spindle::tools::JsonWriter json(out);
    json.beginObject();
    json.field("text", "a \"quoted\"\tline\n\x01");
    json.field("n", 42);
    json.field("x", 0.5);
    json.field("ok", true);
    json.key("empty");
    json.beginArray();
    json.endArray();
    json.endObject();
  }
  CHECK(out.str() == "{\n  \"text\": \"a \\\"quoted\\\"\\tline\\n\\u0001\",\n  \"n\": 42,\n  \"x\": 0.5,\n"
                     "  \"ok\": true,\n  \"empty\": []\n}\n");
}

}  // namespace doctor_command_tests
