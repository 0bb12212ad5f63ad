// Package classclient is a Go client of a class (tools/serve -class): a
// phone that joins, follows the event stream, reconnecting with
// Last-Event-ID as a browser's EventSource does, and sends its messages
// with a Seq each, resending one until the server acknowledges or refuses
// it; or the presenter, with the key. The class's tests and benchmarks
// use it as simulated students; it speaks the protocol of core/class as a
// page does.
package classclient

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"softmaxdemo/core/class"
	"softmaxdemo/core/softmax"
)

// A Client is one phone of a class, or its presenter (Key set). Its
// fields are set before it is used.
type Client struct {
	Base  string        // the server, http://host:port
	Phone class.PhoneID // the phone's id
	Key   string        // the presenter's key; "" for a phone
	HTTP  *http.Client  // nil: http.DefaultClient
	// MaxWait bounds the wait between two tries of a message that got no
	// answer (a network error, 5xx): 100 ms, doubled each time up to it.
	MaxWait time.Duration

	seq atomic.Uint32

	mu     sync.Mutex
	lastID string // the last event id the stream gave
}

// NewPhone returns a phone of the class at base, with a new random id.
func NewPhone(base string) *Client {
	var p class.PhoneID
	for p == (class.PhoneID{}) {
		rand.Read(p[:])
	}
	return &Client{Base: base, Phone: p, MaxWait: 2 * time.Second}
}

// NewPresenter returns the presenter of the class at base.
func NewPresenter(base, key string) *Client {
	c := NewPhone(base)
	c.Key = key
	return c
}

// Next returns the phone's next Seq: 1, 2, 3, …
func (c *Client) Next() uint32 { return c.seq.Add(1) }

func (c *Client) http() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return http.DefaultClient
}

// url returns the address of path, with the key for the presenter.
func (c *Client) url(path string, query url.Values) string {
	if c.Key != "" {
		if query == nil {
			query = url.Values{}
		}
		query.Set("key", c.Key)
	}
	u := c.Base + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	return u
}

// Join joins the class.
func (c *Client) Join(ctx context.Context) error {
	_, err := c.Send(ctx, class.PathJoin, "application/json", class.Join{Version: class.Version, Phone: c.Phone}.Encode())
	return err
}

// Answer sends a choice in a question, with a new Seq, until it is
// acknowledged (or refused).
func (c *Client) Answer(ctx context.Context, question, choice string) (class.Ack, error) {
	return c.SendAnswer(ctx, class.Answer{Phone: c.Phone, Seq: c.Next(), Question: question, Choice: choice})
}

// SendAnswer sends a, as it is, until it is acknowledged or refused:
// sent again, it is the same message.
func (c *Client) SendAnswer(ctx context.Context, a class.Answer) (class.Ack, error) {
	return c.Send(ctx, class.PathAnswer, "application/json", a.Encode())
}

// Draw sends a drawing with a new Seq until it is acknowledged (or
// refused); the Ack has its number.
func (c *Client) Draw(ctx context.Context, label uint8, pixels [class.Pixels]byte) (class.Ack, error) {
	d := &class.Drawing{Phone: c.Phone, Seq: c.Next(), Label: label, Pixels: pixels}
	return c.Send(ctx, class.PathDrawing, "application/json", d.Encode())
}

// SendLine sends a line in the plane with a new Seq until it is
// acknowledged (or refused).
func (c *Client) SendLine(ctx context.Context, l class.PlaneLine) (class.Ack, error) {
	return c.Send(ctx, class.PathLine, "application/json", class.Line{Phone: c.Phone, Seq: c.Next(), Line: l}.Encode())
}

// Send posts body to path until the server answers, and returns its Ack
// or its refusal (a *class.Refusal). A network error or a 500, 502 or
// 504 (a server restarting, a proxy) is tried again after a wait that
// doubles up to MaxWait, and a 429 after its Retry-After, until ctx is
// done; a 503 (the class is full) and every other refusal are returned.
// The body is the same each time, so a message that reached the server
// before its answer was lost is acknowledged as a duplicate.
func (c *Client) Send(ctx context.Context, path, ctype string, body []byte) (class.Ack, error) {
	wait := 100 * time.Millisecond
	for {
		ack, err := c.post(ctx, path, ctype, body)
		var ref *class.Refusal
		switch {
		case err == nil:
			return ack, nil
		case errors.As(err, &ref) && ref.Status == http.StatusTooManyRequests:
			if err := sleep(ctx, time.Duration(ref.RetryAfter)*time.Second); err != nil {
				return ack, err
			}
			continue
		case errors.As(err, &ref) && ref.Status != http.StatusInternalServerError && ref.Status != http.StatusBadGateway && ref.Status != http.StatusGatewayTimeout:
			return ack, err
		}
		if err := sleep(ctx, wait); err != nil {
			return ack, err
		}
		wait = min(2*wait, max(c.MaxWait, 100*time.Millisecond))
	}
}

