/* check.h — the C tests' CHECK macro and counters, shared by the test files
 * linked into build/native/test_kernels (and its SIMD128 twin). */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>

extern int passed, failed;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (cond) {                                                                \
      passed++;                                                                \
    } else {                                                                   \
      failed++;                                                                \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                              \
      printf(__VA_ARGS__);                                                     \
      printf("\n");                                                            \
    }                                                                          \
  } while (0)

/* tests/c/test_safety.c: the contract of #16 (regressions, sentinels,
 * boundaries) */
void test_safety(void);

/* tests/c/test_angles.c: sin and cos of p·w_i past 2^20 (double-double
 * angles) against mpmath, in pn_math.h and every kernel that takes them */
void test_angles(void);

#endif
