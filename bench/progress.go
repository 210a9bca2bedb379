package bench

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Progress reports a run's advance on a stream (standard error). On a
// terminal it keeps one line up to date: a bar, the count of cells done,
// the cell at work and how long it has been at it, redrawn every second.
// Elsewhere (a file, a pipe, a test) it writes one plain line per
// finished cell. A nil *Progress reports nothing.
type Progress struct {
	w    io.Writer
	tty  bool
	name string // the lines' prefix: "bench"

	mu       sync.Mutex
	total    int
	done     int
	cur      string
	curStart time.Time
	stop     chan struct{}
	wg       sync.WaitGroup
	now      func() time.Time
}

// NewProgress reports on w, redrawing one line when tty is set.
func NewProgress(w io.Writer, tty bool) *Progress {
	return &Progress{w: w, tty: tty, name: "bench", now: time.Now}
}

// Named sets the command the lines name (tune's trials, say) and
// returns p.
func (p *Progress) Named(name string) *Progress {
	p.name = name
	return p
}

// IsTerminal reports whether w is a terminal (a character device: what
// a terminal is to the file system; /dev/null is one too, and redrawing
// a line there costs nothing).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Begin starts a run of total cells.
func (p *Progress) Begin(total int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.total, p.done = total, 0
	p.mu.Unlock()
	if p.tty {
		p.stop = make(chan struct{})
		p.wg.Add(1)
		go p.tick()
	}
}

// tick redraws the line every second until End.
func (p *Progress) tick() {
	defer p.wg.Done()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.draw()
			p.mu.Unlock()
		}
	}
}

// Start says that the cell of benchmark row in column col is at work.
func (p *Progress) Start(row, col string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cur, p.curStart = row+" "+col, p.now()
	if p.tty {
		p.draw()
	}
}

// Done reports the cell's outcome.
func (p *Progress) Done(row, col string, c Cell) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.cur = ""
	if p.tty {
		p.draw()
		return
	}
	fmt.Fprintf(p.w, "%s: [%d/%d] %s %s: %s\n", p.name, p.done, p.total, row, col, cellSummary(c))
}

// Note writes a line of its own (a warning), above the progress line on
// a terminal.
func (p *Progress) Note(format string, args ...any) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		io.WriteString(p.w, "\r\033[K")
	}
	fmt.Fprintf(p.w, p.name+": "+format+"\n", args...)
	if p.tty {
		p.draw()
	}
}

// End clears the progress line.
func (p *Progress) End() {
	if p == nil {
		return
	}
	if p.tty && p.stop != nil {
		close(p.stop)
		p.wg.Wait()
		p.stop = nil
		p.mu.Lock()
		io.WriteString(p.w, "\r\033[K")
		p.mu.Unlock()
	}
}

// draw rewrites the terminal line; p.mu is held.
func (p *Progress) draw() {
	const barWidth = 24
	filled := 0
	if p.total > 0 {
		filled = p.done * barWidth / p.total
	}
	bar := strings.Repeat("=", filled) + strings.Repeat(" ", barWidth-filled)
	line := fmt.Sprintf("[%s] %d/%d", bar, p.done, p.total)
	if p.cur != "" {
		line += fmt.Sprintf("  %s (%ds)", p.cur, int(p.now().Sub(p.curStart).Seconds()))
	}
	fmt.Fprintf(p.w, "\r\033[K%s", line)
}

// cellSummary is a finished cell in a few words.
func cellSummary(c Cell) string {
	var s string
	switch c.Status {
	case OK:
		s = "ok " + FormatDuration(c.Median)
	case Wrong:
		s = "WRONG " + FormatDuration(c.Median)
	default:
		s = string(c.Status)
	}
	if c.Compile > 0 {
		s += ", compiled in " + FormatDuration(c.Compile)
	}
	if c.Status.Failure() {
		if msg := oneLine(firstNonEmpty(c.Err, c.Check), 200); msg != "" {
			s += ": " + msg
		}
	}
	return s
}
