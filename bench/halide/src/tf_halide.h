/* Helpers of the wrappers: each wrapper defines the benchmark's function
 * with tilefuse's C signature and calls the Halide pipeline on its
 * arrays. Included after the pipeline's generated header, which declares
 * Halide's runtime. */
#include <stdio.h>
#include <stdlib.h>

/* tf_error prints Halide's errors on the standard error (Halide's
 * default handler prints them on the standard output, which the harness
 * reserves for its times); the pipeline then returns an error code. */
static void tf_error(void *user_context, const char *msg) {
	(void)user_context;
	fprintf(stderr, "%s\n", msg);
}

/* tf_init gives Halide's thread pool the threads OpenMP gets in the
 * other columns (OMP_NUM_THREADS, which the harness's runner sets) and
 * installs tf_error. */
static void tf_init(void) {
	static int done;
	if (!done) {
		const char *s = getenv("OMP_NUM_THREADS");
		if (s && atoi(s) > 0) {
			halide_set_num_threads(atoi(s));
		}
		halide_set_error_handler(tf_error);
		done = 1;
	}
}

/* tf_buffer describes a dense row-major C array as a Halide buffer: dims
 * innermost first, each {min, extent, stride, 0}; host points at the
 * element at the mins (the array's first element). */
static halide_buffer_t tf_buffer(void *host, struct halide_type_t t, int n, halide_dimension_t *dim) {
	halide_buffer_t b = {0};
	b.host = (uint8_t *)host;
	b.type = t;
	b.dimensions = n;
	b.dim = dim;
	return b;
}

/* tf_check stops the program when the pipeline fails (its error is
 * already printed by Halide's runtime). */
static void tf_check(const char *name, int err) {
	if (err != 0) {
		fprintf(stderr, "%s: Halide pipeline failed with error %d\n", name, err);
		exit(3);
	}
}
