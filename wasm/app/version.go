//go:build !(js && wasm)

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// siteVersion names a build of the site by the SHA-256 of the files the
// service worker caches: the built wasm, the worker, the data and the
// styles under web/. A change to any of them makes a new version, so a
// returning visitor's service worker fetches the new files. Missing files
// (wasm not built yet) are hashed as absent.
func siteVersion(web string) (string, error) {
	var names []string
	err := filepath.WalkDir(web, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			names = append(names, path)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hashing %s: %w", web, err)
	}
	slices.Sort(names)
	h := sha256.New()
	for _, name := range names {
		if ext := filepath.Ext(name); ext == ".gz" || ext == ".br" || filepath.Base(name) == "full.mnpk" {
			continue // derived from other files, or optional
		}
		f, err := os.Open(name)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00", filepath.ToSlash(name))
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}
