package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tilefuse/tilefuse/scop/charness"
)

// gpuResults is what 'gpu run' measured on the GPU machine.
type gpuResults struct {
	Date    string      `json:"date"`
	Machine string      `json:"machine"` // nvidia-smi -L, or uname
	Results []gpuResult `json:"results"`
}

// gpuResult is one binary's run; Bin names its manifest entry.
type gpuResult struct {
	Bin string `json:"bin"`
	// Status is "ok" (ran; Got is its output's SHA-256), "failed" (Err
	// says why) or "not run" (out of time).
	Status string  `json:"status"`
	Err    string  `json:"error,omitempty"`
	Got    string  `json:"got_sha256,omitempty"`
	Times  []int64 `json:"times_ns,omitempty"` // every timed call, in order
}

// gpuRunTimeout bounds one binary's run.
const gpuRunTimeout = 60 * time.Second

func gpuRunCmd(e *env, cmd *command, args []string) int {
	fs := flag.NewFlagSet("gpu run", flag.ContinueOnError)
	budget := fs.Duration("for", 270*time.Second, "start no binary after this")
	pos, err := parseInterspersed(fs, e, cmd, gpuHelp, args)
	if err != nil {
		return exitUsageOr(err)
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(e.stderr, "tilefuse gpu run: "+format+"\n", a...)
		return exitUsage
	}
	if len(pos) != 2 {
		return fail("want DIR and ARCHIVE; usage: tilefuse gpu %s", cmd.args)
	}
	dir, archive := pos[0], pos[1]
	manifest, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return fail("%v", fileError(err))
	}
	var m gpuManifest
	if err := json.Unmarshal(manifest, &m); err != nil {
		return fail("%s/manifest.json: %v", dir, err)
	}
	work, err := os.MkdirTemp("", "tilefuse-gpu-run-")
	if err != nil {
		return fail("%v", err)
	}
	defer os.RemoveAll(work)
	res := gpuResults{Date: time.Now().UTC().Format(time.RFC3339), Machine: gpuMachine()}
	until := time.Now().Add(*budget)
	for _, ent := range m.Entries {
		r := gpuResult{Bin: ent.Bin, Status: "not run"}
		if time.Now().Before(until) {
			r = runGPUEntry(dir, work, ent)
		}
		msg := r.Status
		if r.Err != "" {
			msg += ": " + r.Err
		}
		fmt.Fprintf(e.stderr, "tilefuse gpu run: %s: %s\n", ent.Bin, msg)
		res.Results = append(res.Results, r)
	}
	results, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return fail("%v", err)
	}
	data, err := gpuArchive(map[string][]byte{"manifest.json": manifest, "results.json": append(results, '\n')})
	if err != nil {
		return fail("%v", err)
	}
	if err := writeWhole(archive, data); err != nil {
		return fail("%v", fileError(err))
	}
	return exitOK
}

// runGPUEntry writes ent's input, runs its binary once (no warm-up,
// ent.Repeat timed calls) and hashes its output.
func runGPUEntry(dir, work string, ent gpuEntry) gpuResult {
	r := gpuResult{Bin: ent.Bin, Status: "failed"}
	failed := func(err error) gpuResult {
		r.Err = strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; ")
		return r
	}
	progs, err := loadPrograms(ent.Source, "")
	if err != nil {
		return failed(err)
	}
	p := progs[0]
	_, args, err := gpuInputs(ent.Source, p, ent.Params)
	if err != nil {
		return failed(err)
	}
	in, err := charness.Encode(p, args)
	if err != nil {
		return failed(err)
	}
	if got := sha256Hex(in); got != ent.Input {
		return failed(fmt.Errorf("the input generated here differs from the one the reference had (SHA-256 %s, want %s)", got, ent.Input))
	}
	inFile, outFile := filepath.Join(work, "in"), filepath.Join(work, "out")
	defer os.Remove(inFile)
	defer os.Remove(outFile)
	if err := os.WriteFile(inFile, in, 0o644); err != nil {
		return failed(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), gpuRunTimeout)
	defer cancel()
	c := exec.CommandContext(ctx, filepath.Join(dir, ent.Bin), inFile, outFile, "0", strconv.Itoa(ent.Repeat))
	var stderr bytes.Buffer
	c.Stderr = &stderr
	stdout, err := c.Output()
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("timed out after %v", gpuRunTimeout)
		}
		return failed(fmt.Errorf("%v: %s", err, firstLine(stderr.String())))
	}
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	for sc.Scan() {
		if ns, ok := strings.CutPrefix(sc.Text(), "tilefuse-time "); ok {
			v, err := strconv.ParseInt(ns, 10, 64)
			if err != nil {
				return failed(fmt.Errorf("bad time line %q", sc.Text()))
			}
			r.Times = append(r.Times, v)
		}
	}
	if len(r.Times) != ent.Repeat {
		return failed(fmt.Errorf("%d times reported for %d calls", len(r.Times), ent.Repeat))
	}
	out, err := os.ReadFile(outFile)
	if err != nil {
		return failed(err)
	}
	r.Status, r.Got = "ok", sha256Hex(out)
	return r
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// gpuMachine names the GPU machine: nvidia-smi's list of GPUs (with the
// driver, where nvidia-smi is), or the kernel's name.
func gpuMachine() string {
	if out, err := exec.Command("nvidia-smi", "-L").Output(); err == nil {
		return strings.TrimSpace(string(out))
	}
	if out, err := exec.Command("uname", "-srm").Output(); err == nil {
		return "no nvidia-smi; " + strings.TrimSpace(string(out))
	}
	return "unknown"
}

// gpuArchive packs files (name: contents) into a gzipped tar.
func gpuArchive(files map[string][]byte) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, name := range []string{"manifest.json", "results.json"} {
		data := files[name]
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), ModTime: time.Now()}); err != nil {
			return nil, err
		}
		if _, err := tw.Write(data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// readGPUArchive unpacks the manifest and results of an archive.
func readGPUArchive(name string) (*gpuManifest, *gpuResults, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, fileError(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", name, err)
	}
	files := map[string][]byte{}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", name, err)
		}
		if files[h.Name], err = io.ReadAll(tr); err != nil {
			return nil, nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	var m gpuManifest
	var r gpuResults
	for _, f := range []struct {
		name string
		v    any
	}{{"manifest.json", &m}, {"results.json", &r}} {
		data, ok := files[f.name]
		if !ok {
			return nil, nil, fmt.Errorf("%s: no %s in the archive", name, f.name)
		}
		if err := json.Unmarshal(data, f.v); err != nil {
			return nil, nil, fmt.Errorf("%s: %s: %v", name, f.name, err)
		}
	}
	return &m, &r, nil
}
