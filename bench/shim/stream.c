// The streaming bandwidth of the machine, as bench's limit column uses
// it: a scale kernel (a[i] = s * b[i], STREAM's "scale") over arrays far
// larger than any cache, with every thread of the run, after a first
// pass that touches every page. It prints the best of ten passes in
// bytes per second, counting each element read once and written once.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(void) {
	const long n = 1L << 26; // 256 MiB per array
	float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
	if (a == NULL || b == NULL)
		return 1;
#pragma omp parallel for schedule(static)
	for (long i = 0; i < n; i++) {
		a[i] = 0;
		b[i] = (float)(i & 1023);
	}
	double best = 1e30;
	for (int r = 0; r < 10; r++) {
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
#pragma omp parallel for schedule(static)
		for (long i = 0; i < n; i++)
			a[i] = 1.5f * b[i];
		clock_gettime(CLOCK_MONOTONIC, &t1);
		double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
		if (s < best)
			best = s;
	}
	volatile float sink = a[n / 3];
	(void)sink;
	printf("%.0f\n", 2.0 * (double)n * sizeof(float) / best);
	free(a);
	free(b);
	return 0;
}
