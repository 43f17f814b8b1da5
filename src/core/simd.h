/* Compiling a hot loop for more than one instruction set. MB_AVX2_CLONES before a function
   makes the compiler build it twice, for AVX2 and for any x86-64, and the loader call the
   one the CPU can run (an ifunc; GCC and Clang on x86-64). Only for loops whose results do
   not depend on the instruction set: in ISO C mode (no -ffast-math, no FMA contraction)
   the compiler vectorises only across independent accumulators and keeps each one's
   order of operations, so both clones give the same bits. Elsewhere it expands to nothing. */
#ifndef MOREAU_SIMD_H
#define MOREAU_SIMD_H

#if defined(__x86_64__) && defined(__GNUC__) && defined(__has_attribute)
  #if __has_attribute(target_clones)
    #define MB_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
  #endif
#endif
#if !defined(MB_AVX2_CLONES)
  #define MB_AVX2_CLONES
#endif

#endif
