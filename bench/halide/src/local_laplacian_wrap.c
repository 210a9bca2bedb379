/* local_laplacian(R, C, img_colour[3][R+4][C+4], laplacian[3][R][C]) on
 * Halide's pipeline. */
#include <math.h>

#include "local_laplacian_halide.h"
#include "tf_halide.h"

/* The remapping LUT's exp: libm's, as the port's C computes it. */
float tf_expf(float x) { return expf(x); }

void local_laplacian(int R, int C, uint16_t *img, uint16_t *out) {
	tf_init();
	struct halide_type_t u16 = {halide_type_uint, 16, 1};
	halide_dimension_t din[3] = {{0, C + 4, 1, 0}, {0, R + 4, C + 4, 0}, {0, 3, (R + 4) * (C + 4), 0}};
	halide_dimension_t dout[3] = {{0, C, 1, 0}, {0, R, C, 0}, {0, 3, R * C, 0}};
	halide_buffer_t in = tf_buffer(img, u16, 3, din);
	halide_buffer_t o = tf_buffer(out, u16, 3, dout);
	tf_check("local_laplacian", local_laplacian_halide(&in, &o));
}
