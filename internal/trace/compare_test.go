package trace

import (
	"strings"
	"testing"
)

func TestCompare(t *testing.T) {
	s := func(i int64) Instance { return Instance{"S", []int64{i}} }
	u := Instance{"U", nil}
	at := func(in Instance, time ...int64) Timed { return Timed{in, time} }
	// S(0) and S(1) share time [0]; S(2) comes after them, U last.
	want := []Timed{at(s(0), 0), at(s(1), 0), at(s(2), 1), at(u, 2)}
	tests := []struct {
		name string
		got  []Instance
		err  string // "" for equal
	}{
		{name: "same", got: []Instance{s(0), s(1), s(2), u}},
		{name: "permuted within a time", got: []Instance{s(1), s(0), s(2), u}},
		{name: "out of order", got: []Instance{s(0), s(2), s(1), u},
			err: "instance 1: got S(2), scheduled at [1]; want S(1) at [0]"},
		{name: "missing at the end", got: []Instance{s(1), s(0), s(2)},
			err: "the code ended after 3 of the schedule's 4 instances; want U() at [2]"},
		{name: "missing in a group", got: []Instance{s(1)},
			err: "ended after 1 of the schedule's 4 instances; want S(0) at [0]"},
		{name: "missing with others left", got: nil,
			err: "want S(0) at [0] (or one of 1 more at that time)"},
		{name: "extra", got: []Instance{s(0), s(1), s(2), u, s(7)},
			err: "instance 4, after the schedule's 4 instances: got S(7), which the schedule does not have"},
		{name: "not scheduled", got: []Instance{s(0), s(5), s(2), u},
			err: "instance 1: got S(5), which the schedule does not have; want S(1) at [0]"},
		{name: "repeated", got: []Instance{s(0), s(0), s(2), u},
			err: "instance 1: got S(0) for the 2. time (the schedule has it 1 times); want S(1) at [0]"},
		{name: "repeated at the end", got: []Instance{s(0), s(1), s(2), u, u},
			err: "instance 4, after the schedule's 4 instances: got U() for the 2. time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Compare(tt.got, want)
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("Compare: %v", err)
			case tt.err == "":
			case err == nil:
				t.Errorf("Compare: nil, want %q", tt.err)
			case !strings.Contains(err.Error(), tt.err):
				t.Errorf("Compare:\n got %q\nwant %q", err, tt.err)
			}
		})
	}
}
