package draw

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Bench is the JSON that 'tilefuse bench --format json' writes (package
// bench's WriteJSON), as far as the chart reads it.
type Bench struct {
	Suite    string `json:"suite"`
	Dataset  string `json:"dataset"`
	Threads  int    `json:"threads"`
	Warmup   int    `json:"warmup"`
	Repeat   int    `json:"repeat"`
	Baseline string `json:"baseline"`
	// Allocator is "caching" for a run under bench's caching allocator,
	// empty for the system's.
	Allocator string        `json:"allocator"`
	Machine   *BenchMachine `json:"machine"`
	Columns   []struct {
		Name        string `json:"name"`
		Kind        string `json:"kind"`
		Description string `json:"description"`
	} `json:"columns"`
	Rows []struct {
		Benchmark string `json:"benchmark"`
		Size      string `json:"size"`
		Cells     []struct {
			Column string   `json:"column"`
			Status string   `json:"status"`
			Median *float64 `json:"median_s"`
			Ratio  *float64 `json:"ratio"`
			Noisy  bool     `json:"noisy"`
			Error  string   `json:"error"`
		} `json:"cells"`
		Limit *float64 `json:"limit_s"`
	} `json:"rows"`
	Geomean []struct {
		Column string   `json:"column"`
		Ratio  *float64 `json:"ratio"`
		Count  int      `json:"count"`
		// Noisy counts the rows of the mean whose cells are noisy.
		Noisy int `json:"noisy"`
	} `json:"geomean"`
}

// BenchMachine is the JSON's machine description.
type BenchMachine struct {
	CPU       string  `json:"cpu"`
	Cores     int     `json:"cores"`
	Memory    int64   `json:"memory_bytes"`
	OS        string  `json:"os"`
	Go        string  `json:"go"`
	LLVM      string  `json:"llvm"`
	GCC       string  `json:"gcc"`
	Clang     string  `json:"clang"`
	Bandwidth float64 `json:"stream_bytes_per_s"`
	// Date is when the run started (RFC 3339), empty in older JSON.
	Date string `json:"date"`
}

// String describes the machine in one line.
func (m *BenchMachine) String() string {
	if m == nil {
		return "machine unknown"
	}
	cpu := m.CPU
	if cpu == "" {
		cpu = "unknown CPU"
	}
	parts := []string{fmt.Sprintf("%s, %d cores", cpu, m.Cores)}
	if m.Memory > 0 {
		parts[0] += fmt.Sprintf(", %.1f GiB", float64(m.Memory)/(1<<30))
	}
	if m.OS != "" {
		parts = append(parts, m.OS)
	}
	tools := []string{}
	for _, t := range []struct{ name, v string }{{"", m.Go}, {"LLVM ", m.LLVM}, {"gcc ", m.GCC}, {"clang ", m.Clang}} {
		if t.v != "" {
			tools = append(tools, t.name+t.v)
		}
	}
	if len(tools) > 0 {
		parts = append(parts, strings.Join(tools, ", "))
	}
	if m.Bandwidth > 0 {
		parts = append(parts, fmt.Sprintf("stream %.1f GB/s", m.Bandwidth/1e9))
	}
	return strings.Join(parts, "; ")
}

// ReadBench reads bench's JSON.
func ReadBench(data []byte) (*Bench, error) {
	var b Bench
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("reading the bench JSON: %v", err)
	}
	if len(b.Columns) == 0 {
		return nil, fmt.Errorf("reading the bench JSON: no columns")
	}
	return &b, nil
}
