package scheduletree

import (
	"strings"
	"testing"
)

// TestJSONCoincidentLength refuses a coincident list of another length
// than the band's members (issue 17): a shorter one is not padded with
// false flags.
func TestJSONCoincidentLength(t *testing.T) {
	band := func(coincident string) string {
		return `{"kind": "domain", "domain": "{ S[i, j] }", "child": {"kind": "band", "schedule": "{ S[i, j] -> [i, j] }"` + coincident + `}}`
	}
	for _, tc := range []struct{ coincident, want string }{
		{`, "coincident": [true]`, "2 members but 1 coincident flags"},
		{`, "coincident": []`, "2 members but 0 coincident flags"},
		{`, "coincident": [true, false, true]`, "2 members but 3 coincident flags"},
		{`, "coincident": [true, false]`, ""},
		{``, ""},
	} {
		_, err := Unmarshal([]byte(band(tc.coincident)))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.coincident, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.coincident, err, tc.want)
		}
	}
}
