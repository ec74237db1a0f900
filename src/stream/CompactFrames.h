#pragma once
// Compact frames: a sample's frames in RAM in the file's own sample format
// (core/SampleData.h says why and how they read back as float).
//
// Thread: the loader thread (SamplePool) only.
#include <cstdint>

#include "core/SampleData.h"
#include "stream/AudioFile.h"

namespace spindle::stream {

// The format a reader's frames keep in RAM: 16-bit integers for 16-bit (and narrower)
// integer files, 24-bit for 24-bit ones, float for everything else (float and double
// files, Ogg Vorbis, 32-bit integers).
SampleFormat compactFormatOf(AudioFileReader& reader) noexcept;

// Up to `frames` frames from the reader's position into planar storage in `format`
// (`right` null for mono). Returns the frames read, as AudioFileReader::readPlanar.
// Int24: `exact` turns false when a value read was not a 24-bit integer over 2^23 (a
// file mislabelled as 24-bit); the caller then reads the file again as float.
int64_t readCompact(AudioFileReader& reader, SampleFormat format, void* left, void* right, int64_t frames,
                    bool& exact);

// Reverses `frames` values of `format` in place.
void reverseValues(void* values, SampleFormat format, int64_t frames) noexcept;

}  // namespace spindle::stream
