#pragma once
// Marks functions that run on the audio thread.
//
//   void process(...) SPINDLE_REALTIME;
//
// Under Clang >= 20 this expands to [[clang::nonblocking]], so -Wfunction-effects
// flags any call from such a function to one that may allocate, lock or block.
// Elsewhere it expands to nothing. RealtimeSanitizer (-fsanitize=realtime) checks
// the same functions at run time.

#if defined(__clang__) && (__clang_major__ >= 20)
#define SPINDLE_REALTIME [[clang::nonblocking]]
#else
#define SPINDLE_REALTIME
#endif
