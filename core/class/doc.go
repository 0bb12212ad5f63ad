// Package class is the wire protocol of a class: one presenter (the
// projector) and the phones of a room, served by tools/serve -class. It
// holds the messages, their encoding and their checked decoding, for the
// server and the page alike: plain Go, without syscall/js or go-app, and
// without reflection (encoding/json is not used: each message reads and
// writes its own fields), so that a page decodes every event cheaply.
// Its decoders never panic; every refusal wraps ErrMalformed, ErrInvalid
// or ErrVersion.
//
// # Addresses and roles
//
// The server prints two addresses: the presenter's,
// http://127.0.0.1:PORT/?class&key=KEY, for the teacher's laptop, and the
// students', http://LAN:PORT/?class, for the phones (and the QR code).
// KEY is 32 hex digits (Key). A page that finds the key in its address
// moves it to sessionStorage and takes it out of the address bar, then
// sends it as the query parameter key on every request that needs it,
// the event stream's included (EventSource cannot send headers). Whoever
// holds the key presents; a page with a wrong key is a student.
//
// Every page, the presenter's too, has a phone id (PhoneID): 16 random
// bytes from crypto.getRandomValues, made once and kept in localStorage,
// so that a phone is the same phone through a reload, a screen lock or a
// Wi-Fi drop, and nobody's name. The class counts phones, never names
// them, and never gives one phone's answers, drawings or lines to
// another.
//
// # Messages a page sends: its id and a Seq, sent until answered
//
// Each message a phone sends (Answer, Drawing, Line) carries its id and
// a Seq, a number the phone gives each message, 1, 2, 3, … in the order
// it makes them, kept in localStorage with the id and never reused. The
// page keeps an outbox: it sends the oldest message not yet answered,
// and sends it again, the same bytes, until the server answers. A 2xx
// with an Ack removes it: Duplicate says the server had it already (its
// answer was lost on the way back) and changed nothing. A Refusal
// removes it too, unless Refusal.Retry says to send it again after
// Retry-After seconds (429: too many requests from this phone; 503: the
// class is full). A network error, 500, 502 or 504 is sent again after a
// wait that doubles from 100 ms to a few seconds. So a message is taken
// once, whatever is lost: an answer or a line is the phone's latest by
// Seq (an older one arriving late changes nothing), a drawing is kept
// once per id and Seq, through a server restart too.
//
// # Paths
//
// Phones (no key):
//
//	POST /class/join      Join        → Ack: joins (the stream joins too); 503 when full
//	GET  /class/events    ?id=PHONE   → the event stream; a phone's, or the presenter's with &key=
//	POST /class/answer    Answer      → Ack; 409 no-question or revealed, 400 choice
//	POST /class/drawing   Drawing     → Ack with the drawing's number; 403 phone-limit or class-limit
//	POST /class/line      Line        → Ack; 403 class-limit
//	GET  /class/theta                 → the latest θ (below); 404 before the first
//
// The presenter (?key=KEY on each):
//
//	POST   /class/state         State        → Ack: where the presenter is, to every page
//	POST   /class/question      Question     → Ack: opens, reveals, opens again or closes it
//	POST   /class/theta         θ (binary)   → Ack: a new version of θ, announced to every page
//	GET    /class/drawings      ?after=N     → the drawings kept with numbers above N (binary, below)
//	DELETE /class/drawings/{n}               → Ack: drawing n removed (again: no change); 404 unknown
//	DELETE /class/lines                      → Ack: the lines cleared
//	GET    /class/digits.npz                 → the drawings kept, for NumPy (core/modelfile)
//	POST   /class/digits.npz    .npz         → Ack with the last number: a saved set added, all or none
//	GET    /class/digits-images-idx3-ubyte   → their images as MNIST's IDX (core/dataset)
//	GET    /class/digits-labels-idx1-ubyte   → their labels as IDX
//	GET    /class/address                    → the students' address (text/plain), for the projector's QR code
//
// JSON bodies are sent as application/json, binary ones as
// application/octet-stream (another type is 415); a phone's body is at
// most 4 kB (413). Without the key, the presenter's paths answer 403.
// Requests from another site (an Origin or Sec-Fetch-Site that is not
// the page's own) are 403. The paths exist only under -class.
//
// # The event stream
//
// GET /class/events is Server-Sent Events (text/event-stream): open it
// with EventSource, which reconnects by itself after "retry:" ms and
// sends the last event's id as Last-Event-ID. Each event has an id
// (RUN-SEQ: RUN changes when the server restarts), a name (Event.Name)
// and one line of JSON (EncodeEvent; DecodeEvent on the page). A stream
// that continues one the page had (Last-Event-ID, or the query
// parameter last=ID for a new EventSource after a reload) gets the
// events it missed, in order; any other stream starts with a Hello, the
// class as it is: after a long absence, a server restart, or when the
// page asks with no id. A page therefore handles a Hello at any time by
// replacing what it shows. A server restarted mid-lesson keeps its
// drawings and the key but forgets the rest; so on a Hello, the
// presenter's page posts its State, its Question and its θ again if the
// Hello's differ, and a phone whose answer to the open question the
// Hello does not have (Mine) sends it again, with a new Seq. Comments
// (":") keep the stream alive.
//
//	hello     Hello         every page: role, state, θ, question (and the page's own or the presenter's fields)
//	state     State         every page: where the presenter is
//	teacher   Teacher       every page: the presenter's page came or has been gone a few seconds
//	theta     ThetaVersion  every page: a new θ's version and checksum
//	question  Poll          every page: the question; counts for the presenter, for phones once revealed
//	counts    Tally         presenter: the live counts
//	joined    Joined        presenter: phones joined
//	drawing   Digit         presenter: a drawing kept (never the phone's id)
//	removed   Removed       presenter: a drawing removed
//	line      LineOf        presenter: a phone's latest line, by slot
//	cleared   Cleared       presenter: the lines cleared
//	fault     Fault         presenter: the file of drawings cannot be written ("" when it can again)
//
// A stream that fails (503: the class is full) ends the EventSource for
// good: the page asks again with POST /class/join, whose Refusal says
// why, and opens a new one when it is let in.
//
// # θ
//
// The presenter uploads its θ a few times a second at most while a run
// trains; the stream announces each version (ThetaVersion: Version and
// Checksum), never θ itself. A phone fetches GET /class/theta when it is
// ready, one fetch at a time, skipping the versions it had no time for:
// the answer is the latest θ's wire form (EncodeTheta: its float32 bits
// exactly, little-endian), gzipped when the page accepts it, with ETag
// "VERSION" (If-None-Match gives 304), X-Theta-Version and
// X-Theta-Checksum. Checksum is the page's data-theta: the same function
// on every page, so a phone showing the projector's θ shows its checksum.
//
// # Drawings
//
// A phone sends a drawing as the page's draw pad preprocesses it: 784
// grey levels and a label 0…9. The server keeps it once (its id and
// Seq), numbers it 1, 2, 3, … in the class, writes it to the class's
// file and sends it to the presenter alone. A phone may send a few a
// second and at most 50 in a class, the class keeps at most 5,000 (the
// server's flags change both); past that, 403. The presenter fetches all
// of them after a Hello (EncodeDigitList's layout), removes any, and
// downloads them as .npz or IDX.
package class
