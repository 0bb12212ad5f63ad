// Package browser holds the page's few calls into the browser beyond
// go-app, in one place: storage, the languages the browser prefers, the
// link in the address bar and its history, keys, the clipboard, fetches,
// performance measures, and the training worker's client.
//
// Storage and the clipboard go through web/boot.js's softmaxStore and
// softmaxCopy, which catch the exceptions a browser throws when storage
// is disabled or full or the clipboard is refused: an exception thrown
// into Go's WebAssembly would stop the page. Natively (tests, the static
// site) go-app's stubs make them no-ops.
package browser

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// LangStorageKey is where the chosen language is kept.
const LangStorageKey = "softmax:lang"

// StorageGet returns the stored value of key, or "" if there is none or
// storage cannot be read.
func StorageGet(key string) string {
	s := app.Window().Get("softmaxStore")
	if !s.Truthy() {
		return ""
	}
	v := s.Call("get", key)
	if v.Type() != app.TypeString {
		return ""
	}
	return v.String()
}

// StorageSet stores value under key and reports whether it could.
func StorageSet(key, value string) bool {
	s := app.Window().Get("softmaxStore")
	return s.Truthy() && s.Call("set", key, value).Bool()
}

// Languages returns the browser's preferred languages, most
// preferred first (navigator.languages).
func Languages() []string {
	nav := app.Window().Get("navigator")
	if !nav.Truthy() {
		return nil
	}
	var out []string
	if ls := nav.Get("languages"); ls.Truthy() {
		for i := range ls.Length() {
			out = append(out, ls.Index(i).String())
		}
	}
	if l := nav.Get("language"); len(out) == 0 && l.Type() == app.TypeString {
		out = append(out, l.String())
	}
	return out
}

// ReplaceFragment makes fragment the page's link's fragment without
// adding a history entry (history.replaceState).
func ReplaceFragment(fragment string) {
	if !app.IsClient {
		return
	}
	app.Window().Get("history").Call("replaceState", nil, "", "#"+fragment)
}

// PushFragment makes fragment the page's link's fragment as a new
// history entry (history.pushState), so that Back returns to the one
// before.
func PushFragment(fragment string) {
	if !app.IsClient {
		return
	}
	app.Window().Get("history").Call("pushState", nil, "", "#"+fragment)
}

// Href returns the page's whole link (location.href), or "" natively.
func Href() string {
	if !app.IsClient {
		return ""
	}
	return app.Window().Get("location").Get("href").String()
}

// OnKey calls f with the key (KeyboardEvent.key) of every key pressed
// outside a field a person types in (input, textarea, select, an
// editable element) and without Ctrl, Alt or Meta; when f reports true,
// the browser's own action for the key (scrolling) is prevented. It
// returns a function that stops it.
func OnKey(f func(key string) bool) (stop func()) {
	if !app.IsClient {
		return func() {}
	}
	fn := app.FuncOf(func(_ app.Value, args []app.Value) any {
		e := args[0]
		if e.Get("ctrlKey").Bool() || e.Get("altKey").Bool() || e.Get("metaKey").Bool() || e.Get("defaultPrevented").Bool() {
			return nil
		}
		if t := e.Get("target"); t.Truthy() {
			switch t.Get("tagName").String() {
			case "INPUT", "TEXTAREA", "SELECT":
				return nil
			}
			if t.Get("isContentEditable").Bool() {
				return nil
			}
		}
		if f(e.Get("key").String()) {
			e.Call("preventDefault")
		}
		return nil
	})
	w := app.Window()
	w.Call("addEventListener", "keydown", fn)
	return func() {
		w.Call("removeEventListener", "keydown", fn)
		fn.Release()
	}
}

// Fragment returns the page's link's fragment with its "#" (location.hash),
// or "" if it has none.
func Fragment() string {
	if !app.IsClient {
		return ""
	}
	return app.Window().Get("location").Get("hash").String()
}

// OnFragmentChange calls f on every hashchange: a link pasted into the
// address bar or followed in the page. It returns a function that stops
// it.
func OnFragmentChange(f func()) (stop func()) { return onWindow("hashchange", f) }

// OnPageHide calls f when the page is hidden on its way out (pagehide: a
// reload, a link followed, the tab closed), before the browser lets it
// go; f runs to its end before the browser goes on. It returns a
// function that stops it.
func OnPageHide(f func()) (stop func()) { return onWindow("pagehide", f) }

