/* pyramid_blending(R, C, img1[3][R+4][C+4], img2[3][R+4][C+4],
 * mask[R+4][C+4], blend[3][R+4][C+4]) on Halide's pipeline. */
#include "pyramid_blending_halide.h"
#include "tf_halide.h"

void pyramid_blending(int R, int C, float *img1, float *img2, float *mask, float *blend) {
	tf_init();
	struct halide_type_t f32 = {halide_type_float, 32, 1};
	int w = C + 4, h = R + 4;
	halide_dimension_t d1[3] = {{0, w, 1, 0}, {0, h, w, 0}, {0, 3, w * h, 0}};
	halide_dimension_t d2[3] = {{0, w, 1, 0}, {0, h, w, 0}, {0, 3, w * h, 0}};
	halide_dimension_t dm[2] = {{0, w, 1, 0}, {0, h, w, 0}};
	halide_dimension_t dout[3] = {{0, w, 1, 0}, {0, h, w, 0}, {0, 3, w * h, 0}};
	halide_buffer_t b1 = tf_buffer(img1, f32, 3, d1), b2 = tf_buffer(img2, f32, 3, d2);
	halide_buffer_t bm = tf_buffer(mask, f32, 2, dm), out = tf_buffer(blend, f32, 3, dout);
	tf_check("pyramid_blending", pyramid_blending_halide(&b1, &b2, &bm, &out));
}
