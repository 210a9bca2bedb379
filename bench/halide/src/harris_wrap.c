/* harris(R, C, img[R+2][C+2], harris[R-2][C-2]) on Halide's pipeline:
 * harris[i][j] is the output at row i+2, column j+2. */
#include "harris_halide.h"
#include "tf_halide.h"

void harris(int R, int C, float *img, float *out) {
	tf_init();
	struct halide_type_t f32 = {halide_type_float, 32, 1};
	halide_dimension_t din[2] = {{0, C + 2, 1, 0}, {0, R + 2, C + 2, 0}};
	halide_dimension_t dout[2] = {{2, C - 2, 1, 0}, {2, R - 2, C - 2, 0}};
	halide_buffer_t in = tf_buffer(img, f32, 2, din);
	halide_buffer_t o = tf_buffer(out, f32, 2, dout);
	tf_check("harris", harris_halide(&in, &o));
}
