#pragma once
// kSanitized: this build runs under AddressSanitizer or ThreadSanitizer, where a render
// takes 5 to 20 times as long as in the optimised build. The longest renders play a
// shorter song there: the sanitizer checks the same code paths (memory, races), and the
// optimised build (the ci section) checks the full length.
namespace spindle::test {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

}  // namespace spindle::test
