// Package class is the wire protocol of a class: one presenter (the
// projector) and the phones of a room, served by tools/serve -class. It
// holds the messages, their encoding and their checked decoding, for the
// server and the page alike; it is plain Go, without syscall/js or
// go-app, and never panics on bad bytes.
package class
