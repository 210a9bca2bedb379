package tune

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tilefuse/tilefuse/internal/safefile"
)

// Record is what one tuning found, cached for `--tile tuned`.
type Record struct {
	// Source is the program as the user named it; Program a digest of
	// the program itself, so that an edited source is tuned again.
	Source, Program string
	Strategy        string
	Machine         string
	Threads         int
	Params          map[string]int64
	// Best are the innermost tile sizes of the fastest verified trial;
	// Model the model's first choice.
	Best, Model []int64
	// Calibrated: the model ran with the machine's calibrated constants
	// (tune --calibrate), not DefaultCosts.
	Calibrated bool
	Trials     []Trial
	When       time.Time
}

// Trial is one candidate: its sizes, its rank and cost in the model,
// and its measured median (zero when it was not run), or why it failed.
// Median times are of one call, on Record.Threads threads.
type Trial struct {
	Sizes  []int64
	Rank   int
	Cost   float64
	Median time.Duration `json:",omitempty"`
	// Final: Median is from the interleaved rounds of the finalists,
	// not the candidate's first run.
	Final bool   `json:",omitempty"`
	Err   string `json:",omitempty"`
}

// Digest fingerprints a program's text (scop.Program.String).
func Digest(program string) string {
	h := sha256.Sum256([]byte(program))
	return hex.EncodeToString(h[:8])
}

// Key names the record of a program (its Digest) under a strategy on a
// machine (its caches and threads). The sizes tuned at are in the
// record, not the key: compile, which has none, finds the record too.
func Key(program, strategy string, m Machine) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%s\x00%s\x00%s", program, strategy, m))
	return hex.EncodeToString(h[:12])
}

// Dir is the records' directory in the user's cache directory.
func Dir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "tilefuse", "tune"), nil
}

// ErrNotTuned is Load's error when no record has the key.
var ErrNotTuned = errors.New("not tuned")

// Load reads the record key from dir.
func Load(dir, key string) (*Record, error) {
	b, err := os.ReadFile(filepath.Join(dir, key+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotTuned
	}
	if err != nil {
		return nil, err
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("tune: %s: %v", filepath.Join(dir, key+".json"), err)
	}
	if len(r.Best) == 0 {
		return nil, ErrNotTuned
	}
	return &r, nil
}

// Save writes r as the record key in dir.
func (r *Record) Save(dir, key string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return safefile.Write(filepath.Join(dir, key+".json"), append(b, '\n'))
}

// Records returns the records in dir made on m (its caches and threads),
// in file name order: the tuned programs whose trials calibrate the
// model at their own sizes. Files that are not records are skipped.
func Records(dir string, m Machine) ([]*Record, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []*Record
	for _, name := range names {
		if strings.HasPrefix(filepath.Base(name), "costs-") {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var r Record
		if json.Unmarshal(b, &r) != nil || r.Machine != m.String() || r.Source == "" || len(r.Trials) == 0 {
			continue
		}
		out = append(out, &r)
	}
	return out, nil
}
