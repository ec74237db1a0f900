#pragma once
// A fake home for the library index tests: HOME, XDG_DATA_HOME, XDG_DATA_DIRS,
// XDG_CACHE_HOME and XDG_CONFIG_HOME point into a scratch folder holding one instrument
// of each kind in the places the index reads:
//
//   home/.local/share/sfz/piano/piano.sfz        SFZ, label_cc1=Brightness, keys 40..80
//   home/.local/share/sfz/broken.sfz             an SFZ that loads no region (its error)
//   home/.local/share/soundfonts/three.sf2       a SoundFont of 3 presets
//   home/.hydrogen/data/drumkits/MyKit/          a Hydrogen kit folder with a picture
//   data/hydrogen/data/drumkits/Packed.h2drumkit a kit archive (XDG_DATA_DIRS)
//   home/Documents/Decent Sampler/Strings/strings.dspreset  a knob, a picture
//   extra/extra.sfz                              a saved user folder (spindle.conf)
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "catch.h"
#include "library/LibraryIndex.h"
#include "sf2/Sf2Writer.h"
#include "sf2/SoundFont.h"
#include "stream/TestAudioFiles.h"

namespace spindle::test {

struct LibraryTree {
  std::filesystem::path base, home, dataHome, dataDirs, extra;

  explicit LibraryTree(const std::string& name) : base(scratchDir(name)) {
    home = base / "home";
    dataHome = home / ".local" / "share";
    dataDirs = base / "data";
    extra = base / "extra";
    setenv("HOME", home.c_str(), 1);
    setenv("XDG_DATA_HOME", dataHome.c_str(), 1);
    setenv("XDG_DATA_DIRS", dataDirs.c_str(), 1);
    setenv("XDG_CACHE_HOME", (base / "cache").c_str(), 1);
    setenv("XDG_CONFIG_HOME", (base / "config").c_str(), 1);
    writeSfz();
    writeFont();
    writeKit(home / ".hydrogen" / "data" / "drumkits" / "MyKit", "My Kit");
    writePackedKit();
    writePreset();
    REQUIRE(library::saveUserFolders({extra}));
  }

  std::filesystem::path sfz() const { return dataHome / "sfz" / "piano" / "piano.sfz"; }
  std::filesystem::path broken() const { return dataHome / "sfz" / "broken.sfz"; }
  std::filesystem::path font() const { return dataHome / "soundfonts" / "three.sf2"; }
  std::filesystem::path kit() const { return home / ".hydrogen" / "data" / "drumkits" / "MyKit"; }
  std::filesystem::path packed() const { return dataDirs / "hydrogen" / "data" / "drumkits" / "Packed.h2drumkit"; }
  std::filesystem::path preset() const { return home / "Documents" / "Decent Sampler" / "Strings" / "strings.dspreset"; }
  std::filesystem::path extraSfz() const { return extra / "extra.sfz"; }
  std::vector<std::filesystem::path> all() const { return {sfz(), broken(), font(), kit(), packed(), preset(), extraSfz()}; }

  static void write(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
  }
  static void wav(const std::filesystem::path& path) {
    std::filesystem::create_directories(path.parent_path());
    writeWav16(path, 1, std::vector<int16_t>(100, 1000), 44100);
  }

 private:
  void writeSfz() {
    write(sfz(), "<control> label_cc1=Brightness\n<region> sample=*sine lokey=40 hikey=80\n");
    write(broken(), "<control> set_cc1=10\n");
    write(extraSfz(), "<region> sample=*sine key=60\n");
  }
  void writeFont() {
    Sf2Spec s;
    Sf2Sample sample;
    sample.name = "tone";
    sample.frames.assign(100, 1000);
    s.samples.push_back(sample);
    s.instruments.push_back({"I", {{{{sf2::kSampleID, 0}}, {}}}});
    using Named = std::tuple<const char*, int, int>;  // name, bank, program
    for (const auto& [name, bank, program] : std::vector<Named>{{"Alpha", 0, 0}, {"Beta", 0, 5}, {"Drums", 128, 0}})
      s.presets.push_back({name, static_cast<uint16_t>(program), static_cast<uint16_t>(bank),
                           {{{{sf2::kInstrument, 0}}, {}}}});
    const std::vector<uint8_t> bytes = writeSf2(s);
    std::filesystem::create_directories(font().parent_path());
    std::ofstream(font(), std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  static void writeKit(const std::filesystem::path& folder, const std::string& name) {
    write(folder / "drumkit.xml", "<?xml version=\"1.0\"?>\n<drumkit_info>\n <name>" + name +
                                      "</name>\n <image>kit.png</image>\n <instrumentList>\n"
                                      "  <instrument><id>0</id><name>Kick</name><volume>1</volume>\n"
                                      "   <layer><filename>kick.wav</filename><min>0</min><max>1</max></layer>\n"
                                      "  </instrument>\n </instrumentList>\n</drumkit_info>\n");
    wav(folder / "kick.wav");
    write(folder / "kit.png", "\x89PNG picture");
  }
  void writePackedKit() {
    writeKit(base / "packing" / "Packed", "Packed Kit");
    std::filesystem::create_directories(packed().parent_path());
    const std::string tar = "tar -czf '" + packed().string() + "' -C '" + (base / "packing").string() + "' Packed";
    REQUIRE(std::system(tar.c_str()) == 0);
  }
  void writePreset() {
    write(preset(), "<DecentSampler>\n <ui bgImage=\"images/bg.png\" width=\"800\" height=\"300\"><tab>\n"
                    "  <labeled-knob label=\"Tone\" minValue=\"0\" maxValue=\"1\" value=\"0.5\">\n"
                    "   <binding type=\"amp\" level=\"instrument\" parameter=\"AMP_VOLUME\"/></labeled-knob>\n"
                    " </tab></ui>\n <groups><group><sample path=\"s.wav\" loNote=\"60\" hiNote=\"72\" "
                    "rootNote=\"60\"/></group></groups>\n</DecentSampler>\n");
    wav(preset().parent_path() / "s.wav");
    write(preset().parent_path() / "images" / "bg.png", "\x89PNG picture");
  }
};

// The entry whose path is `path`; fails the test when there is none.
inline library::Entry entryAt(const std::vector<library::Entry>& entries, const std::filesystem::path& path) {
  for (const library::Entry& e : entries)
    if (e.path == path.string()) return e;
  FAIL("no entry for " << path.string());
  return {};
}

}  // namespace spindle::test
