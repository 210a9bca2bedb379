package bench

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ParseList reads a comma-separated list of names, each one of known,
// without repeats, in the order given. what names the option in errors.
func ParseList(what, s string, known []string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		switch {
		case f == "":
			return nil, fmt.Errorf("%s %q: empty name", what, s)
		case !slices.Contains(known, f):
			return nil, fmt.Errorf("%s: unknown name %q (known: %s)", what, f, strings.Join(known, ", "))
		case slices.Contains(out, f):
			return nil, fmt.Errorf("%s: %q given twice", what, f)
		}
		out = append(out, f)
	}
	return out, nil
}

// Size is a --size option: a keyword (default, small), an image size W x
// H, or parameter values.
type Size struct {
	// Keyword is "default" or "small" (each benchmark's own sizes), or
	// empty.
	Keyword string
	// W and H are the width and height of WxH (0 otherwise).
	W, H int64
	// Params are NAME=V,... values (nil otherwise).
	Params map[string]int64
}

// ParseSize reads --size: "default", "small", "WxH" (e.g. 2048x1024,
// both positive) or "NAME=V,..." (integers, names not repeated).
func ParseSize(s string) (Size, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "default", "small":
		return Size{Keyword: s}, nil
	case "":
		return Size{}, fmt.Errorf("--size: empty")
	}
	if !strings.Contains(s, "=") {
		w, h, ok := strings.Cut(strings.ToLower(s), "x")
		W, err1 := strconv.ParseInt(w, 10, 64)
		H, err2 := strconv.ParseInt(h, 10, 64)
		if !ok || err1 != nil || err2 != nil || W <= 0 || H <= 0 {
			return Size{}, fmt.Errorf("--size %s: want WxH (two positive integers, e.g. 2048x1024), NAME=V,..., default or small", s)
		}
		return Size{W: W, H: H}, nil
	}
	params := map[string]int64{}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if !ok || err != nil || k == "" {
			return Size{}, fmt.Errorf("--size %s: %q is not NAME=INTEGER", s, kv)
		}
		if _, dup := params[k]; dup {
			return Size{}, fmt.Errorf("--size %s: %s given twice", s, k)
		}
		params[k] = n
	}
	return Size{Params: params}, nil
}

// Apply gives the size's values to a benchmark whose own sizes are
// defaults and small: an image's width goes to parameter width and its
// height to height (PolyMage's C and R). The result is a fresh map.
func (s Size) Apply(defaults, small map[string]int64, width, height string) (map[string]int64, error) {
	out := map[string]int64{}
	switch {
	case s.Keyword == "small":
		for k, v := range small {
			out[k] = v
		}
		return out, nil
	default:
		for k, v := range defaults {
			out[k] = v
		}
	}
	if s.W > 0 {
		_, okW := out[width]
		_, okH := out[height]
		if !okW || !okH {
			return nil, fmt.Errorf("--size WxH needs parameters %s and %s", width, height)
		}
		out[width], out[height] = s.W, s.H
	}
	for k, v := range s.Params {
		if _, ok := out[k]; !ok {
			return nil, fmt.Errorf("--size: no parameter %q", k)
		}
		out[k] = v
	}
	return out, nil
}

// Label describes params for a table: WxH when they are exactly the
// width and the height, NAME=V in the order of names otherwise.
func Label(params map[string]int64, names []string, width, height string) string {
	if len(params) == 2 {
		w, okW := params[width]
		h, okH := params[height]
		if okW && okH {
			return fmt.Sprintf("%dx%d", w, h)
		}
	}
	var parts []string
	for _, n := range names {
		if v, ok := params[n]; ok {
			parts = append(parts, fmt.Sprintf("%s=%d", n, v))
		}
	}
	return strings.Join(parts, " ")
}
