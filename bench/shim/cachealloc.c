// tilefuse's caching allocator, loaded with LD_PRELOAD by 'tilefuse bench
// --alloc caching': large blocks (1 MiB and up) that the program frees are
// kept and handed out again for later requests of a similar size, so that
// code that allocates whole-image buffers on every call pays its page
// faults once, not on every call (a first-touched page costs about 12 us
// on the machines tilefuse is measured on). Halide's and other systems'
// benchmarks are usually run with such an allocator; bench offers it so
// that code is compared apart from page-fault cost.
//
// Small blocks go straight to glibc. The large blocks this file handed
// out are recorded in a table (there are few: whole buffers), so free()
// knows them without touching memory around the pointer.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

enum { LARGE = 1 << 20, SLOTS = 4096 };
static const size_t cacheLimit = (size_t)16 << 30; // bytes kept at most

struct block {
	void *p;
	size_t size;
	int live; // handed out (1) or cached (0)
};

static struct block table[SLOTS];
static int used;
static size_t cached;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

// take returns a cached block of at least n bytes and at most twice that,
// the smallest, marked live; NULL if none.
static void *take(size_t n) {
	int best = -1;
	for (int i = 0; i < used; i++) {
		struct block *b = &table[i];
		if (!b->live && b->size >= n && b->size <= 2 * n && (best < 0 || b->size < table[best].size))
			best = i;
	}
	if (best < 0)
		return NULL;
	table[best].live = 1;
	cached -= table[best].size;
	return table[best].p;
}

// record adds a fresh large block to the table; false when it is full.
static int record(void *p, size_t n) {
	for (int i = 0; i < used; i++) {
		if (table[i].p == NULL) {
			table[i] = (struct block){p, n, 1};
			return 1;
		}
	}
	if (used == SLOTS)
		return 0;
	table[used++] = (struct block){p, n, 1};
	return 1;
}

// find returns the table index of live block p, or -1.
static int find(void *p) {
	for (int i = 0; i < used; i++)
		if (table[i].p == p && table[i].live)
			return i;
	return -1;
}

static void *large(size_t n, int zero) {
	pthread_mutex_lock(&mu);
	void *p = take(n);
	pthread_mutex_unlock(&mu);
	if (p != NULL) {
		if (zero)
			memset(p, 0, n);
		return p;
	}
	p = zero ? __libc_calloc(1, n) : __libc_malloc(n);
	if (p == NULL)
		return NULL;
	pthread_mutex_lock(&mu);
	int ok = record(p, n);
	pthread_mutex_unlock(&mu);
	(void)ok; // an unrecorded block is freed by glibc as usual
	return p;
}

void *malloc(size_t n) { return n >= LARGE ? large(n, 0) : __libc_malloc(n); }

void *calloc(size_t k, size_t n) {
	if (n != 0 && k > SIZE_MAX / n) {
		errno = ENOMEM;
		return NULL;
	}
	size_t t = k * n;
	return t >= LARGE ? large(t, 1) : __libc_calloc(k, n);
}

void free(void *p) {
	if (p == NULL)
		return;
	pthread_mutex_lock(&mu);
	int i = find(p);
	if (i >= 0) {
		if (cached + table[i].size <= cacheLimit) {
			table[i].live = 0;
			cached += table[i].size;
			p = NULL;
		} else {
			table[i].p = NULL;
			table[i].live = 0;
		}
	}
	pthread_mutex_unlock(&mu);
	if (p != NULL)
		__libc_free(p);
}

void *realloc(void *p, size_t n) {
	if (p == NULL)
		return malloc(n);
	pthread_mutex_lock(&mu);
	int i = find(p);
	size_t old = i >= 0 ? table[i].size : 0;
	pthread_mutex_unlock(&mu);
	if (i < 0 && n < LARGE)
		return __libc_realloc(p, n);
	if (i >= 0 && n <= old)
		return p;
	void *q = malloc(n);
	if (q == NULL)
		return NULL;
	if (i >= 0) {
		memcpy(q, p, old);
	} else {
		// A small glibc block grows into a large one: glibc knows its size.
		extern size_t malloc_usable_size(void *);
		size_t have = malloc_usable_size(p);
		memcpy(q, p, have < n ? have : n);
	}
	free(p);
	return q;
}
