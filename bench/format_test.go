package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/internal/golden"
)

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

// sampleTable has a cell of every status.
func sampleTable() *Table {
	ok := func(median time.Duration, compile time.Duration) Cell {
		return Cell{Status: OK, Median: median, Times: []time.Duration{median + ms(0.5), median, median - ms(0.25)}, Compile: compile,
			Check: "ok: equal bit for bit to the reference executor"}
	}
	ni := Cell{Status: NotInstalled, Err: "clang-14 not found"}
	failed := Cell{Status: Failed, Err: "no reference to check against: runner: reference (naive C (cc -O2)): cc: exit status 1"}
	return &Table{
		Suite: "polybench", Dataset: "MINI", Threads: 2, Warmup: 10, Repeat: 3, Tolerance: 1e-4, Baseline: "gcc",
		Columns: []Column{
			{Name: "none", Kind: Tilefuse, Description: "tilefuse --fuse none --parallel, opt/llc -O3 -mcpu=native, 2 threads"},
			{Name: "smart", Kind: Tilefuse, Description: "tilefuse --fuse smart --parallel, opt/llc -O3 -mcpu=native, 2 threads"},
			{Name: "gcc", Kind: Peer, Description: "naive C, gcc -O3 -march=native -fopenmp, 2 threads"},
			{Name: "gcc-serial", Kind: Peer, Description: "naive C, gcc -O3 -march=native -fopenmp, 1 thread"},
			{Name: "polly", Kind: Peer, Description: "not installed (clang-14 not found)"},
		},
		Rows: []Row{
			{Name: "gemm", Size: "MINI", Params: map[string]int64{"ni": 20, "nj": 25, "nk": 30}, Cells: []Cell{
				ok(ms(5), ms(120)), ok(ms(1.25), ms(450.5)), ok(ms(10), 0), ok(ms(20), 0), ni,
			}},
			{Name: "jacobi-2d", Size: "MINI", Params: map[string]int64{"tsteps": 20, "n": 30}, Cells: []Cell{
				{Status: Wrong, Median: ms(3), Times: []time.Duration{ms(3)}, Compile: ms(80), MaxRelErr: 0.5,
					Check: "WRONG: differs from the reference executor (bit for bit; max relative error 0.5): array A at element [1 1]: got 1, want 2",
					Err:   "WRONG: differs from the reference executor (bit for bit; max relative error 0.5): array A at element [1 1]: got 1, want 2"},
				{Status: BuildFailed, Err: "llc: exit status 1\nllc: error: m.bc: bad IR\n"},
				{Status: Crashed, Err: "kernel: signal: segmentation fault (core dumped)"},
				ok(ms(7), 0), ni,
			}},
			{Name: "heat-3d", Size: "MINI", Params: map[string]int64{"tsteps": 20, "n": 10}, Cells: []Cell{
				ok(2500*time.Millisecond, 2*time.Second), {Status: TimedOut, Err: "compiling took longer than 10m0s"},
				ok(10*time.Second, 0), ok(40*time.Second, 0), ni,
			}},
			{Name: "deriche", Size: "MINI", Params: map[string]int64{"w": 64, "h": 64}, Cells: []Cell{failed, failed, failed, failed, failed}},
		},
		Machine: &Machine{CPU: "Example CPU @ 3.00GHz", Cores: 2, Memory: 8 << 30, OS: "linux/amd64, Linux 6.1.0",
			Go: "go1.26.8", LLVM: "14.0.6", GCC: "12.2.0"},
	}
}

// polymageTable has rows of different sizes, a baseline that is a
// tilefuse column and short times.
func polymageTable() *Table {
	return &Table{
		Suite: "polymage", Threads: 16, Warmup: 0, Repeat: 1, Tolerance: 1e-4, Baseline: "none",
		Columns: []Column{
			{Name: "none", Kind: Tilefuse, Description: "tilefuse --fuse none --parallel --tile 32,64, opt/llc -O3 -mcpu=native, 16 threads"},
			{Name: "max", Kind: Tilefuse, Description: "tilefuse --fuse max --parallel --tile 32,64, opt/llc -O3 -mcpu=native, 16 threads"},
		},
		Rows: []Row{
			{Name: "harris", Size: "20x24", Params: map[string]int64{"R": 24, "C": 20}, Cells: []Cell{
				{Status: OK, Median: 950, Times: []time.Duration{950}, Compile: ms(300), Check: "ok: equal bit for bit to the reference executor"},
				{Status: OK, Median: 12345, Times: []time.Duration{12345}, Compile: ms(1500), Check: "ok: equal bit for bit to the reference executor"},
			}},
			{Name: "unsharp_mask", Size: "2048x2048", Params: map[string]int64{"R": 2048, "C": 2048}, Cells: []Cell{
				{Status: OK, Median: ms(123.4), Times: []time.Duration{ms(123.4)}, Compile: ms(200), Check: "ok: within relative tolerance 0.0001 of the naive C (cc -O2) (max relative error 1.2e-07)", MaxRelErr: 1.2e-7},
				{Status: OK, Median: ms(12.34), Times: []time.Duration{ms(12.34)}, Compile: ms(250), Check: "ok: equal bit for bit to the naive C (cc -O2)"},
			}},
		},
	}
}

