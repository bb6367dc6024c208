/* alloc_count.c — the counting pn_malloc / pn_free of the test builds
 * (-DPN_COUNT_ALLOC; see pn_alloc.h). Compiled into the native tests, the
 * simdtest build and the fuzzers only, never into the wasm modules. */
#include <stdint.h>

#include "pn_alloc.h"

#ifdef PN_COUNT_ALLOC

pn_alloc_counter pn_alloc_stats = {0, 0, 0, 0, 0, SIZE_MAX};

void *pn_malloc(size_t bytes) {
  pn_alloc_stats.requests++;
  pn_alloc_stats.last_request = bytes;
  if (bytes > pn_alloc_stats.limit) {
    pn_alloc_stats.refused++;
    return NULL;
  }
  void *p = malloc(bytes);
  if (p) pn_alloc_stats.allocs++;
  return p;
}

void pn_free(void *p) {
  if (p) pn_alloc_stats.frees++;
  free(p);
}

#else
/* ISO C wants a declaration in every translation unit */
typedef int pn_alloc_count_unused;
#endif
