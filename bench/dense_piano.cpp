// spindle-bench-piano: writes the dense piano of bench/DensePiano.h into a folder:
//   piano.sfz + k<root>_v<layer>.flac (or .wav)   for spindle-render / spindle
//   piano.sf2 (the same frames, stereo as linked left/right samples)   for fluidsynth
//   song.mid (the 45 s dense song, 960 ticks a second), song.events (the same as text)
//
//   spindle-bench-piano DIR [--wav] [--roots N] [--seconds S] [--no-sf2] [--song-only]
//
// bench/dense_piano.py runs it and renders with every tool; generated files never go
// into the repository.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "DensePiano.h"

namespace {

using spindle::bench::PianoRegion;

void le(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void be(std::string& out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
std::string chunk(const char* tag, const std::string& payload) {
  std::string out(tag, 4);
  le(out, payload.size(), 4);
  out += payload;
  if (payload.size() % 2) out.push_back('\0');
  return out;
}
std::string name20(const std::string& text) {
  std::string out = text.substr(0, 19);
  out.resize(20, '\0');
  return out;
}
void gen(std::string& out, int oper, int amount) {
  le(out, static_cast<uint64_t>(oper), 2);
  le(out, static_cast<uint16_t>(static_cast<int16_t>(amount)), 2);
}
void range(std::string& out, int oper, int lo, int hi) {
  le(out, static_cast<uint64_t>(oper), 2);
  out.push_back(static_cast<char>(lo));
  out.push_back(static_cast<char>(hi));
}

// SoundFont 2.01: one preset, one instrument, two zones (left, right) per region.
void writeSf2(const std::string& path, const std::vector<PianoRegion>& regions, const std::vector<int16_t>& smpl,
              const std::vector<uint32_t>& starts, double rate, double release) {
  std::string shdr, ibag, igen, sdta;
  for (std::size_t i = 0; i < regions.size(); ++i)
    for (int ch = 0; ch < 2; ++ch) {
      const uint32_t start = starts[2 * i + ch], end = start + static_cast<uint32_t>(regions[i].frames);
      std::string h = name20(regions[i].file.substr(0, 14) + (ch ? "R" : "L"));
      for (uint32_t v : {start, end, start, end, static_cast<uint32_t>(rate)}) le(h, v, 4);
      h.push_back(static_cast<char>(regions[i].root));
      h.push_back(0);
      le(h, 2 * i + (1 - ch), 2);   // sampleLink: the other channel
      le(h, ch ? 2 : 4, 2);         // rightSample / leftSample
      shdr += h;
    }
  shdr += name20("EOS") + std::string(26, '\0');
  const int releaseCents = static_cast<int>(std::lround(1200.0 * std::log2(release)));
  int bags = 0;
  for (std::size_t i = 0; i < regions.size(); ++i)
    for (int ch = 0; ch < 2; ++ch, ++bags) {
      le(ibag, igen.size() / 4, 2);
      le(ibag, 0, 2);
      range(igen, 43, regions[i].lokey, regions[i].hikey);
      range(igen, 44, regions[i].lovel, regions[i].hivel);
      gen(igen, 17, ch ? 500 : -500);  // pan
      gen(igen, 38, releaseCents);     // releaseVolEnv
      gen(igen, 58, regions[i].root);  // overridingRootKey
      gen(igen, 53, static_cast<int>(2 * i + ch));
    }
  le(ibag, igen.size() / 4, 2);
  le(ibag, 0, 2);
  gen(igen, 0, 0);
  std::string inst = name20("piano");
  le(inst, 0, 2);
  inst += name20("EOI");
  le(inst, static_cast<uint64_t>(bags), 2);
  std::string phdr = name20("piano");
  for (int v : {0, 0, 0}) le(phdr, static_cast<uint64_t>(v), 2);
  for (int v : {0, 0, 0}) le(phdr, static_cast<uint64_t>(v), 4);
  phdr += name20("EOP");
  for (int v : {0, 0, 1}) le(phdr, static_cast<uint64_t>(v), 2);
  for (int v : {0, 0, 0}) le(phdr, static_cast<uint64_t>(v), 4);
  std::string pbag, pgen, mod(10, '\0');
  for (int v : {0, 0, 1, 0}) le(pbag, static_cast<uint64_t>(v), 2);
  gen(pgen, 41, 0);
  gen(pgen, 0, 0);
  std::string pdta = "pdta" + chunk("phdr", phdr) + chunk("pbag", pbag) + chunk("pmod", mod) + chunk("pgen", pgen) +
                     chunk("inst", inst) + chunk("ibag", ibag) + chunk("imod", mod) + chunk("igen", igen) +
                     chunk("shdr", shdr);
  std::string ifil;
  le(ifil, 2, 2);
  le(ifil, 1, 2);
  const std::string info = "INFO" + chunk("ifil", ifil) + chunk("isng", std::string("EMU8000\0", 8)) +
                           chunk("INAM", std::string("piano\0", 6));
  const std::size_t smplBytes = smpl.size() * 2;
  std::ofstream out(path, std::ios::binary);
  std::string head = "RIFF";
  const std::string infoList = chunk("LIST", info), pdtaList = chunk("LIST", pdta);
  le(head, 4 + infoList.size() + (8 + 4 + 8 + smplBytes) + pdtaList.size(), 4);
  head += "sfbk" + infoList + "LIST";
  le(head, 4 + 8 + smplBytes, 4);
  head += "sdtasmpl";
  le(head, smplBytes, 4);
  out.write(head.data(), static_cast<std::streamsize>(head.size()));
  out.write(reinterpret_cast<const char*>(smpl.data()), static_cast<std::streamsize>(smplBytes));
  out.write(pdtaList.data(), static_cast<std::streamsize>(pdtaList.size()));
}

std::string vlq(uint64_t v) {
  std::string out(1, static_cast<char>(v & 0x7F));
  while (v >>= 7) out.insert(out.begin(), static_cast<char>(0x80 | (v & 0x7F)));
  return out;
}

// Format 0, 480 ticks a beat at 120 bpm: 960 ticks a second (a tick is 50 frames at 48 kHz).
void writeMidi(const std::string& path, const std::vector<spindle::bench::SongEvent>& events, double rate) {
  std::string track;
  int64_t last = 0;
  for (const auto& e : events) {
    const auto tick = static_cast<int64_t>(std::llround(static_cast<double>(e.frame) * 960.0 / rate));
    track += vlq(static_cast<uint64_t>(tick - last));
    track += {static_cast<char>(e.status), static_cast<char>(e.data1), static_cast<char>(e.data2)};
    last = tick;
  }
  track += vlq(0) + std::string("\xff\x2f\x00", 3);
  std::string file = "MThd";
  be(file, 6, 4);
  for (int v : {0, 1, 480}) be(file, static_cast<uint64_t>(v), 2);
  file += "MTrk";
  be(file, track.size(), 4);
  file += track;
  std::ofstream(path, std::ios::binary).write(file.data(), static_cast<std::streamsize>(file.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help")) {
    std::puts("usage: spindle-bench-piano DIR [--wav] [--roots N] [--seconds S] [--no-sf2] [--song-only]");
    return argc < 2 ? 2 : 0;
  }
  const std::filesystem::path dir = argv[1];
  spindle::bench::PianoShape shape;
  spindle::bench::SongShape song;
  bool sf2 = true, songOnly = false;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--wav") shape.format = SF_FORMAT_WAV | SF_FORMAT_PCM_16;
    else if (a == "--no-sf2") sf2 = false;
    else if (a == "--song-only") songOnly = true;
    else if (a == "--roots" && i + 1 < argc) shape.roots = std::atoi(argv[++i]);
    else if (a == "--seconds" && i + 1 < argc) song.seconds = std::atof(argv[++i]);
    else { std::fprintf(stderr, "unknown argument %s\n", a.c_str()); return 2; }
  }
  std::filesystem::create_directories(dir);
  const auto regions = spindle::bench::pianoRegions(shape);
  std::vector<int16_t> smpl;
  std::vector<uint32_t> starts;
  int64_t total = 0;
  for (const PianoRegion& r : regions) {
    if (songOnly) break;
    if (!spindle::bench::writePianoFile(dir / r.file, r, shape)) {
      std::fprintf(stderr, "cannot write %s\n", (dir / r.file).c_str());
      return 1;
    }
    total += r.frames;
    if (!sf2) continue;
    const std::vector<int16_t> frames = spindle::bench::pianoFrames(r, shape.rate);
    for (int ch = 0; ch < 2; ++ch) {
      starts.push_back(static_cast<uint32_t>(smpl.size()));
      for (int64_t i = 0; i < r.frames; ++i) smpl.push_back(frames[static_cast<std::size_t>(2 * i + ch)]);
      smpl.insert(smpl.end(), 46, 0);
    }
  }
  if (!songOnly) std::ofstream(dir / "piano.sfz") << spindle::bench::pianoSfz(regions, shape);
  if (sf2 && !songOnly) writeSf2((dir / "piano.sf2").string(), regions, smpl, starts, shape.rate, shape.release);
  const auto events = spindle::bench::denseSong(song);
  writeMidi((dir / "song.mid").string(), events, song.rate);
  // The same events as text, "seconds status data1 data2" a line: for a feeder that
  // plays them in real time into spindle's --midi-device (tests/stream_live).
  std::ofstream list(dir / "song.events");
  for (const auto& e : events)
    list << static_cast<double>(e.frame) / song.rate << ' ' << int{e.status} << ' ' << int{e.data1} << ' '
         << int{e.data2} << '\n';
  std::printf("regions %zu, files %zu, frames %lld, notes %d, song %.1f s\n", regions.size(), regions.size(),
              static_cast<long long>(total), spindle::bench::noteCount(events), song.seconds);
  return 0;
}