// OnPageShow calls f when the page is shown again from the browser's
// back-forward cache (pageshow with persisted set): the page as it was,
// its connections closed. It returns a function that stops it.
func OnPageShow(f func()) (stop func()) {
	if !app.IsClient {
		return func() {}
	}
	fn := app.FuncOf(func(_ app.Value, args []app.Value) any {
		if len(args) > 0 && args[0].Get("persisted").Truthy() {
			f()
		}
		return nil
	})
	w := app.Window()
	w.Call("addEventListener", "pageshow", fn)
	return func() {
		w.Call("removeEventListener", "pageshow", fn)
		fn.Release()
	}
}

// onWindow calls f on every event of this type at the window, and
// returns a function that stops it.
func onWindow(event string, f func()) (stop func()) {
	if !app.IsClient {
		return func() {}
	}
	fn := app.FuncOf(func(app.Value, []app.Value) any { f(); return nil })
	w := app.Window()
	w.Call("addEventListener", event, fn)
	return func() {
		w.Call("removeEventListener", event, fn)
		fn.Release()
	}
}

// CopyText puts s on the clipboard where the browser allows it, and
// reports whether it did: a page on a plain-HTTP address of the local
// network (not a secure context) has no clipboard.
func CopyText(s string) bool {
	if f := app.Window().Get("softmaxCopy"); f.Type() == app.TypeFunction {
		v := f.Invoke(s)
		return v.Type() == app.TypeBoolean && v.Bool()
	}
	return false
}

// Download saves b as a file named name, through a Blob and an <a
// Download>, and reports whether the browser took it.
func Download(name, mime string, b []byte) bool {
	f := app.Window().Get("softmaxDownload")
	if f.Type() != app.TypeFunction {
		return false
	}
	u8 := app.Window().Get("Uint8Array").New(len(b))
	app.CopyBytesToJS(u8, b)
	return f.Invoke(name, mime, u8).Bool()
}

// Cores returns the logical processors the browser says the machine has
// (navigator.hardwareConcurrency), or 1 if it does not say (or outside a
// browser).
func Cores() int {
	if !app.IsClient {
		return 1
	}
	v := app.Window().Get("navigator").Get("hardwareConcurrency")
	if v.Type() != app.TypeNumber {
		return 1
	}
	return max(1, v.Int())
}

// Measure starts a performance measure named name, for the browser's
// performance tools and the benchmarks, and returns the function that
// ends it; outside a browser both do nothing.
func Measure(name string) (end func()) {
	if !app.IsClient {
		return func() {}
	}
	perf := app.Window().Get("performance")
	start := perf.Call("now").Float()
	return func() {
		opts := app.Window().Get("Object").New()
		opts.Set("start", start)
		perf.Call("measure", name, opts)
	}
}

// Mark notes a moment on the page's performance timeline (a
// performance.mark named name), for tools/browsertest's benchmarks.
// Outside a browser it does nothing.
func Mark(name string) {
	if app.IsClient {
		app.Window().Get("performance").Call("mark", name)
	}
}

// MarkNextFrame marks name in the next animation frame: the first frame
// after what the page rendered now. Outside a browser it does nothing.
func MarkNextFrame(name string) {
	if !app.IsClient {
		return
	}
	var frame app.Func
	frame = app.FuncOf(func(app.Value, []app.Value) any {
		frame.Release()
		Mark(name)
		return nil
	})
	app.Window().Call("requestAnimationFrame", frame)
}

// Focus moves the keyboard focus to the element with the id, if there is
// one.
func Focus(id string) {
	if el := app.Window().GetElementByID(id); el.Truthy() {
		el.Call("focus")
	}
}

// Hidden reports whether the page's tab is hidden (document.visibilityState),
// whose timers the browser slows; outside a browser it is not.
func Hidden() bool {
	return app.IsClient && app.Window().Get("document").Get("visibilityState").String() == "hidden"
}

// PageReady tells web/boot.js that the whole pack is in, so that its
// service worker may fill its cache (softmaxPageReady); outside a browser
// it does nothing.
func PageReady() {
	if !app.IsClient {
		return
	}
	if f := app.Window().Get("softmaxPageReady"); f.Type() == app.TypeFunction {
		f.Invoke()
	}
}
