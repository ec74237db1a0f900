#include "io/MidiByteParser.h"

namespace spindle::io {

int MidiByteParser::dataBytesOf(uint8_t status) noexcept SPINDLE_REALTIME {
  switch (status & 0xF0) {
    case 0xC0:
    case 0xD0: return 1;
    case 0xF0: break;
    default: return 2;
  }
  switch (status) {
    case 0xF1:
    case 0xF3: return 1;  // MTC quarter frame, song select
    case 0xF2: return 2;  // song position
    default: return 0;    // tune request, undefined, end of exclusive
  }
}

bool MidiByteParser::sysexDone(const uint8_t*& bytes, std::size_t& size) const noexcept SPINDLE_REALTIME {
  if (!sysexDone_) return false;
  bytes = sysex_.data();
  size = sysexSize_;
  return true;
}

void MidiByteParser::keepSysex(uint8_t byte) noexcept SPINDLE_REALTIME {
  if (sysexSize_ < sysex_.size()) sysex_[sysexSize_] = byte;
  ++sysexSize_;
}

void MidiByteParser::startStatus(uint8_t status) noexcept SPINDLE_REALTIME {
  if (inSysex_) {
    inSysex_ = false;
    ++counters_.sysex;  // ended by 0xF7 or cut short by another status byte
    if (status == 0xF7) {
      keepSysex(status);
      sysexDone_ = sysexSize_ <= sysex_.size();
    }
  }
  have_ = 0;
  if (status == 0xF0) {
    inSysex_ = true;
    sysexSize_ = 0;
    keepSysex(status);
    status_ = 0;
    need_ = 0;
    return;
  }
  if (status == 0xF7) {
    status_ = 0;
    need_ = 0;
    return;
  }
  status_ = status;
  need_ = dataBytesOf(status);
}

bool MidiByteParser::feed(uint8_t byte, MidiEvent& out) noexcept SPINDLE_REALTIME {
  sysexDone_ = false;
  if (byte >= 0xF8) {
    ++counters_.realtime;
    if (!midi::isClockMessage(byte)) return false;
    out = MidiEvent{0, byte, 0, 0};
    return true;
  }
  if (byte & 0x80) {
    startStatus(byte);
    if (status_ >= 0xF0 && need_ == 0) status_ = 0;  // tune request etc.: complete, nothing to run
    return false;
  }
  if (inSysex_) {
    keepSysex(byte);
    return false;
  }
  if (status_ == 0) {
    ++counters_.dropped;
    return false;
  }
  data_[have_++] = byte;
  if (have_ < need_) return false;
  have_ = 0;
  if (status_ >= 0xF0) {  // system common: complete, and it cancels running status
    status_ = 0;
    return false;
  }
  out.frame = 0;
  out.status = status_;
  out.data1 = data_[0];
  out.data2 = need_ == 2 ? data_[1] : 0;
  ++counters_.messages;
  return true;
}

}  // namespace spindle::io
