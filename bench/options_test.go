package bench

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseList(t *testing.T) {
	known := []string{"none", "min", "smart", "max"}
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{"none", []string{"none"}, ""},
		{"max, none", []string{"max", "none"}, ""},
		{"none,min,smart,max", known, ""},
		{"none,", nil, "empty name"},
		{"nonee", nil, `unknown name "nonee" (known: none, min, smart, max)`},
		{"min,min", nil, `"min" given twice`},
	} {
		got, err := ParseList("--strategies", tc.in, known)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "--strategies") {
				t.Errorf("ParseList(%q) error %v, want one with %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseList(%q): %v", tc.in, err)
		} else if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseList(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Size
		err  string
	}{
		{"default", Size{Keyword: "default"}, ""},
		{"small", Size{Keyword: "small"}, ""},
		{"640x480", Size{W: 640, H: 480}, ""},
		{"640X480", Size{W: 640, H: 480}, ""},
		{"R=24,C=20", Size{Params: map[string]int64{"R": 24, "C": 20}}, ""},
		{" R = 24 ", Size{Params: map[string]int64{"R": 24}}, ""},
		{"", Size{}, "empty"},
		{"640x", Size{}, "want WxH"},
		{"0x480", Size{}, "want WxH"},
		{"-1x4", Size{}, "want WxH"},
		{"big", Size{}, "want WxH"},
		{"R=x", Size{}, `"R=x" is not NAME=INTEGER`},
		{"=3", Size{}, `"=3" is not NAME=INTEGER`},
		{"R=1,R=2", Size{}, "R given twice"},
	} {
		got, err := ParseSize(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseSize(%q) error %v, want one with %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseSize(%q): %v", tc.in, err)
		} else if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseSize(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestSizeApply(t *testing.T) {
	defaults := map[string]int64{"R": 2048, "C": 1024}
	small := map[string]int64{"R": 24, "C": 20}
	for _, tc := range []struct {
		size Size
		want map[string]int64
		err  string
	}{
		{Size{Keyword: "default"}, defaults, ""},
		{Size{}, defaults, ""},
		{Size{Keyword: "small"}, small, ""},
		{Size{W: 640, H: 480}, map[string]int64{"R": 480, "C": 640}, ""},
		{Size{Params: map[string]int64{"R": 10}}, map[string]int64{"R": 10, "C": 1024}, ""},
		{Size{Params: map[string]int64{"N": 10}}, nil, `no parameter "N"`},
	} {
		got, err := tc.size.Apply(defaults, small, "C", "R")
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%+v: error %v, want one with %q", tc.size, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%+v: %v", tc.size, err)
		} else if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tc.size, diff)
		}
	}
	if _, err := (Size{W: 3, H: 4}).Apply(map[string]int64{"N": 1}, nil, "C", "R"); err == nil {
		t.Error("WxH applied to a benchmark without C and R")
	}
	// The result is a fresh map.
	got, _ := Size{}.Apply(defaults, small, "C", "R")
	got["R"] = 1
	if defaults["R"] != 2048 {
		t.Error("Apply changed the defaults")
	}
}

func TestLabel(t *testing.T) {
	for _, tc := range []struct {
		params map[string]int64
		names  []string
		want   string
	}{
		{map[string]int64{"R": 480, "C": 640}, []string{"R", "C"}, "640x480"},
		{map[string]int64{"R": 480, "C": 640, "L": 3}, []string{"R", "C", "L"}, "R=480 C=640 L=3"},
		{map[string]int64{"n": 30, "tsteps": 20}, []string{"tsteps", "n"}, "tsteps=20 n=30"},
		{nil, nil, ""},
	} {
		if got := Label(tc.params, tc.names, "C", "R"); got != tc.want {
			t.Errorf("Label(%v) = %q, want %q", tc.params, got, tc.want)
		}
	}
}
