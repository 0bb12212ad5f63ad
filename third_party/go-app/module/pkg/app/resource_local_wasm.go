//go:build wasm

package app

import "strings"

// LocalDir returns a ResourceResolver for local resources. In the browser
// it only resolves paths: the files are served by the server's build.
func LocalDir(directory string) ResourceResolver {
	return localResourceResolver{directory: strings.TrimRight(directory, "/")}
}

type localResourceResolver struct {
	directory string
}
