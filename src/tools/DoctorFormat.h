#pragma once
// Prints a DoctorReport, the profile's changes and what --apply did, as text or as JSON.
#include <ostream>

#include "tools/Apply.h"
#include "tools/Doctor.h"
#include "tools/Profiles.h"

namespace spindle::tools {

void printDoctorText(std::ostream& out, const DoctorReport& report, const ProfileChanges& changes);
void printApplyText(std::ostream& out, const ApplyResult& result);
// One JSON object; `applied` is printed when not null.
void printDoctorJson(std::ostream& out, const DoctorReport& report, const ProfileChanges& changes,
                     const ApplyResult* applied);

}  // namespace spindle::tools
