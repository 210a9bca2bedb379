/* interpolate(R, C, img[4][R+2][C+2], interpolate[3][R][C]) on Halide's
 * own apps/interpolate: its input is the image inside the port's ghost
 * ring (the app repeats the edge itself), its output the port's.
 * Timed only. */
#include "interpolate_app.h"
#include "tf_halide.h"

void interpolate(int R, int C, float *img, float *out) {
	tf_init();
	struct halide_type_t f32 = {halide_type_float, 32, 1};
	halide_dimension_t din[3] = {{0, C, 1, 0}, {0, R, C + 2, 0}, {0, 4, (R + 2) * (C + 2), 0}};
	halide_dimension_t dout[3] = {{0, C, 1, 0}, {0, R, C, 0}, {0, 3, R * C, 0}};
	halide_buffer_t in = tf_buffer(img + (C + 2) + 1, f32, 3, din);
	halide_buffer_t o = tf_buffer(out, f32, 3, dout);
	tf_check("interpolate (Halide's app)", interpolate_app(&in, &o));
}
