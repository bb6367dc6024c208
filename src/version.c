/* version.c — what a caller can ask of the library itself: its version and
 * which code path it was built with. */
#include "posnorm.h"

int pn_version(void) {
  return POSNORM_VERSION_MAJOR * 10000 + POSNORM_VERSION_MINOR * 100 +
         POSNORM_VERSION_PATCH;
}

int pn_simd_enabled(void) {
#if defined(__wasm_simd128__)
  return 1;
#else
  return 0;
#endif
}
