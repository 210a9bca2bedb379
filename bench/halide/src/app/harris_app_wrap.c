/* harris(R, C, img[R+2][C+2], harris[R-2][C-2]) on Halide's own
 * apps/harris: its three input channels are the port's grey image three
 * times over (a channel stride of 0), its output the port's (rows and
 * columns 2 on). Timed only. */
#include "harris_app.h"
#include "tf_halide.h"

void harris(int R, int C, float *img, float *out) {
	tf_init();
	struct halide_type_t f32 = {halide_type_float, 32, 1};
	halide_dimension_t din[3] = {{0, C + 2, 1, 0}, {0, R + 2, C + 2, 0}, {0, 3, 0, 0}};
	halide_dimension_t dout[2] = {{2, C - 2, 1, 0}, {2, R - 2, C - 2, 0}};
	halide_buffer_t in = tf_buffer(img, f32, 3, din);
	halide_buffer_t o = tf_buffer(out, f32, 2, dout);
	tf_check("harris (Halide's app)", harris_app(&in, &o));
}
