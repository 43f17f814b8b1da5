/* Compiling a hot loop for more than one instruction set. MB_AVX2_CLONES before a function
   makes the compiler build it twice, for AVX2 and for any x86-64, and the loader call the
   one the CPU can run (an ifunc; GCC and Clang on x86-64). Only for loops whose results do
   not depend on the instruction set: in ISO C mode (no -ffast-math, no FMA contraction)
   the compiler vectorises only across independent accumulators and keeps each one's
   order of operations, so both clones give the same bits. Elsewhere it expands to nothing. */
#ifndef MOREAU_SIMD_H
#define MOREAU_SIMD_H

#if defined(__x86_64__) && defined(__GNUC__) && defined(__has_attribute)
#  if __has_attribute(target_clones)
#    define MB_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#  endif
#endif
#if !defined(MB_AVX2_CLONES)
#  define MB_AVX2_CLONES
#endif

/* Hand-written AVX2 (intrinsics in a function marked __attribute__((target("avx2")))), for
   loops the compiler does not vectorise well: MB_AVX2_INTRINSICS is 1 where they can be
   compiled (x86-64, GCC or Clang, real scalars), and MbCpuHasAVX2() says at run time
   whether this CPU can run them; every caller keeps a portable variant with the same bits.
   Include after PETSc's headers (PETSC_USE_COMPLEX). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(PETSC_USE_COMPLEX)
#  include <immintrin.h>
#  define MB_AVX2_INTRINSICS 1
static inline int MbCpuHasAVX2(void) { return __builtin_cpu_supports("avx2"); }
#else
#  define MB_AVX2_INTRINSICS 0
static inline int MbCpuHasAVX2(void) { return 0; }
#endif

#endif
