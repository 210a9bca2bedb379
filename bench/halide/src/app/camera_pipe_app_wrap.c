/* camera_pipe(R, C, img[R][C], matrix_3200[3][4], matrix_7000[3][4],
 * process[3][R-48][C-64]) on Halide's own apps/camera_pipe, with the
 * settings its Makefile runs: 3700 K, gamma 2, contrast 50, sharpening 1,
 * black level 25, white level 1023. The app's output (x, y) is the
 * input's (x+16, y+12), as the port's process[c][y][x]; its schedule
 * bounds the output to whole vectors of 2 x 32 u16 and strips of 32
 * rows, so it writes the first (C-64)/64*64 columns of the first
 * (R-48)/32*32 rows of each plane (its channel 0 is red, the port's
 * blue). Timed only. */
#include "camera_pipe_app.h"
#include "tf_halide.h"

void camera_pipe(int R, int C, uint16_t *img, float *m3200, float *m7000, uint8_t *process) {
	tf_init();
	struct halide_type_t u16 = {halide_type_uint, 16, 1}, f32 = {halide_type_float, 32, 1}, u8 = {halide_type_uint, 8, 1};
	int w = (C - 64) / 64 * 64, h = (R - 48) / 32 * 32;
	halide_dimension_t dimg[2] = {{0, C, 1, 0}, {0, R, C, 0}};
	halide_dimension_t dm1[2] = {{0, 4, 1, 0}, {0, 3, 4, 0}}, dm2[2] = {{0, 4, 1, 0}, {0, 3, 4, 0}};
	halide_dimension_t dout[3] = {{0, w, 1, 0}, {0, h, C - 64, 0}, {0, 3, (R - 48) * (C - 64), 0}};
	halide_buffer_t in = tf_buffer(img, u16, 2, dimg);
	halide_buffer_t m1 = tf_buffer(m3200, f32, 2, dm1), m2 = tf_buffer(m7000, f32, 2, dm2);
	halide_buffer_t out = tf_buffer(process, u8, 3, dout);
	tf_check("camera_pipe (Halide's app)", camera_pipe_app(&in, &m1, &m2, 3700.0f, 2.0f, 50.0f, 1.0f, 25, 1023, &out));
}
