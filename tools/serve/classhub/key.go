package classhub

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"softmaxdemo/core/class"
)

// KeyFile is the presenter's key in the class's folder: 32 hex digits
// and a newline, mode 0600.
const KeyFile = "presenter.key"

// LoadKey returns the presenter's key kept in dir, so that a server
// restarted mid-lesson takes the presenter's page back, or a new one
// (fresh set, none kept, or what is kept is not a key) from crypto/rand,
// written there with mode 0600; made says it is new. A key that cannot
// be written is still returned, with the error: it holds until the
// server stops.
func LoadKey(dir string, fresh bool) (key class.Key, made bool, err error) {
	path := filepath.Join(dir, KeyFile)
	if !fresh {
		b, err := os.ReadFile(path)
		switch {
		case err == nil:
			if k, perr := class.ParseKey(strings.TrimSpace(string(b))); perr == nil {
				if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
					os.Chmod(path, 0o600)
				}
				return k, false, nil
			}
		case !errors.Is(err, fs.ErrNotExist):
			return newKey(path, fmt.Errorf("reading %s: %w", path, err))
		}
	}
	return newKey(path, nil)
}

// newKey makes a key and writes it to path, through a file renamed into
// place so that a crash leaves the old key or the new one; readErr is
// why the old one could not be read.
func newKey(path string, readErr error) (class.Key, bool, error) {
	var k class.Key
	rand.Read(k[:])
	if readErr != nil {
		return k, true, readErr
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return k, true, fmt.Errorf("keeping the key: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), KeyFile+".*")
	if err != nil {
		return k, true, fmt.Errorf("keeping the key: %w", err)
	}
	_, err = tmp.WriteString(k.String() + "\n")
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return k, true, fmt.Errorf("keeping the key in %s: %w", path, err)
	}
	return k, true, nil
}
