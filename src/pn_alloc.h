/* pn_alloc.h — the kernels' scratch allocations go through pn_malloc and
 * pn_free; not part of the API.
 *
 * Production builds (the wasm modules) call malloc and free directly: no
 * counters, no global state. Test builds (-DPN_COUNT_ALLOC: the native C
 * tests, the simdtest build and the fuzzers) count every request,
 * allocation and free in pn_alloc_stats (src/alloc_count.c), so a test can
 * assert that a call allocated nothing before it validated its arguments
 * and that every allocation was freed; and they refuse any request above
 * pn_alloc_stats.limit bytes as if malloc had returned NULL, so a test
 * reaches a kernel's PN_ERR_NOMEM path, and sees the exact byte count the
 * kernel asked for, without allocating gigabytes. */
#ifndef PN_ALLOC_H
#define PN_ALLOC_H

#include <stddef.h>
#include <stdlib.h>

#ifdef PN_COUNT_ALLOC

typedef struct {
  size_t requests;     /* calls of pn_malloc, refused ones included       */
  size_t allocs;       /* of them, the ones that returned memory          */
  size_t frees;        /* calls of pn_free with a non-NULL pointer        */
  size_t refused;      /* requests above `limit` (returned NULL unasked)  */
  size_t last_request; /* the byte count of the latest request            */
  size_t limit;        /* requests above this many bytes return NULL;
                          SIZE_MAX (the default) refuses none             */
} pn_alloc_counter;

extern pn_alloc_counter pn_alloc_stats;

void *pn_malloc(size_t bytes);
void pn_free(void *p);

#else

static inline void *pn_malloc(size_t bytes) { return malloc(bytes); }
static inline void pn_free(void *p) { free(p); }

#endif

#endif /* PN_ALLOC_H */
