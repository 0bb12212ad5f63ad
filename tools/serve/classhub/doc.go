// Package classhub is the server of a class, for tools/serve -class: one
// Hub holds one class in memory (the presenter's key, the phones joined,
// where the presenter is, the open question and its answers, the latest
// θ, the class's drawings and lines) and serves the paths under /class/
// that core/class describes, over Server-Sent Events and plain POSTs
// (docs/decisions/0034-class-over-sse-and-posts.md).
//
// The hub is one type with its limits as fields, as a test sets them.
// Every event is encoded once into a log of the last LogSize events,
// shared by every stream; publishing never blocks: it adds to the log and
// wakes the streams it is for. Each stream sends what it has not sent
// yet from the log, so a page that reconnects with Last-Event-ID gets what
// it missed, and a stream that falls out of the log, or whose writes take
// longer than WriteTimeout, is dropped without slowing the others: its
// page reconnects and starts again from a Hello.
//
// A phone's request is checked at the edge and refused with a
// class.Refusal, changing nothing: its body (MaxBody, 413; malformed or
// invalid, 400), its phone (a full class, 503; more than Rate requests a
// second, 429 with Retry-After), and what it asks (an answer to a
// question that is not open, 409; a choice the question does not have,
// 400; past a limit of drawings, 403). Every message a phone sends
// carries its id and a Seq, so a message sent again after a dropped
// connection is acknowledged and not counted twice.
//
// Drawings are appended to a file in the class's folder (Open,
// DrawingsFile) as they arrive, and loaded from it at start; the
// presenter's key is kept there too (LoadKey, KeyFile), so that a server
// restarted mid-lesson loses no drawing and takes the presenter back.
package classhub
