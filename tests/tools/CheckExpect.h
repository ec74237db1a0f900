#pragma once
// Asserting one doctor check: its status, a piece of its explanation, a piece of its fix.
#include <string>

#include "catch.h"
#include "tools/Doctor.h"

namespace spindle::test {

// `fixPart` empty: the check must carry no fix (nothing to change).
inline void expectCheck(const tools::DoctorReport& report, const std::string& id, tools::Status status,
                        const std::string& detailPart, const std::string& fixPart) {
  const tools::Check* check = report.find(id);
  INFO("check " << id);
  REQUIRE(check != nullptr);
  INFO("detail: " << check->detail << "\nfix: " << check->fix);
  CHECK(tools::statusName(check->status) == std::string(tools::statusName(status)));
  CHECK(check->detail.find(detailPart) != std::string::npos);
  if (fixPart.empty()) {
    CHECK(check->fix.empty());
  } else {
    CHECK(check->fix.find(fixPart) != std::string::npos);
  }
}

}  // namespace spindle::test
