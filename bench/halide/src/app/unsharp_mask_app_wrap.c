/* unsharp_mask(R, C, img[3][R+4][C+4], mask[3][R][C]) on Halide's own
 * apps/unsharp (another algorithm): its output is the port's, at rows and
 * columns 2 on of the image. Timed only. */
#include "unsharp_mask_app.h"
#include "tf_halide.h"

void unsharp_mask(int R, int C, float *img, float *mask) {
	tf_init();
	struct halide_type_t f32 = {halide_type_float, 32, 1};
	halide_dimension_t din[3] = {{0, C + 4, 1, 0}, {0, R + 4, C + 4, 0}, {0, 3, (R + 4) * (C + 4), 0}};
	halide_dimension_t dout[3] = {{2, C, 1, 0}, {2, R, C, 0}, {0, 3, R * C, 0}};
	halide_buffer_t in = tf_buffer(img, f32, 3, din);
	halide_buffer_t out = tf_buffer(mask, f32, 3, dout);
	tf_check("unsharp_mask (Halide's app)", unsharp_mask_app(&in, &out));
}
