package classclient

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"softmaxdemo/core/class"
)

// LastEventID returns the id of the last event the stream gave: what the
// next connection sends as Last-Event-ID.
func (c *Client) LastEventID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lastID
}

// SetLastEventID sets what the next connection sends as Last-Event-ID,
// as a page that kept it through a reload does; "" asks for a Hello.
func (c *Client) SetLastEventID(id string) {
	c.mu.Lock()
	c.lastID = id
	c.mu.Unlock()
}

// Follow follows the class's event stream until ctx is done, calling fn
// with each event in order, on one goroutine. Like a browser's
// EventSource, it reconnects after the stream ends or fails, waiting
// what the server's "retry:" said, and sends the last event's id as
// Last-Event-ID, so the server replays what it missed (or sends a Hello).
// It returns ctx's error, a refusal the server gave for the stream (a
// full class: an EventSource stops there too), or an error wrapping
// class.ErrVersion for a server of another protocol (a page reloads).
// connected, if not nil, is called each time a connection is open.
func (c *Client) Follow(ctx context.Context, fn func(class.Event), connected func()) error {
	retry := time.Second
	for {
		err := c.followOnce(ctx, fn, connected, &retry)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var ref *class.Refusal
		if errors.As(err, &ref) || errors.Is(err, class.ErrVersion) {
			return err
		}
		if err := sleep(ctx, retry); err != nil {
			return err
		}
	}
}

// followOnce makes one connection and reads its events until it ends.
func (c *Client) followOnce(ctx context.Context, fn func(class.Event), connected func(), retry *time.Duration) error {
	// A page always sends its phone's id: with a wrong key, it is a
	// student.
	q := url.Values{"id": {c.Phone.String()}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url(class.PathEvents, q), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	if id := c.LastEventID(); id != "" {
		req.Header.Set("Last-Event-ID", id)
	}
	resp, err := c.http().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		return class.DecodeRefusal(resp.StatusCode, resp.Header.Get("Retry-After"), b.Bytes())
	}
	if t, _, _ := strings.Cut(resp.Header.Get("Content-Type"), ";"); t != "text/event-stream" {
		return fmt.Errorf("classclient: the stream is %q, not text/event-stream", t)
	}
	if connected != nil {
		connected()
	}
	return c.read(bufio.NewReaderSize(resp.Body, 16<<10), fn, retry)
}

// read parses an event stream as the WHATWG's EventSource does: lines of
// field: value, a blank line dispatching the event; id sets the last
// event id (one with NUL is ignored), retry the reconnection time,
// comments (":") are ignored.
func (c *Client) read(r *bufio.Reader, fn func(class.Event), retry *time.Duration) error {
	var name, data, id string
	var hasData, hasID bool
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return err
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if line == "" {
			if hasID {
				c.SetLastEventID(id)
			}
			if hasData {
				if name == "" {
					name = "message"
				}
				e, err := class.DecodeEvent(name, []byte(data))
				if err != nil {
					return fmt.Errorf("classclient: event %q: %w", name, err)
				}
				fn(e)
			}
			name, data, hasData, hasID = "", "", false, false
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "":
		case "event":
			name = value
		case "data":
			if hasData {
				data += "\n"
			}
			data, hasData = data+value, true
		case "id":
			if !strings.ContainsRune(value, 0) {
				id, hasID = value, true
			}
		case "retry":
			if ms, err := strconv.Atoi(value); err == nil && ms >= 0 {
				*retry = time.Duration(ms) * time.Millisecond
			}
		}
	}
}
