package browser

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// File is a file a person chose or dropped on the page: its name, its
// size, and how to read it.
type File struct {
	Name string
	Size int64
	// Read reads the file and calls done once with its bytes, or with
	// why the browser could not read it, from a JavaScript callback:
	// done must not block. Outside a browser it never calls done.
	Read func(done func(b []byte, err error))
}

// FileOf returns the File of a JavaScript File value, read through
// web/boot.js's softmaxReadFile, which catches what the browser throws.
func FileOf(v app.Value) File {
	return File{
		Name: v.Get("name").String(),
		Size: int64(v.Get("size").Float()),
		Read: func(done func([]byte, error)) {
			promise := app.Window().Get("softmaxReadFile")
			if promise.Type() != app.TypeFunction {
				return
			}
			var then app.Func
			then = app.FuncOf(func(this app.Value, args []app.Value) any {
				then.Release()
				r := args[0]
				if e := r.Get("error"); e.Truthy() {
					done(nil, fmt.Errorf("the browser could not read the file: %s", e.String()))
					return nil
				}
				u8 := r.Get("bytes")
				b := make([]byte, u8.Length())
				app.CopyBytesToGo(b, u8)
				done(b, nil)
				return nil
			})
			promise.Invoke(v).Call("then", then)
		},
	}
}

// Host is the browser as a room keeps things in it: its storage, which
// outlives the page, and its downloads. Its zero value is the page's
// browser.
type Host struct{}

// Get returns the stored value of key, as StorageGet does.
func (Host) Get(key string) string { return StorageGet(key) }

// Set stores value under key, as StorageSet does.
func (Host) Set(key, value string) bool { return StorageSet(key, value) }

// Download saves b as a file, as Download does.
func (Host) Download(name, mime string, b []byte) bool { return Download(name, mime, b) }
