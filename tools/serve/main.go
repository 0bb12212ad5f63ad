// Serve serves the demo's static site (index.html, go-app's support files
// and web/) over HTTP for local development and the browser tests.
//
// Usage:
//
//	go run ./tools/serve [-addr 127.0.0.1:8080] [-root .] [-quiet]
//	go run ./tools/serve -class [-addr :8080] [-root .] [-class-dir class]
//	    [-class-max 100] [-class-drawings-per-phone 50] [-class-drawings 5000]
//	    [-class-new-key]   (make serve-class)
//
// Once it listens it prints one line to stdout,
//
//	serving /abs/root at http://127.0.0.1:8080/
//
// so scripts can read the URL; with -addr 127.0.0.1:0 it picks a free port
// and prints that. Each request is logged to stderr in one short line unless
// -quiet is given. SIGINT or SIGTERM shuts the server down gracefully.
//
// -class serves a class from a teacher's laptop: it listens on every
// interface (port 8080 unless -addr says otherwise) instead of loopback,
// and holds one class (tools/serve/classhub) at the paths under /class/.
// Its first two lines are
//
//	presenter: http://127.0.0.1:8080/?class&key=<32 hex digits>
//	students: http://192.168.1.23:8080/?class
//
// the presenter's page on this machine, with the key that makes it
// present, and the class's, on this machine's address on the local
// network (loopback on a machine with none); then the students' address
// again with a QR code for the phones to scan, and what the network must
// allow (see writeClass). The key is never in the students' address nor
// in the QR code. The class's folder (-class-dir) keeps the key and the
// drawings, so that a restart loses neither; -class-new-key makes a new
// key. The rules below hold as they do on loopback, and nothing of the
// class's folder is served as a file.
//
// Files get explicit MIME types, gzip or a precompressed .br/.gz sibling
// when the client accepts it, Cache-Control: no-cache with ETag and
// Last-Modified (or, when the URL names the file's version, ?v=… or a hash
// in the name, a year's immutable caching), and X-Content-Type-Options:
// nosniff; conditional and Range requests are answered for whichever of
// those representations is sent. There are no directory
// listings; nothing outside the root, even through a symlink, and no URL
// with a segment starting with '.' (.git, .cache, ...) is served. See
// newHandler.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"softmaxdemo/tools/serve/classhub"
)

// shutdownTimeout bounds how long in-flight requests may run after a signal.
const shutdownTimeout = 5 * time.Second

// errUsage marks bad command-line arguments; the flag package has already
// printed the details and the usage.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// After the first signal, restore the default handling so that a
	// second Ctrl-C kills a shutdown that hangs.
	context.AfterFunc(ctx, stop)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
}

// run parses args, serves the root until ctx is done, then shuts down
// gracefully. It prints the "serving <root> at <url>" line to stdout once
// the listener is open, and logs requests and server errors to stderr.
// It returns nil after a clean shutdown.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen `address`; port 0 picks a free port")
	root := fs.String("root", ".", "site root `directory`")
	quiet := fs.Bool("quiet", false, "do not log requests")
	class := fs.Bool("class", false, "serve a class on the local network: listen on every interface (port "+classPort+" unless -addr says), print the presenter's address with its key and the students' with a QR code")
	var cf classFlags
	fs.StringVar(&cf.dir, "class-dir", "class", "with -class: the class's `folder`, which keeps the presenter's key and the drawings")
	fs.IntVar(&cf.max, "class-max", 100, "with -class: phones joined at once, at most")
	fs.IntVar(&cf.perPhone, "class-drawings-per-phone", 50, "with -class: drawings one phone may send, at most")
	fs.IntVar(&cf.drawings, "class-drawings", 5000, "with -class: drawings the class keeps, at most")
	fs.BoolVar(&cf.newKey, "class-new-key", false, "with -class: make a new presenter's key instead of the one the folder keeps")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: serve [-addr host:port] [-root dir] [-quiet] [-class [-class-dir dir] [-class-max n] [-class-drawings-per-phone n] [-class-drawings n] [-class-new-key]]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return errUsage
	}

	dir, err := filepath.Abs(*root)
	if err != nil {
		return fmt.Errorf("root %s: %w", *root, err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("root: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("root %s: not a directory", dir)
	}

	var logw io.Writer
	if !*quiet {
		logw = stderr
	}
	handler := newHandler(dir, logw)
	var hub *classhub.Hub
	if *class {
		addrSet := false
		fs.Visit(func(f *flag.Flag) { addrSet = addrSet || f.Name == "addr" })
		if !addrSet {
			*addr = ":" + classPort
		}
		if hub, err = cf.open(stderr); err != nil {
			return err
		}
		defer hub.Close()
		handler = &classHandler{hub: hub, static: handler, log: logw, private: privatePrefix(dir, cf.dir)}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          newLogger(stderr),
	}
	if hub != nil {
		srv.RegisterOnShutdown(hub.EndStreams)
		students, err := printClass(stdout, stderr, *addr, ln.Addr(), cf.key.String(), cf.dir)
		if err != nil {
			ln.Close()
			return err
		}
		hub.SetStudents(students)
	} else if _, err := fmt.Fprintf(stdout, "serving %s at %s\n", dir, siteURL(*addr, ln.Addr())); err != nil {
		ln.Close()
		return fmt.Errorf("writing url: %w", err)
	}

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err // Serve never returns nil or ErrServerClosed here
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// siteURL returns the URL a browser on this machine should open for a
// listener asked for flagAddr and bound to bound. An unspecified host
// (":8080", "0.0.0.0:8080", "[::]:8080") is shown as loopback.
func siteURL(flagAddr string, bound net.Addr) string {
	host, _, _ := net.SplitHostPort(flagAddr)
	_, port, err := net.SplitHostPort(bound.String())
	if err != nil {
		return "http://" + bound.String() + "/"
	}
	if tcp, ok := bound.(*net.TCPAddr); ok {
		switch {
		case host == "" || tcp.IP.Equal(net.IPv4zero):
			host = "127.0.0.1"
		case tcp.IP.Equal(net.IPv6unspecified):
			host = "::1"
		case tcp.IP != nil:
			host = tcp.IP.String()
		}
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}
