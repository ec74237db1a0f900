#include "stream/SamplePool.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <system_error>
#include <utility>

#include "core/Limits.h"
#include "stream/AudioFile.h"
#include "stream/CompactFrames.h"
#include "stream/Generators.h"
#include "stream/SampleSlice.h"

namespace spindle::stream {

namespace {
constexpr int64_t kGuard = limits::kGuardFrames;

std::size_t storageBytes(int channels, int64_t frames, SampleFormat format) {
  return static_cast<std::size_t>(bytesPerValue(format) * (channels > 1 ? 2 : 1) * (frames + 2 * kGuard));
}

std::string mib(std::size_t bytes) { return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB"; }
}  // namespace

std::size_t defaultMemoryBudget() noexcept {
  const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0) return std::size_t{1} << 30;
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(pageSize) / 2;
}

SamplePool::SamplePool(PoolOptions options)
    : options_(options), budget_(options.memoryBudget ? options.memoryBudget : defaultMemoryBudget()) {}
SamplePool::~SamplePool() = default;

int64_t PreloadNeed::preloadFor(int64_t frames, double fileRate) const noexcept {
  if (frames <= 0) return 0;  // no preload asked (an offline render waits for the disk)
  const double rate = std::max(fileRate / 48000.0, 1.0);  // a 96 kHz file plays twice as fast
  const double speed = std::clamp(std::exp2(cents / 1200.0) * rate, 1.0, kMaxSpeed);
  return std::clamp<int64_t>(offsetFrames, 0, kMaxOffsetFrames) +
         static_cast<int64_t>(std::ceil(static_cast<double>(frames) * speed));
}

const SampleData* SamplePool::acquire(const std::string& path, SampleDirection direction, const PreloadNeed& need) {
  auto& byPath = byPath_[static_cast<std::size_t>(direction)];
  if (const auto it = byPath.find(path); it != byPath.end()) {
    const SampleRecord& known = *records_[it->second];
    return known.loaded ? &known.data : nullptr;
  }
  const auto id = static_cast<uint32_t>(records_.size());
  auto record = std::make_unique<SampleRecord>();
  record->path = path;
  record->direction = direction;
  record->data.id = id;
  load(*record, need);
  records_.push_back(std::move(record));
  byPath.emplace(path, id);
  const SampleRecord& added = *records_.back();
  return added.loaded ? &added.data : nullptr;
}

std::vector<const SampleData*> SamplePool::acquireAll(const std::vector<std::string>& paths) {
  std::vector<const SampleData*> out;
  out.reserve(paths.size());
  for (const std::string& path : paths) out.push_back(acquire(path));
  return out;
}

const SampleRecord* SamplePool::find(const std::string& path, SampleDirection direction) const {
  const auto& byPath = byPath_[static_cast<std::size_t>(direction)];
  const auto it = byPath.find(path);
  return it == byPath.end() ? nullptr : records_[it->second].get();
}

std::size_t SamplePool::loadedCount() const noexcept {
  return static_cast<std::size_t>(std::count_if(records_.begin(), records_.end(),
                                                 [](const auto& r) { return r->loaded; }));
}

std::size_t SamplePool::bytesPerSample() const noexcept {
  const std::size_t loaded = loadedCount();
  return loaded > 0 ? bytesInRam_ / loaded : 0;
}

std::size_t SamplePool::streamedCount() const noexcept {
  return static_cast<std::size_t>(std::count_if(records_.begin(), records_.end(), [](const auto& r) {
    return r->loaded && r->data.framesInRam < r->data.totalFrames;
  }));
}

void SamplePool::load(SampleRecord& record, const PreloadNeed& need) {
  record.loaded = isGeneratorName(record.path) ? loadGenerator(record) : loadFile(record, need);
  if (record.loaded && record.direction == SampleDirection::Reverse) reverseFrames(record);
  if (!record.loaded) return;
  bytesInRam_ += record.storageBytes;
  SampleData& data = record.data;
  if (data.format == SampleFormat::Float32 && data.framesInRam >= data.totalFrames)
    data.table = static_cast<const float*>(data.frames[0]);
}

// Zero-filled planar storage for `frames` frames of 1 or 2 channels in `format`,
// guards included; points data.frames[] at frame 0 of each channel (both at one buffer
// for mono).
// Returns the writable addresses of frame 0 of each channel (the second null for mono).
std::array<void*, 2> SamplePool::allocate(SampleRecord& record, int channels, int64_t frames, SampleFormat format) {
  const int buffers = channels > 1 ? 2 : 1;
  const auto stride = static_cast<std::size_t>(frames + 2 * kGuard) * static_cast<std::size_t>(bytesPerValue(format));
  const auto guard = static_cast<std::size_t>(kGuard * bytesPerValue(format));
  record.storageBytes = stride * static_cast<std::size_t>(buffers);
  record.storage = std::make_unique<std::byte[]>(record.storageBytes);  // value-initialised: zeros
  std::byte* const left = record.storage.get() + guard;
  std::byte* const right = buffers == 2 ? left + stride : nullptr;
  record.data.frames[0] = left;
  record.data.frames[1] = right ? right : left;
  record.data.format = format;
  record.data.channels = buffers;
  record.data.framesInRam = frames;
  return {left, right};
}

const float* SamplePool::makeTable(const SampleData* sample) {
  if (!sample || sample->id >= records_.size()) return nullptr;
  SampleRecord& record = *records_[sample->id];
  SampleData& data = record.data;
  if (data.table || data.framesInRam < data.totalFrames) return data.table;
  record.tableStorage = std::make_unique<float[]>(static_cast<std::size_t>(data.framesInRam + 2 * kGuard));
  data.readFrames(0, -kGuard, data.framesInRam + 2 * kGuard, record.tableStorage.get());
  bytesInRam_ += sizeof(float) * static_cast<std::size_t>(data.framesInRam + 2 * kGuard);
  data.table = record.tableStorage.get() + kGuard;
  return data.table;
}

bool SamplePool::fitsBudget(SampleRecord& record, std::size_t needed) {
  if (needed <= budget_ && bytesInRam_ <= budget_ - needed) return true;
  const bool reversed = record.direction == SampleDirection::Reverse;
  report(record, PoolMessage::Kind::Unreadable,
         "sample file " + record.path + (reversed ? " (reversed: direction=reverse)" : "") +
             " not loaded: it needs " + mib(needed) + " in RAM and the memory budget of " + mib(budget_) + " has " +
             mib(budget_ - std::min(budget_, bytesInRam_)) + " left (raise --memory-budget" +
             (reversed ? "; a reversed sample is held whole)" : ", or stream it with a smaller preload)"));
  return false;
}

bool SamplePool::loadGenerator(SampleRecord& record) {
  auto generated = generateSample(record.path);
  if (!generated) {
    report(record, PoolMessage::Kind::Unreadable,
           "unknown sample generator '" + record.path +
               "' (known: *sine, *triangle, *tri, *saw, *square, *noise, *silence)");
    return false;
  }
  const auto frames = static_cast<int64_t>(generated->frames.size());
  const auto out = allocate(record, 1, frames, SampleFormat::Float32);
  std::copy(generated->frames.begin(), generated->frames.end(), static_cast<float*>(out[0]));
  record.formatName = "generator";
  record.fileChannels = 1;
  record.data.totalFrames = frames;
  record.data.sampleRate = generated->sampleRate;
  record.data.loopStart = generated->loopStart;
  record.data.loopEnd = generated->loopEnd;
  record.data.oscillator = generated->oscillator;
  return true;
}

bool SamplePool::loadFile(SampleRecord& record, const PreloadNeed& need) {
  const auto reader = openFile(record);
  if (!reader) return false;
  const AudioFileInfo& info = reader->info();
  const int64_t preload = options_.preloadFrames < 0 ? -1 : need.preloadFor(options_.preloadFrames, info.sampleRate);
  const bool streamed = record.direction == SampleDirection::Forward && preload >= 0 &&
                        info.frames > preload + std::max<int64_t>(0, options_.readFrames);
  const int64_t wanted = streamed ? preload : info.frames;
  const int64_t got = readFrames(record, *reader, wanted);
  if (!decodedEnough(record, *reader, got, wanted)) return false;
  describeFrames(record, *reader, got, streamed);
  return true;
}

// Opens the record's file and notes its format; null (reported) when it is missing or
// unreadable.
std::unique_ptr<AudioFileReader> SamplePool::openFile(SampleRecord& record) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(fileOfPath(record.path), ec)) {
    report(record, PoolMessage::Kind::Missing, "sample file not found: " + record.path);
    return nullptr;
  }
  std::string error;
  auto reader = AudioFileReader::open(record.path, error);
  if (!reader) {
    report(record, PoolMessage::Kind::Unreadable,
           "cannot read sample file " + record.path + ": " + error);
    return nullptr;
  }
  const AudioFileInfo& info = reader->info();
  record.format = info.format;
  record.formatName = info.formatName;
  record.fileChannels = info.channels;
  if (!info.warning.empty()) report(record, PoolMessage::Kind::Warning, "sample file " + record.path + ": " + info.warning);
  if (info.channels > 2)
    report(record, PoolMessage::Kind::Warning,
           "sample file " + record.path + " has " + std::to_string(info.channels) +
               " channels; using the first two");
  return reader;
}

