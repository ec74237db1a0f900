#pragma once
// Marks functions that run on the audio thread.
//
//   void process(...) SPINDLE_REALTIME;
//
// Under Clang >= 20 this expands to [[clang::nonblocking]], so -Wfunction-effects
// flags any call from such a function to one that may allocate, lock or block.
// Elsewhere it expands to nothing. RealtimeSanitizer (-fsanitize=realtime) checks
// the same functions at run time.

//
// A template that runs on the audio thread for some of its arguments and elsewhere for
// others (a live process call never waits for the disk, a waiting render does) says
// which with SPINDLE_REALTIME_IF(constant expression): the live instantiation is checked
// as SPINDLE_REALTIME is, the other is not a real-time function at all.

#if defined(__clang__) && (__clang_major__ >= 20)
#define SPINDLE_REALTIME [[clang::nonblocking]]
#define SPINDLE_REALTIME_IF(condition) [[clang::nonblocking(condition)]]
#else
#define SPINDLE_REALTIME
#define SPINDLE_REALTIME_IF(condition)
#endif
