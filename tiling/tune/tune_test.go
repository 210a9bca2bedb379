package tune

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestCandidates(t *testing.T) {
	tests := []struct {
		n      int
		values []int64
		want   [][]int64
	}{
		{1, []int64{8, 16}, [][]int64{{8}, {16}}},
		{2, []int64{8, 16}, [][]int64{{8, 8}, {8, 16}, {16, 8}, {16, 16}}},
		{0, []int64{8}, nil},
		{2, nil, nil},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, Candidates(tc.n, tc.values)); diff != "" {
			t.Errorf("Candidates(%d, %v) (-want +got):\n%s", tc.n, tc.values, diff)
		}
	}
	if got := len(Candidates(2, Values)); got != 49 {
		t.Errorf("%d candidates of two members, want 49", got)
	}
}

func TestDefaultInner(t *testing.T) {
	tests := []struct {
		n    int
		want []int64
	}{{1, []int64{1024}}, {2, []int64{16, 1024}}, {3, []int64{1, 16, 1024}}}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, DefaultInner(tc.n)); diff != "" {
			t.Errorf("DefaultInner(%d) (-want +got):\n%s", tc.n, diff)
		}
	}
}

func TestReadMachine(t *testing.T) {
	root := t.TempDir()
	write := func(index, level, typ, size string) {
		d := filepath.Join(root, "devices/system/cpu/cpu0/cache", index)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, v := range map[string]string{"level": level, "type": typ, "size": size} {
			if err := os.WriteFile(filepath.Join(d, name), []byte(v+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("index0", "1", "Data", "48K")
	write("index1", "1", "Instruction", "64K")
	write("index2", "2", "Unified", "2048K")
	write("index3", "3", "Unified", "32M")
	want := Machine{L1: 48 << 10, L2: 2 << 20, L3: 32 << 20, Threads: 4}
	if diff := cmp.Diff(want, ReadMachine(root, 4)); diff != "" {
		t.Errorf("ReadMachine (-want +got):\n%s", diff)
	}
	// Without sysfs, the defaults; at least one thread.
	want = Machine{L1: defaultL1, L2: defaultL2, L3: defaultL3, Threads: 1}
	if diff := cmp.Diff(want, ReadMachine(t.TempDir(), 0)); diff != "" {
		t.Errorf("ReadMachine of an empty root (-want +got):\n%s", diff)
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  bool
	}{{"32K", 32 << 10, false}, {"8M", 8 << 20, false}, {"1G", 1 << 30, false}, {"4096", 4096, false}, {"", 0, true}, {"-1K", 0, true}, {"12Q", 0, true}}
	for _, tc := range tests {
		got, err := parseSize(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d, error %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestRecord(t *testing.T) {
	dir := t.TempDir()
	m := Machine{L1: 1 << 15, L2: 1 << 19, L3: 1 << 23, Threads: 2}
	key := Key(Digest("program"), "post", m)
	if _, err := Load(dir, key); !errors.Is(err, ErrNotTuned) {
		t.Fatalf("Load before Save: %v, want ErrNotTuned", err)
	}
	rec := &Record{Source: "polymage/harris", Program: Digest("program"), Strategy: "post", Machine: m.String(), Threads: 2,
		Params: map[string]int64{"R": 64}, Best: []int64{16, 64}, Model: []int64{32, 64},
		Trials: []Trial{{Sizes: []int64{16, 64}, Rank: 2, Cost: 10, Median: time.Millisecond, Final: true}, {Sizes: []int64{8, 8}, Rank: 49, Err: "wrong"}},
		When:   time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)}
	if err := rec.Save(dir, key); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir, key)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rec, got); diff != "" {
		t.Errorf("Load(Save(r)) (-want +got):\n%s", diff)
	}
	// The key tells programs, strategies and machines apart.
	other := []string{Key(Digest("program2"), "post", m), Key(Digest("program"), "min", m), Key(Digest("program"), "post", Machine{L1: 1 << 15, L2: 1 << 19, L3: 1 << 23, Threads: 4})}
	for _, k := range other {
		if k == key {
			t.Errorf("key %s repeats", k)
		}
	}
}

func TestLoadCost(t *testing.T) {
	m := Machine{L1: 32 << 10, L2: 512 << 10, L3: 8 << 20, Threads: 2}
	c := DefaultCosts
	prev := 0.0
	for _, ws := range []float64{1 << 10, 32 << 10, 64 << 10, 512 << 10, 1 << 20, 4 << 20, 8 << 20, 64 << 20, 1 << 30} {
		l := c.load(ws, m)
		if l < prev {
			t.Errorf("load(%g) = %g, less than at a smaller working set (%g)", ws, l, prev)
		}
		if l < c.L1 || l > c.Memory {
			t.Errorf("load(%g) = %g, outside [%g, %g]", ws, l, c.L1, c.Memory)
		}
		prev = l
	}
	if got := c.load(16<<10, m); got != c.L1 {
		t.Errorf("load within L1 = %g, want %g", got, c.L1)
	}
	if got := c.load(1<<30, m); got != c.Memory {
		t.Errorf("load beyond L3 = %g, want %g", got, c.Memory)
	}
}
