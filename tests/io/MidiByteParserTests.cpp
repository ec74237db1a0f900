#include <vector>

#include "catch.h"
#include "io/MidiByteParser.h"

namespace midi_byte_parser_tests {

using spindle::MidiEvent;
using spindle::io::MidiByteParser;

namespace {

std::vector<MidiEvent> parse(MidiByteParser& parser, const std::vector<uint8_t>& bytes) {
  std::vector<MidiEvent> out;
  MidiEvent e;
  for (uint8_t b : bytes)
    if (parser.feed(b, e)) out.push_back(e);
  return out;
}

bool is(const MidiEvent& e, uint8_t status, uint8_t d1, uint8_t d2) {
  return e.status == status && e.data1 == d1 && e.data2 == d2;
}

}  // namespace

TEST_CASE("MidiByteParser: complete messages and running status", "[io][midi]") {
  MidiByteParser p;
  const auto ev = parse(p, {0x90, 60, 100, 62, 80, 0x80, 60, 0, 62, 0});
  REQUIRE(ev.size() == 4);
  CHECK(is(ev[0], 0x90, 60, 100));
  CHECK(is(ev[1], 0x90, 62, 80));
  CHECK(is(ev[2], 0x80, 60, 0));
  CHECK(is(ev[3], 0x80, 62, 0));
}

TEST_CASE("MidiByteParser: one-data-byte messages run too", "[io][midi]") {
  MidiByteParser p;
  const auto ev = parse(p, {0xC3, 5, 7, 0xD0, 64});
  REQUIRE(ev.size() == 3);
  CHECK(is(ev[0], 0xC3, 5, 0));
  CHECK(is(ev[1], 0xC3, 7, 0));
  CHECK(is(ev[2], 0xD0, 64, 0));
}

TEST_CASE("MidiByteParser: realtime bytes anywhere change nothing; the clock's come out at once", "[io][midi]") {
  MidiByteParser p;
  const auto ev = parse(p, {0xF8, 0x90, 0xFE, 60, 0xF8, 100, 0xFA, 62, 0xFF, 70, 0xFC, 0xFB});
  REQUIRE(ev.size() == 7);
  CHECK(is(ev[0], 0xF8, 0, 0));
  CHECK(is(ev[1], 0xF8, 0, 0));  // inside the note-on, before it completes
  CHECK(is(ev[2], 0x90, 60, 100));
  CHECK(is(ev[3], 0xFA, 0, 0));
  CHECK(is(ev[4], 0x90, 62, 70));  // running status kept across the start
  CHECK(is(ev[5], 0xFC, 0, 0));
  CHECK(is(ev[6], 0xFB, 0, 0));
  CHECK(p.counters().realtime == 7);
  CHECK(p.counters().messages == 2);
}

TEST_CASE("MidiByteParser: sysex is skipped and cancels running status", "[io][midi]") {
  MidiByteParser p;
  const auto ev = parse(p, {0x90, 60, 100, 0xF0, 0x7E, 0x7F, 0xF8, 0x09, 0x01, 0xF7, 61, 90, 0x91, 64, 1});
  REQUIRE(ev.size() == 3);
  CHECK(is(ev[0], 0x90, 60, 100));
  CHECK(is(ev[1], 0xF8, 0, 0));  // a clock inside the sysex
  CHECK(is(ev[2], 0x91, 64, 1));
  CHECK(p.counters().sysex == 1);
  CHECK(p.counters().dropped == 2);  // 61, 90: no running status after the sysex
}

TEST_CASE("MidiByteParser: a status byte cuts a sysex or a message short", "[io][midi]") {
  MidiByteParser p;
  const auto ev = parse(p, {0xF0, 1, 2, 0x90, 60, 0xB0, 7, 100});
  REQUIRE(ev.size() == 1);
  CHECK(is(ev[0], 0xB0, 7, 100));
  CHECK(p.counters().sysex == 1);
}

TEST_CASE("MidiByteParser: system common messages take their data and cancel running status", "[io][midi]") {
  MidiByteParser p;
  const auto ev = parse(p, {0x90, 60, 100, 0xF2, 0x10, 0x20, 62, 5, 0xF3, 4, 0xF6, 0xE0, 0, 64});
  REQUIRE(ev.size() == 2);
  CHECK(is(ev[0], 0x90, 60, 100));
  CHECK(is(ev[1], 0xE0, 0, 64));
  CHECK(p.counters().dropped == 2);
}

TEST_CASE("MidiByteParser: messages split across reads", "[io][midi]") {
  MidiByteParser p;
  CHECK(parse(p, {0x90}).empty());
  CHECK(parse(p, {60}).empty());
  const auto ev = parse(p, {100, 61});
  REQUIRE(ev.size() == 1);
  const auto more = parse(p, {101});
  REQUIRE(more.size() == 1);
  CHECK(is(more[0], 0x90, 61, 101));
}

TEST_CASE("MidiByteParser: a sysex ended by F7 is kept whole, realtime bytes left out", "[io][midi]") {
  MidiByteParser p;
  MidiEvent e;
  const std::vector<uint8_t> mts{0xF0, 0x7F, 0x7F, 0x08, 0x02, 0x00, 0x01, 69, 69, 0x40, 0x00, 0xF7};
  const uint8_t* bytes = nullptr;
  std::size_t size = 0;
  for (size_t i = 0; i < mts.size(); ++i) {
    CHECK_FALSE(p.feed(mts[i], e));
    if (i == 4) CHECK(p.feed(0xF8, e));  // a clock inside the sysex comes out, and is left out of it
    CHECK(p.sysexDone(bytes, size) == (i + 1 == mts.size()));
  }
  REQUIRE(size == mts.size());
  CHECK(std::vector<uint8_t>(bytes, bytes + size) == mts);
  CHECK(p.feed(0x90, e) == false);
  CHECK_FALSE(p.sysexDone(bytes, size));  // forgotten by the next byte
  // Cut short by a status byte: counted, not kept; too long: not kept.
  for (uint8_t b : {0xF0, 0x7E, 0x01, 0x90, 60, 100}) p.feed(b, e);
  CHECK_FALSE(p.sysexDone(bytes, size));
  p.feed(0xF0, e);
  for (size_t i = 0; i < MidiByteParser::kMaxSysex; ++i) p.feed(0x01, e);
  p.feed(0xF7, e);
  CHECK_FALSE(p.sysexDone(bytes, size));
  CHECK(p.counters().sysex == 3);
}

}  // namespace midi_byte_parser_tests