// TestGolden compares WriteText, WriteCSV and WriteJSON of the sample
// tables with testdata/*.golden (go test -update rewrites them).
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name  string
		table *Table
	}{{"polybench", sampleTable()}, {"polymage", polymageTable()}} {
		for _, f := range []struct {
			ext   string
			write func(*bytes.Buffer, *Table) error
		}{
			{"txt", func(b *bytes.Buffer, t *Table) error { return WriteText(b, t) }},
			{"csv", func(b *bytes.Buffer, t *Table) error { return WriteCSV(b, t) }},
			{"json", func(b *bytes.Buffer, t *Table) error { return WriteJSON(b, t) }},
		} {
			t.Run(tc.name+"."+f.ext, func(t *testing.T) {
				var b bytes.Buffer
				if err := f.write(&b, tc.table); err != nil {
					t.Fatal(err)
				}
				golden.Check(t, filepath.Join("testdata", tc.name+"."+f.ext+".golden"), b.String())
			})
		}
	}
}

// TestFormatShapes checks what the golden files show by eye: every CSV
// line has the header's fields, the JSON reads back, and no status is
// hidden.
func TestFormatShapes(t *testing.T) {
	tab := sampleTable()
	var b bytes.Buffer
	if err := WriteCSV(&b, tab); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cells := len(tab.Rows) * len(tab.Columns)
	if len(recs) != 1+cells+len(tab.Columns) {
		t.Errorf("%d CSV lines, want header + %d cells + %d geometric means", len(recs), cells, len(tab.Columns))
	}
	if diff := cmp.Diff(csvHeader, recs[0]); diff != "" {
		t.Errorf("CSV header (-want +got):\n%s", diff)
	}

	b.Reset()
	if err := WriteJSON(&b, tab); err != nil {
		t.Fatal(err)
	}
	var back jsonTable
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Rows) != len(tab.Rows) || len(back.Rows[1].Cells) != len(tab.Columns) || back.Machine == nil || back.Machine.CPU == "" {
		t.Errorf("JSON read back as %+v", back)
	}

	b.Reset()
	if err := WriteText(&b, tab); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, s := range []Status{Wrong, BuildFailed, Crashed, TimedOut, NotInstalled, Failed} {
		if !strings.Contains(text, string(s)) {
			t.Errorf("the text table does not show %q:\n%s", s, text)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0 ns"},
		{999, "999 ns"},
		{time.Microsecond, "1.00 µs"},
		{12345, "12.3 µs"},
		{999_499, "999 µs"},
		{999_999, "1000 µs"},
		{ms(1.234), "1.23 ms"},
		{ms(99.96), "100 ms"},
		{time.Second, "1.00 s"},
		{45600 * time.Millisecond, "45.6 s"},
		{3 * time.Hour, "10800 s"},
	} {
		if got := FormatDuration(tc.d); got != tc.want {
			t.Errorf("FormatDuration(%d) = %q, want %q", int64(tc.d), got, tc.want)
		}
	}
}

func TestFormatRatio(t *testing.T) {
	for _, tc := range []struct {
		r    float64
		want string
	}{
		{1, "1.00x"}, {0.5, "0.50x"}, {0.004, "0.00x"}, {1.234, "1.23x"}, {12.34, "12.3x"}, {1234.5, "1234x"}, {9.999, "10.0x"},
	} {
		if got := FormatRatio(tc.r); got != tc.want {
			t.Errorf("FormatRatio(%g) = %q, want %q", tc.r, got, tc.want)
		}
	}
}