// Whether readFrames() gave a sample to keep: false (reported, unless over the budget,
// which fitsBudget() reported) when it read nothing; a short read keeps what it got.
bool SamplePool::decodedEnough(SampleRecord& record, const AudioFileReader& reader, int64_t got, int64_t wanted) {
  if (got < 0) return false;
  if (got == 0 && wanted > 0) {
    report(record, PoolMessage::Kind::Unreadable,
           "cannot decode sample file " + record.path + ": " +
               (reader.lastError().empty() ? "no audio frames" : reader.lastError()));
    record.storage.reset();
    return false;
  }
  if (got < wanted) {
    report(record, PoolMessage::Kind::Warning,
           "sample file " + record.path + ": decoded " + std::to_string(got) + " of " +
               std::to_string(wanted) + " frames" +
               (reader.lastError().empty() ? "" : " (" + reader.lastError() + ")"));
    // The zeroed tail past `got` stays in place as a longer guard.
  }
  return true;
}

// Fills in what the engine and the disk thread need to know of the `got` frames in RAM:
// the whole length and where the stream resumes when `streamed`, rate, loop, root key.
void SamplePool::describeFrames(SampleRecord& record, AudioFileReader& reader, int64_t got, bool streamed) {
  const AudioFileInfo& info = reader.info();
  record.data.framesInRam = got;
  int64_t boundary = 0;
  uint64_t byte = 0;
  if (streamed && reader.boundary(boundary, byte) && boundary == got) record.data.streamByte = byte;
  record.data.totalFrames = streamed ? info.frames : got;
  record.data.path = streamed ? record.path.c_str() : nullptr;
  record.data.sampleRate = info.sampleRate;
  record.data.loopStart = info.loopEnd < record.data.totalFrames ? info.loopStart : -1;
  record.data.loopEnd = info.loopEnd < record.data.totalFrames ? info.loopEnd : -1;
  record.data.rootKey = info.rootKey;
}

