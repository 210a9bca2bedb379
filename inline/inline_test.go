package inline_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/inline"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// TestPolymageBitExact runs every PolyMage pipeline at its test size
// before and after inlining and compares the live-out arrays bit for bit.
func TestPolymageBitExact(t *testing.T) {
	for _, e := range polymage.All() {
		t.Run(e.Name, func(t *testing.T) {
			p, err := e.Build()
			if err != nil {
				t.Fatal(err)
			}
			q, done, err := inline.Program(p, inline.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d of %d statements inlined: %v", len(done), len(p.Stmts), done)
			if got, want := len(q.Stmts), len(p.Stmts)-len(done); got != want {
				t.Fatalf("%d statements left, want %d", got, want)
			}
			want := execute(t, e, p)
			got := execute(t, e, q)
			for name, w := range want {
				m, err := scop.Compare(got[name], w, 0)
				if err != nil {
					t.Fatal(err)
				}
				if m != nil {
					t.Errorf("%s: %s", name, m)
				}
			}
		})
	}
}

// execute runs p on e's deterministic inputs and returns its live-out
// arrays.
func execute(t *testing.T, e polymage.Entry, p *scop.Program) map[string]*scop.Buffer {
	t.Helper()
	in, err := e.Inputs(p, e.Small, 1)
	if err != nil {
		t.Fatal(err)
	}
	return liveOuts(t, p, e.Small, func(bufs map[string]*scop.Buffer) {
		for name, b := range in {
			bufs[name] = b
		}
	})
}

// liveOuts runs p with the inputs fill puts in its buffers and returns
// its live-out arrays.
func liveOuts(t *testing.T, p *scop.Program, params map[string]int64, fill func(map[string]*scop.Buffer)) map[string]*scop.Buffer {
	t.Helper()
	bufs, err := refexec.Alloc(p, params)
	if err != nil {
		t.Fatal(err)
	}
	fill(bufs)
	if err := refexec.Run(p, params, bufs); err != nil {
		t.Fatal(err)
	}
	out := map[string]*scop.Buffer{}
	for _, a := range p.Arrays {
		if a.LiveOut {
			out[a.Name] = bufs[a.Name]
		}
	}
	return out
}

// TestRules: which stages of small C programs are inlined, and every
// program computes the same arrays before and after.
func TestRules(t *testing.T) {
	tests := []struct {
		name, src string
		keep      []string // Options.Keep
		want      []string
	}{
		{"stencil of a product", `void f(int n, float in[n + 2], float out[n]) {
  float c[n + 2];
  for (int j = 0; j < n + 2; j++) c[j] = in[j] * in[j];
  for (int i = 0; i < n; i++) out[i] = c[i] + c[i + 1] + c[i + 2];
}`, nil, []string{"S0"}},
		{"input overwritten after the stage", `void f(int n, float in[n], float out[n]) {
  float c[n];
  for (int j = 0; j < n; j++) c[j] = in[j] * 2.0f;
  for (int j = 0; j < n; j++) in[j] = 0.0f;
  for (int i = 0; i < n; i++) out[i] = c[i];
}`, nil, nil},
		{"elements read that it does not write", `void f(int n, float in[n], float out[n]) {
  float c[n];
  for (int j = 0; j < n / 2; j++) c[j] = in[j] * 2.0f;
  for (int i = 0; i < n; i++) out[i] = c[i];
}`, nil, nil},
		{"a division read at five points", `void f(int n, float in[n + 4], float out[n]) {
  float c[n + 4];
  for (int j = 0; j < n + 4; j++) c[j] = in[j] / 3.0f;
  for (int i = 0; i < n; i++) out[i] = c[i] + c[i + 1] + c[i + 2] + c[i + 3] + c[i + 4];
}`, nil, nil},
		{"an expensive stage read once", `void f(int n, float in[n], float out[n]) {
  float c[n];
  for (int j = 0; j < n; j++) c[j] = (in[j] / 3.0f + in[j] / 5.0f) / 7.0f;
  for (int i = 0; i < n; i++) out[i] = c[i] * c[i];
}`, nil, []string{"S0"}},
		{"an expensive stage read by two", `void f(int n, float in[n], float out[n], float out2[n]) {
  float c[n];
  for (int j = 0; j < n; j++) c[j] = (in[j] / 3.0f + in[j] / 5.0f) / 7.0f;
  for (int i = 0; i < n; i++) out[i] = c[i] * c[i];
  for (int i = 0; i < n; i++) out2[i] = c[i] + 1.0f;
}`, nil, nil},
		{"one loop", `void f(int n, float in[n], float out[n]) {
  float c[n];
  for (int j = 0; j < n; j++) {
    c[j] = in[j] * 2.0f;
    out[j] = c[j];
  }
}`, nil, nil},
		{"a second writer", `void f(int n, float in[n], float out[n]) {
  float c[n];
  for (int j = 0; j < n; j++) c[j] = in[j];
  for (int j = 0; j < n; j++) c[j] = c[j] * 2.0f;
  for (int i = 0; i < n; i++) out[i] = c[i];
}`, nil, nil},
		{"live-out values", `void f(int n, float in[n], float c[n], float out[n]) {
  for (int j = 0; j < n; j++) c[j] = in[j] * 2.0f;
  for (int i = 0; i < n; i++) out[i] = c[i];
}`, nil, nil},
		// C's / truncates: i / 4 is not read as a 4× upsampling, whose
		// recomputation the rules could bound, so it stays.
		{"upsampled", `void f(int n, float in[n + 2], float out[4 * n]) {
  float c[n + 1];
  for (int j = 0; j < n + 1; j++) c[j] = in[j] + in[j + 1];
  for (int i = 0; i < 4 * n; i++) out[i] = c[i / 4] + c[i / 4 + 1];
}`, nil, nil},
		// Halide's interpolate: premultiplied colour, alpha as it is.
		// Its consumer reads it at even and odd points (2x: one x per
		// element) and reads alpha from every channel (a constant extent
		// of 4), where the selection folds to a load.
		{"channels by selection", `void f(int n, float img[4][2 * n + 1], float out[4][n]) {
  float d[4][2 * n + 1];
  for (int c = 0; c < 4; c++)
    for (int x = 0; x < 2 * n + 1; x++)
      d[c][x] = c < 3 ? img[c][x] * img[3][x] : img[3][x];
  for (int c = 0; c < 4; c++)
    for (int x = 0; x < n; x++)
      out[c][x] = (d[c][2 * x] + d[c][2 * x + 1] + d[c][2 * x + 2]) * d[3][2 * x + 1];
}`, nil, []string{"S0"}},
		// Each element read by the four channels: four times the
		// divisions.
		{"a division read by four channels", `void f(int n, float in[n], float out[4][n]) {
  float d[n];
  for (int x = 0; x < n; x++) d[x] = in[x] / 3.0f + in[x] / 5.0f;
  for (int c = 0; c < 4; c++)
    for (int x = 0; x < n; x++)
      out[c][x] = d[x] * 2.0f;
}`, nil, nil},
		// Each element read by every row: no bound at all.
		{"a row read by every row", `void f(int n, float in[n], float out[n][n]) {
  float d[n];
  for (int x = 0; x < n; x++) d[x] = in[x] * in[x];
  for (int y = 0; y < n; y++)
    for (int x = 0; x < n; x++)
      out[y][x] = d[x] + 1.0f;
}`, nil, nil},
		{"a chain", `void f(int n, float in[n], float out[n]) {
  float a[n], b[n];
  for (int j = 0; j < n; j++) a[j] = in[j] + 1.0f;
  for (int j = 0; j < n; j++) b[j] = a[j] * a[j];
  for (int i = 0; i < n; i++) out[i] = b[i] - a[i];
}`, nil, []string{"S0", "S1"}},
		{"a chain keeping S0", `void f(int n, float in[n], float out[n]) {
  float a[n], b[n];
  for (int j = 0; j < n; j++) a[j] = in[j] + 1.0f;
  for (int j = 0; j < n; j++) b[j] = a[j] * a[j];
  for (int i = 0; i < n; i++) out[i] = b[i] - a[i];
}`, []string{"S0"}, []string{"S1"}},
	}
	params := map[string]int64{"n": 16}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			progs, err := cparse.Parse("test.c", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			p := progs[0]
			q, done, err := inline.Program(p, inline.Options{Keep: tc.keep})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, st := range done {
				got = append(got, st.Stmt)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("inlined (-want +got)\n%s", diff)
			}
			want, have := run(t, p, params), run(t, q, params)
			for name, w := range want {
				if m, err := scop.Compare(have[name], w, 0); err != nil || m != nil {
					t.Errorf("%s: %v %v", name, m, err)
				}
			}
		})
	}
}

// run executes p on seeded inputs and returns its live-out arrays.
func run(t *testing.T, p *scop.Program, params map[string]int64) map[string]*scop.Buffer {
	t.Helper()
	return liveOuts(t, p, params, func(bufs map[string]*scop.Buffer) {
		for i, a := range p.Arrays {
			if a.LiveIn {
				bufs[a.Name].Fill(uint64(i + 1))
			}
		}
	})
}
