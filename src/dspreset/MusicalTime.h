#pragma once
// A DecentSampler control of valueType="musical_time" yields an index into note
// lengths, which a delay with delayTimeFormat="musical_time" takes as its time. The
// guide names no table; Spindle reads the indices 0..20 (its example knob's range,
// whose default 10 is then a quarter note) as triplet, straight and dotted lengths
// from 1/32 up to a whole note, then 2, 3 and 4 bars of 4/4:
//
//   index  0  1  2    3  4  5    6  7  8    9 10 11   12 13 14   15 16 17   18 19 20
//   note  1/32 T .  D  1/16 T . D  1/8 T . D  1/4 T . D  1/2 T . D  1/1 T . D  2  3  4 bars
//
// (T triplet: 2/3 of the length; D dotted: 3/2.) Indices beyond the table are clamped.
namespace spindle::dspreset {

// The length of musical-time index `index` in quarter-note beats.
double musicalTimeBeats(int index);

}  // namespace spindle::dspreset
