package classclient

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"softmaxdemo/core/class"
)

// TestRead: the stream is parsed as EventSource parses it: CRLF or LF,
// comments skipped, "retry:" taken, the id of each event kept (one with
// NUL ignored), an event without data not dispatched, and an event the
// protocol does not know an error.
func TestRead(t *testing.T) {
	stream := "retry: 250\r\n\r\n" +
		": keepalive\n\n" +
		"id: ab-1\nevent: joined\ndata: {\"n\":3}\n\n" +
		"id: ab-2\nevent: teacher\ndata:{\"here\":true}\r\n\r\n" +
		"id: ab-3\n\n" + // an id alone moves the last id, dispatches nothing
		"id: a\x00b\nevent: state\ndata: {\"chapter\":2,\n" + "data: \"lang\":\"zh\",\"scrub\":-1}\n\n"
	c := &Client{}
	var got []class.Event
	retry := time.Second
	err := c.read(bufio.NewReader(strings.NewReader(stream)), func(e class.Event) { got = append(got, e) }, &retry)
	if !errors.Is(err, io.EOF) {
		t.Errorf("read returned %v at the stream's end", err)
	}
	want := []class.Event{class.Joined{N: 3}, class.Teacher{Here: true}, class.State{Chapter: 2, Lang: "zh", Scrub: -1}}
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d is %+v, want %+v", i, got[i], want[i])
		}
	}
	if retry != 250*time.Millisecond || c.LastEventID() != "ab-3" {
		t.Errorf("retry %v, last id %q; want 250ms and ab-3", retry, c.LastEventID())
	}
	err = c.read(bufio.NewReader(strings.NewReader("event: nope\ndata: {}\n\n")), func(class.Event) {}, &retry)
	if !errors.Is(err, class.ErrMalformed) {
		t.Errorf("an unknown event: %v", err)
	}
}