// post posts body once.
func (c *Client) post(ctx context.Context, path, ctype string, body []byte) (class.Ack, error) {
	b, err := c.do(ctx, http.MethodPost, c.url(path, nil), ctype, body)
	if err != nil {
		return class.Ack{}, err
	}
	return class.DecodeAck(b)
}

// do makes one request and returns the body of a 2xx, or the refusal.
func (c *Client) do(ctx context.Context, method, u, ctype string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := c.http().Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 400 {
		return nil, class.DecodeRefusal(resp.StatusCode, resp.Header.Get("Retry-After"), b)
	}
	if resp.StatusCode >= 300 {
		return nil, fmt.Errorf("classclient: %s %s: %s", method, u, resp.Status)
	}
	return b, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// SetState posts where the presenter is.
func (c *Client) SetState(ctx context.Context, s class.State) error {
	_, err := c.Send(ctx, class.PathState, "application/json", s.Encode())
	return err
}

// Ask posts the question (opens, reveals or closes it).
func (c *Client) Ask(ctx context.Context, q class.Question) error {
	_, err := c.Send(ctx, class.PathQuestion, "application/json", q.Encode())
	return err
}

// PutTheta uploads the presenter's θ.
func (c *Client) PutTheta(ctx context.Context, m *softmax.Model[float32]) error {
	b, err := class.EncodeTheta(m)
	if err != nil {
		return err
	}
	_, err = c.Send(ctx, class.PathTheta, "application/octet-stream", b)
	return err
}

// Theta fetches the latest θ and its version.
func (c *Client) Theta(ctx context.Context) (*softmax.Model[float32], uint64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url(class.PathTheta, nil), nil)
	if err != nil {
		return nil, 0, err
	}
	resp, err := c.http().Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, class.MaxThetaBytes+1))
	if err != nil {
		return nil, 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, 0, class.DecodeRefusal(resp.StatusCode, resp.Header.Get("Retry-After"), b)
	}
	v, err := strconv.ParseUint(resp.Header.Get("X-Theta-Version"), 10, 64)
	if err != nil {
		return nil, 0, fmt.Errorf("classclient: θ without its version: %w", err)
	}
	m, err := class.DecodeTheta(b)
	return m, v, err
}

// Drawings fetches the drawings kept with numbers above after.
func (c *Client) Drawings(ctx context.Context, after uint32) ([]*class.Digit, error) {
	b, err := c.Get(ctx, class.PathDrawings, url.Values{"after": {strconv.FormatUint(uint64(after), 10)}})
	if err != nil {
		return nil, err
	}
	return class.DecodeDigitList(b)
}

// Get fetches path (a download: the digits as .npz or IDX).
func (c *Client) Get(ctx context.Context, path string, query url.Values) ([]byte, error) {
	return c.do(ctx, http.MethodGet, c.url(path, query), "", nil)
}

// Remove removes drawing n.
func (c *Client) Remove(ctx context.Context, n uint32) error {
	_, err := c.do(ctx, http.MethodDelete, c.url(class.PathDrawings+"/"+strconv.FormatUint(uint64(n), 10), nil), "", nil)
	return err
}

// ClearLines clears the class's lines.
func (c *Client) ClearLines(ctx context.Context) error {
	_, err := c.do(ctx, http.MethodDelete, c.url(class.PathLines, nil), "", nil)
	return err
}

// UploadDigits adds a saved set of digits (.npz) to the class's.
func (c *Client) UploadDigits(ctx context.Context, npz []byte) (class.Ack, error) {
	b, err := c.do(ctx, http.MethodPost, c.url(class.PathDigitsNPZ, nil), "application/octet-stream", npz)
	if err != nil {
		return class.Ack{}, err
	}
	return class.DecodeAck(b)
}
