#include "control/OscTempo.h"

#include "control/ControlCore.h"

namespace spindle::control {

namespace {

void setTempo(OscCall& c) { c.core.commandResult(c.core.target().setTempo(c.real(0)), true); }

void tempoQuery(OscCall& c) {
  const TempoStatus now = c.core.target().tempo();
  const float set = c.core.target().sessionState().settings.tempo;
  c.core.reply({"/spindle/tempo", {OscValue::f(static_cast<double>(now.bpm)), OscValue::s(now.source),
                                   OscValue::f(static_cast<double>(set))}});
}

}  // namespace

std::vector<OscEntry> tempoApi() {
  return {
      {"/spindle/tempo", {{'f', "bpm", 1, 999}},
       "sets the tempo lobpm/hibpm and the delays' synced taps play at, unless the JACK transport rolls or MIDI "
       "clocks arrive (they outrank it); kept in the session",
       setTempo},
      {"/spindle/tempo/get", {}, "replies /spindle/tempo: the tempo playing now and where it comes from", tempoQuery},
  };
}

std::vector<OscReplyDoc> tempoReplies() {
  return {
      {"/spindle/tempo", "fsf",
       "the tempo playing now (BPM); its source: transport (JACK, rolling or last rolled), clock (MIDI clocks, "
       "arriving or last arrived), set (/spindle/tempo, --tempo, a session), song or default (120); the set tempo "
       "(0: none set)"},
  };
}

}  // namespace spindle::control
