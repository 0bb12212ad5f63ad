package classroom

import (
	"net/url"
	"softmaxdemo/core/class"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/browser"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// look tells the class what the projector's page shows, if it changed
// since the server last took it, and reports whether #class must render.
func (o *owner) look(ctx app.Context) bool {
	if o.st.Role != class.RolePresenter || !o.st.Connected || o.shown == nil {
		return false
	}
	sh := o.shown()
	if sh.State != o.sentState && !o.sending[0] && sh.State.Validate() == nil {
		o.post(0, "/class/state", "application/json", sh.State.Encode(), func() { o.sentState = sh.State })
	}
	q := sh.Question
	if (!q.Same(o.sentQuestion) || q.Revealed != o.sentQuestion.Revealed) && !o.sending[1] && q.Validate() == nil {
		o.post(1, "/class/question", "application/json", q.Encode(), func() { o.sentQuestion = q })
	}
	m := sh.Model
	if m != nil && m != o.sentModel && !o.sending[2] && time.Since(o.sentAt) >= thetaEvery {
		if b, err := class.EncodeTheta(m); err == nil {
			o.sentAt = time.Now()
			o.post(2, "/class/theta", "application/octet-stream", b, func() { o.sentModel = m })
		}
	}
	return false
}

// post sends one of the projector's requests (slot: which kind, one of
// each on its way at a time) and calls ok once the server took it; a
// request that failed is sent again at the next look.
func (o *owner) post(slot int, p, ctype string, body []byte, ok func()) {
	o.sending[slot] = true
	o.net.request("POST", o.path(p, nil), ctype, body, func(r browser.Response) {
		o.ctx.Dispatch(func(ctx app.Context) {
			o.sending[slot] = false
			if r.Err == "" && r.Status >= 200 && r.Status < 300 {
				ok()
			}
			ctx.PreventUpdate()
		})
	})
}

// fetchTheta fetches the projector's latest θ, if a phone that follows
// does not show it yet, one fetch at a time.
func (o *owner) fetchTheta(ctx app.Context) {
	if !o.st.Following() || o.fetching || o.st.Theta.Version == 0 || o.st.Theta.Version == o.have {
		return
	}
	o.fetching = true
	o.net.request("GET", o.path("/class/theta", nil), "", nil, func(r browser.Response) {
		o.ctx.Dispatch(func(ctx app.Context) {
			o.fetching = false
			if r.Err != "" || r.Status != 200 {
				o.after(time.Second, o.fetchTheta)
				ctx.PreventUpdate()
				return
			}
			m, err := class.DecodeTheta(r.Body)
			v, verr := strconv.ParseUint(r.Version, 10, 64)
			if err != nil || verr != nil || (r.Checksum != "" && class.Checksum(m) != r.Checksum) {
				ctx.PreventUpdate() // refused: the next version is fetched when announced
				o.have = o.st.Theta.Version
				return
			}
			o.have = v
			if o.st.Following() {
				Theta.Post(ctx, m)
			}
			o.fetchTheta(ctx) // a newer version announced meanwhile
		})
	})
}

// checksum returns data-theta for m, computed once per model.
func (o *owner) checksum(m *softmax.Model[float32]) string {
	if m != o.sumOf || (m == nil) != (o.sum == "") {
		o.sumOf, o.sum = m, class.Checksum(m)
	}
	return o.sum
}

// fetchAddress fetches the students' address, for the projector's QR
// code; without it the code carries the page's own link.
func (o *owner) fetchAddress(ctx app.Context) {
	if o.st.Address != "" {
		return
	}
	o.net.request("GET", o.path(class.PathAddress, nil), "", nil, func(r browser.Response) {
		o.ctx.Dispatch(func(ctx app.Context) {
			if r.Err == "" && r.Status == 200 && len(r.Body) < 512 {
				if u, err := url.Parse(string(r.Body)); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
					o.st.Address = u.String()
				}
			}
		})
	})
}
