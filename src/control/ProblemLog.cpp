#include "control/ProblemLog.h"

#include <algorithm>
#include <utility>

namespace spindle::control {

const char* wireName(ProblemKind kind) noexcept {
  switch (kind) {
    case ProblemKind::Disk: return "disk";
    case ProblemKind::Load: return "load";
    case ProblemKind::Server: return "server";
  }
  return "disk";
}

// total_ is stored after the problem is in kept_ (release), so a consumer that sees a
// new total() and then calls since() finds that problem there.
uint64_t ProblemLog::add(ProblemKind kind, std::string file, std::string message) {
  const std::lock_guard lock(mutex_);
  const uint64_t serial = total_.load(std::memory_order_relaxed) + 1;
  kept_.push_back(LoggedProblem{serial, kind, std::move(file), std::move(message)});
  if (kept_.size() > kKept) kept_.pop_front();
  total_.store(serial, std::memory_order_release);
  return serial;
}

std::vector<LoggedProblem> ProblemLog::since(uint64_t seen) const {
  const std::lock_guard lock(mutex_);
  const auto first =
      std::find_if(kept_.begin(), kept_.end(), [seen](const LoggedProblem& p) { return p.serial > seen; });
  return std::vector<LoggedProblem>(first, kept_.end());
}

}  // namespace spindle::control
