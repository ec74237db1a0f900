// Core, its control side: loads, levels and the Programs handed back, on whichever
// thread the adapter's host gives it (never the audio thread), controlMutex() held.
#include <algorithm>
#include <cstring>

#include "core/Controllers.h"
#include "core/MidiEvent.h"
#include "plugin/Core.h"

namespace spindle::plugin {

void Core::collect() { library_.collect(engine_); }

bool Core::loadInstrument(const std::string& path) {
  collect();
  session::Loader::Result loaded = library_.load(path);
  const session::LoadReport& report = loaded.report;
  for (const instrument::Diagnostic& d : report.diagnostics)
    log(d.severity == instrument::Diagnostic::Severity::Error, session::formatDiagnostic(d));
  for (const std::string& file : report.missingFiles) log(false, "missing sample: " + file);
  for (const session::SampleError& error : report.sampleErrors) log(false, error.message);
  if (!loaded.program) {
    log(true, "cannot load instrument " + path + " (still playing " +
                  (loadedPath_.empty() ? std::string("nothing") : loadedPath_) + ")");
    return false;
  }
  const engine::Program* program = library_.keep(std::move(loaded.program));
  loadedControls_ = controlMap(*program);
  loadedKeyLabels_ = program->keyLabels;
  if (const int refused = session::postToEveryPart(engine_, program); refused > 0)
    log(true, "the engine refused the program for " + std::to_string(refused) + " part(s)");
  loadedPath_ = path;
  return true;
}

void Core::postLevel(float db) {
  engine::Command command;
  command.type = engine::CommandType::SetPartVolume;
  command.part = 0;
  command.value = db;
  if (!engine_.postCommand(command)) log(true, "the engine refused part 0's level");
}

namespace {

// A CC's value as a part holds it after the program loads: the engine's reset value
// (CC7 100, CC10 64, CC11 127, the rest 0; engine/parts/Part.cpp), then the program's
// last default for it.
float initialValue(const engine::Program& program, int cc) {
  float value = cc == midi::kCcVolume ? 100.0f : cc == midi::kCcPan ? 64.0f : cc == midi::kCcExpression ? 127.0f : 0.0f;
  for (const controllers::ControllerDefault& d : program.controllerDefaults)
    if (d.cc == cc) value = std::clamp(d.value, 0.0f, 1.0f) * 127.0f;
  return value;
}

}  // namespace

ControlMap controlMap(const engine::Program& program) {
  ControlMap map;
  map.cc.fill(-1);
  for (const controllers::ControllerLabel& label : program.controllerLabels) {
    if (label.cc < 0 || label.cc > 127 || map.count == kControlPorts) continue;
    const std::size_t bytes = std::min<std::size_t>(label.label.size(), 63) + 1;
    if (map.labelBytes + bytes > kLabelBytes) break;
    std::memcpy(map.labels.data() + map.labelBytes, label.label.data(), bytes - 1);
    map.labelBytes += static_cast<uint32_t>(bytes);
    map.initial[map.count] = initialValue(program, label.cc);
    map.cc[map.count++] = static_cast<int16_t>(label.cc);
  }
  return map;
}

}  // namespace spindle::plugin
