package tune

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Machine is what the model weighs a working set against.
type Machine struct {
	// L1, L2 are the data caches of one core; L3 the largest cache,
	// shared by the threads (bytes).
	L1, L2, L3 int64
	// Threads run the tiles.
	Threads int
}

// Default caches when the system does not say (a common x86 core).
const (
	defaultL1 = 32 << 10
	defaultL2 = 512 << 10
	defaultL3 = 8 << 20
)

// ReadMachine reads the cache sizes of CPU 0 from sysfs (sysfs is its
// root, "/sys" on Linux); a level it does not find keeps the default.
func ReadMachine(sysfs string, threads int) Machine {
	m := Machine{L1: defaultL1, L2: defaultL2, L3: defaultL3, Threads: max(threads, 1)}
	dirs, _ := filepath.Glob(filepath.Join(sysfs, "devices/system/cpu/cpu0/cache/index*"))
	for _, d := range dirs {
		read := func(name string) string {
			b, _ := os.ReadFile(filepath.Join(d, name))
			return strings.TrimSpace(string(b))
		}
		if t := read("type"); t == "Instruction" {
			continue
		}
		size, err := parseSize(read("size"))
		if err != nil {
			continue
		}
		switch read("level") {
		case "1":
			m.L1 = size
		case "2":
			m.L2 = size
		case "3":
			m.L3 = size
		}
	}
	return m
}

// parseSize reads sysfs's cache sizes: 32K, 512K, 16M, or bytes.
func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("tune: cache size %q", s)
	}
	return v * mult, nil
}

// String names the machine for a cache key and a report.
func (m Machine) String() string {
	return fmt.Sprintf("L1 %dK, L2 %dK, L3 %dK, %d threads", m.L1>>10, m.L2>>10, m.L3>>10, m.Threads)
}
