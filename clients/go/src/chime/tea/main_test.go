package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	startTimeout = 20 * time.Second
	stopTimeout  = 10 * time.Second
)

// chimed is the daemon under test: $CHIME_BIN_DIR/chimed, default <repo>/.build/debug/chimed.
func chimed(t *testing.T) string {
	dir := os.Getenv("CHIME_BIN_DIR")
	if dir == "" {
		here, err := os.Getwd() // clients/go/src/chime/tea
		if err != nil {
			t.Fatal(err)
		}
		dir = filepath.Join(here, "..", "..", "..", "..", "..", ".build", "debug")
	}
	binary := filepath.Join(dir, "chimed")
	if _, err := os.Stat(binary); err != nil {
		t.Fatalf("no chimed at %s: build it (swift build --product chimed) or set CHIME_BIN_DIR", binary)
	}
	return binary
}

// startChimed runs chimed on a socket in a temporary directory until the test ends; it returns
// once chimed prints that it listens.
func startChimed(t *testing.T) string {
	root, err := os.MkdirTemp("", "chime-go-") // under /tmp: short enough for sun_path
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	socket := filepath.Join(root, "chimed.sock")
	var log bytes.Buffer
	cmd := exec.Command(chimed(t), "--socket", socket, "--data-dir", filepath.Join(root, "data"), "--log-level", "info")
	cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+filepath.Join(root, "run"),
		"XDG_STATE_HOME="+filepath.Join(root, "state"), "XDG_DATA_HOME="+filepath.Join(root, "share"),
		"SWIFT_BACKTRACE=enable=no", "CHIME_SOCKET=", "CHIME_APP=")
	cmd.Stderr = &log
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	ready := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			if line := lines.Text(); strings.HasPrefix(line, "chimed listening on ") {
				ready <- strings.TrimPrefix(line, "chimed listening on ")
			}
		}
		exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("chimed exited with %v after SIGTERM\n%s", err, log.String())
			}
		case <-time.After(stopTimeout):
			cmd.Process.Kill()
			<-exited
			t.Errorf("chimed ignored SIGTERM for %v", stopTimeout)
		}
	})
	select {
	case listening := <-ready:
		if listening != socket {
			t.Fatalf("chimed listens on %q, not %q", listening, socket)
		}
	case err := <-exited:
		t.Fatalf("chimed exited with %v before listening\n%s", err, log.String())
	case <-time.After(startTimeout):
		t.Fatalf("chimed did not report listening within %v\n%s", startTimeout, log.String())
	}
	return socket
}

func TestTeaAgainstChimed(t *testing.T) {
	socket := startChimed(t)
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- run(&out, socket, "org.example.tea") }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v\noutput so far:\n%s", err, out.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("run did not finish within 30 s\noutput so far:\n%s", out.String())
	}
	text := out.String()
	for _, want := range []string{
		`(?m)^tea at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`,
		`(?m)^pending tea: Tea$`,
		`(?m)^refused: InvalidArgument INVALID_INTERVAL request\.trigger\.time_interval\.seconds$`,
		`(?m)^delivered hello cursor \d+$`,
		`(?m)^removed \[tea\]$`,
	} {
		if !regexp.MustCompile(want).MatchString(text) {
			t.Errorf("output does not match %s:\n%s", want, text)
		}
	}
}

func TestReasonWithoutErrorInfo(t *testing.T) {
	code, why, field := reason(os.ErrNotExist)
	if code != "Unknown" || why != "" || field != "" {
		t.Errorf("reason of a plain error: %q %q %q", code, why, field)
	}
}
