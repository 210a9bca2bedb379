/* local_laplacian(R, C, img_colour[3][R+4][C+4], laplacian[3][R][C]) on
 * Halide's own apps/local_laplacian with the port's settings: 8 pyramid
 * levels (the generator's default) and 8 intensity levels, alpha 1 (the
 * app's driver passes alpha / (levels - 1)) and beta 1. Its input is the
 * image inside the port's ghost ring (the app repeats the edge itself).
 * Timed only. */
#include "local_laplacian_app.h"
#include "tf_halide.h"

void local_laplacian(int R, int C, uint16_t *img, uint16_t *out) {
	tf_init();
	struct halide_type_t u16 = {halide_type_uint, 16, 1};
	halide_dimension_t din[3] = {{0, C, 1, 0}, {0, R, C + 4, 0}, {0, 3, (R + 4) * (C + 4), 0}};
	halide_dimension_t dout[3] = {{0, C, 1, 0}, {0, R, C, 0}, {0, 3, R * C, 0}};
	halide_buffer_t in = tf_buffer(img + 2 * (C + 4) + 2, u16, 3, din);
	halide_buffer_t o = tf_buffer(out, u16, 3, dout);
	tf_check("local_laplacian (Halide's app)", local_laplacian_app(&in, 8, 1.0f / 7.0f, 1.0f, &o));
}
