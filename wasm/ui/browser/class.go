package browser

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The class's calls into the browser (wasm/ui/classroom), through
// web/boot.js's softmaxClassRequest, softmaxClassEvents and
// softmaxClassID, which catch what the browser throws.

// ClassQuery returns the page's address's query (location.search, without
// its "?"), or "" natively.
func ClassQuery() string {
	if !app.IsClient {
		return ""
	}
	v := app.Window().Get("location")
	if !v.Truthy() {
		return ""
	}
	return strings.TrimPrefix(v.Get("search").String(), "?")
}

// ReplaceQuery makes query the page's address's query, keeping its path
// and fragment, without a history entry: the presenter's key leaves the
// address bar, and a history or a screenshot of it.
func ReplaceQuery(query string) {
	if !app.IsClient {
		return
	}
	loc := app.Window().Get("location")
	if !loc.Truthy() {
		return
	}
	u := loc.Get("pathname").String()
	if query != "" {
		u += "?" + query
	}
	u += loc.Get("hash").String()
	app.Window().Get("history").Call("replaceState", nil, "", u)
}

// TabGet returns the value of key in the tab's own storage
// (sessionStorage), or "".
func TabGet(key string) string {
	if !app.IsClient {
		return ""
	}
	s := app.Window().Get("softmaxStore")
	if !s.Truthy() || s.Get("tabGet").Type() != app.TypeFunction {
		return ""
	}
	v := s.Call("tabGet", key)
	if v.Type() != app.TypeString {
		return ""
	}
	return v.String()
}

// TabSet stores value under key in the tab's own storage.
func TabSet(key, value string) bool {
	if !app.IsClient {
		return false
	}
	s := app.Window().Get("softmaxStore")
	return s.Truthy() && s.Get("tabSet").Type() == app.TypeFunction && s.Call("tabSet", key, value).Bool()
}

// RandomID returns 16 random bytes from crypto.getRandomValues, in hex, or
// "" where the browser gives none.
func RandomID() string {
	if !app.IsClient {
		return ""
	}
	f := app.Window().Get("softmaxClassID")
	if f.Type() != app.TypeFunction {
		return ""
	}
	v := f.Invoke()
	if v.Type() != app.TypeString {
		return ""
	}
	return v.String()
}

// Response is what a class request got: the status and the headers the
// class uses, and the body; or Err, why no answer came (the network).
type Response struct {
	Status     int
	RetryAfter string
	Version    string // X-Theta-Version
	Checksum   string // X-Theta-Checksum
	Body       []byte
	Err        string
}

// Request sends method to url, with body of type ctype if body is not
// nil, and calls done once with the answer, from a JavaScript callback:
// done must not block. Outside a browser it never calls done.
func Request(method, url, ctype string, body []byte, done func(Response)) {
	if !app.IsClient {
		return
	}
	f := app.Window().Get("softmaxClassRequest")
	if f.Type() != app.TypeFunction {
		return
	}
	var payload any
	if body != nil {
		u8 := app.Window().Get("Uint8Array").New(len(body))
		app.CopyBytesToJS(u8, body)
		payload = u8
	}
	var then app.Func
	then = app.FuncOf(func(this app.Value, args []app.Value) any {
		then.Release()
		r := args[0]
		if e := r.Get("error"); e.Truthy() {
			done(Response{Err: e.String()})
			return nil
		}
		u8 := r.Get("bytes")
		b := make([]byte, u8.Length())
		app.CopyBytesToGo(b, u8)
		done(Response{Status: r.Get("status").Int(), RetryAfter: r.Get("retryAfter").String(),
			Version: r.Get("version").String(), Checksum: r.Get("checksum").String(), Body: b})
		return nil
	})
	f.Invoke(method, url, ctype, payload).Call("then", then)
}

// Stream states, as OpenEvents reports them.
const (
	StreamReconnecting = 0 // the browser is connecting again by itself
	StreamOpen         = 1
	StreamClosed       = 2 // closed for good: open a new one
)

// OpenEvents opens the event stream at url (EventSource) and calls
// onEvent with each event of one of names, and onState with the stream's
// state on each change, from JavaScript callbacks: neither may block. It
// returns a function that closes the stream, or nil where the browser has
// none (natively too).
func OpenEvents(url string, names []string, onEvent func(name, id, data string), onState func(int)) (close func()) {
	if !app.IsClient {
		return nil
	}
	f := app.Window().Get("softmaxClassEvents")
	if f.Type() != app.TypeFunction {
		return nil
	}
	ns := make([]any, len(names))
	for i, n := range names {
		ns[i] = n
	}
	ev := app.FuncOf(func(this app.Value, args []app.Value) any {
		onEvent(args[0].String(), args[1].String(), args[2].String())
		return nil
	})
	st := app.FuncOf(func(this app.Value, args []app.Value) any {
		onState(args[0].Int())
		return nil
	})
	stop := f.Invoke(url, ns, ev, st)
	if stop.Type() != app.TypeFunction {
		ev.Release()
		st.Release()
		return nil
	}
	return func() {
		stop.Invoke()
		ev.Release()
		st.Release()
	}
}