// Allocates the record's storage in the file's compact format and reads `wanted`
// frames into it; the frames read, or -1 when they do not fit the memory budget. A file
// whose values turn out not to be what its header says (not exactly 24-bit) is read
// again as float.
int64_t SamplePool::readFrames(SampleRecord& record, AudioFileReader& reader, int64_t wanted) {
  const int channels = reader.info().channels;
  SampleFormat format = compactFormatOf(reader);
  for (;;) {
    if (!fitsBudget(record, storageBytes(channels, wanted, format))) return -1;
    const auto out = allocate(record, channels, wanted, format);
    bool exact = true;
    const int64_t got = readCompact(reader, format, out[0], out[1], wanted, exact);
    if (exact || format == SampleFormat::Float32 || !reader.seek(0)) return got;
    format = SampleFormat::Float32;
  }
}

// Reverses the frames in RAM of a record loaded whole (loadFile never streams a reversed
// record), in place; the guards stay zeros. The loop (a file's smpl loop, a generator's
// table) is mirrored: the same frames loop, now counted from the file's last frame.
void SamplePool::reverseFrames(SampleRecord& record) {
  SampleData& data = record.data;
  const auto guard = static_cast<std::size_t>(kGuard * bytesPerValue(data.format));
  const std::size_t stride = record.storageBytes / static_cast<std::size_t>(data.channels);
  for (int c = 0; c < data.channels; ++c)
    reverseValues(record.storage.get() + static_cast<std::size_t>(c) * stride + guard, data.format, data.framesInRam);
  if (data.loopStart < 0 || data.loopEnd < data.loopStart) return;
  const int64_t last = data.totalFrames - 1, loopStart = data.loopStart;
  data.loopStart = last - data.loopEnd;
  data.loopEnd = last - loopStart;
}

void SamplePool::report(SampleRecord& record, PoolMessage::Kind kind, std::string text) {
  if (kind != PoolMessage::Kind::Warning) {
    record.missing = kind == PoolMessage::Kind::Missing;
    record.error = text;
  }
  const auto twin = record.direction == SampleDirection::Reverse ? find(record.path) : nullptr;
  if (twin && twin->error == text) return;  // the forward record said it already
  messages_.push_back(PoolMessage{kind, record.path, std::move(text)});
}

}  // namespace spindle::stream
