package main

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"softmaxdemo/core/class"
	"softmaxdemo/tools/serve/classhub"

	"rsc.io/qr"
)

// classPort is the port -class listens on when -addr does not say.
const classPort = "8080"

// lanAddress is one IPv4 address of this machine on a local network.
type lanAddress struct {
	iface string
	ip    net.IP
}

// lanAddresses returns this machine's IPv4 addresses on its local
// networks, the interfaces that are up, not loopback and not link-local,
// private addresses (10/8, 172.16/12, 192.168/16) first.
func lanAddresses() ([]lanAddress, error) {
	ifaces, err := net.Interfaces()
	if err != nil {
		return nil, err
	}
	var out []lanAddress
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				out = append(out, lanAddress{ifc.Name, n.IP})
			}
		}
	}
	return usable(out), nil
}

// usable keeps the IPv4 addresses a phone on the same network can reach,
// private ones first, in a stable order.
func usable(addrs []lanAddress) []lanAddress {
	var out []lanAddress
	for _, a := range addrs {
		ip := a.ip.To4()
		if ip == nil || ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() || ip.IsMulticast() {
			continue
		}
		out = append(out, lanAddress{a.iface, ip})
	}
	slices.SortStableFunc(out, func(a, b lanAddress) int {
		switch {
		case a.ip.IsPrivate() && !b.ip.IsPrivate():
			return -1
		case !a.ip.IsPrivate() && b.ip.IsPrivate():
			return 1
		}
		return 0
	})
	return out
}

// classURL returns the URL the class opens for a listener asked for
// flagAddr and bound to bound: on an unspecified host, the first of
// lan's addresses with the bound port (loopback if there is none);
// otherwise the host it is bound to.
func classURL(flagAddr string, bound net.Addr, lan []lanAddress) string {
	host, _, _ := net.SplitHostPort(flagAddr)
	_, port, err := net.SplitHostPort(bound.String())
	if err != nil || (host != "" && host != "0.0.0.0" && host != "::") || len(lan) == 0 {
		return siteURL(flagAddr, bound)
	}
	return "http://" + net.JoinHostPort(lan[0].ip.String(), port) + "/"
}

// classFlags are -class's flags.
type classFlags struct {
	dir                     string
	max, perPhone, drawings int
	newKey                  bool
	key                     class.Key // the presenter's, once open
}

// open makes the class's folder absolute, takes the presenter's key kept
// there (or makes one) and returns the class, its drawings loaded from
// the folder. What could not be kept is said on stderr.
func (cf *classFlags) open(stderr io.Writer) (*classhub.Hub, error) {
	switch {
	case cf.max < 1:
		return nil, fmt.Errorf("%w: -class-max %d: want at least 1", errUsage, cf.max)
	case cf.perPhone < 0 || cf.drawings < 0:
		return nil, fmt.Errorf("%w: -class-drawings-per-phone %d, -class-drawings %d: want 0 or more", errUsage, cf.perPhone, cf.drawings)
	}
	dir, err := filepath.Abs(cf.dir)
	if err != nil {
		return nil, fmt.Errorf("-class-dir %s: %w", cf.dir, err)
	}
	cf.dir = dir
	key, _, err := classhub.LoadKey(dir, cf.newKey)
	if err != nil {
		fmt.Fprintf(stderr, "serve: %v: the key holds until this server stops; a restart prints a new one\n", err)
	}
	cf.key = key
	hub := classhub.New(key)
	hub.MaxStudents, hub.MaxDrawingsPerPhone, hub.MaxDrawings = cf.max, cf.perPhone, cf.drawings
	hub.Log = log.New(stderr, "", log.Ltime)
	if err := hub.Open(dir); err != nil {
		return nil, fmt.Errorf("the class's folder: %w", err)
	}
	return hub, nil
}

// classHandler serves the class's paths (under /class/) from the hub
// and every other from the site, except the class's folder if it is
// inside the site's root: the key and the drawings are never files to
// fetch.
type classHandler struct {
	hub, static http.Handler
	log         io.Writer // nil: no request log
	private     string    // the class's folder relative to the root, slash-separated; "" if outside
}

func (c *classHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/class/") {
		if c.log == nil {
			c.hub.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		lw := &loggingWriter{ResponseWriter: w}
		c.hub.ServeHTTP(lw, r)
		if lw.status == 0 {
			lw.status = http.StatusOK
		}
		fmt.Fprintf(c.log, "%s %s %s %d %dB %s\n", time.Now().Format(time.TimeOnly), r.Method, r.URL.EscapedPath(), lw.status,
			lw.n, time.Since(start).Round(10*time.Microsecond))
		return
	}
	if name, _, ok := cleanPath(r.URL.Path); ok && c.private != "" {
		if strings.EqualFold(name, c.private) || len(name) > len(c.private) && strings.EqualFold(name[:len(c.private)+1], c.private+"/") {
			notFound(w)
			return
		}
	}
	c.static.ServeHTTP(w, r)
}

// privatePrefix returns the folder dir relative to the site's root,
// slash-separated, if it is inside it, and "" otherwise.
func privatePrefix(root, dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	if rel == "." {
		return "."
	}
	return filepath.ToSlash(rel)
}

// printClass writes the class's two lines, the presenter's address with
// its key and the students', then what writeClass writes for the
// students' address, and returns the students' address.
func printClass(stdout, stderr io.Writer, flagAddr string, bound net.Addr, key, dir string) (students string, err error) {
	lan, err := lanAddresses()
	if err != nil {
		fmt.Fprintf(stderr, "serve: listing this machine's addresses: %v\n", err)
	}
	students = classURL(flagAddr, bound, lan) + "?class"
	if len(lan) == 0 {
		fmt.Fprintln(stderr, "serve: this machine has no address on a local network: is it on the room's Wi-Fi?")
	}
	var others []string
	for _, a := range lan {
		if u := classURL(flagAddr, bound, []lanAddress{a}) + "?class"; u != students {
			others = append(others, u+" ("+a.iface+")")
		}
	}
	presenter := siteURL(flagAddr, bound) + "?class&key=" + key
	if _, err := fmt.Fprintf(stdout, "presenter: %s\nstudents: %s\n", presenter, students); err != nil {
		return "", fmt.Errorf("writing the addresses: %w", err)
	}
	return students, writeClass(stdout, students, others, dir)
}

// writeClass writes what a teacher needs to let a class open the page:
// the students' address, its QR code, what the network must allow and
// what the class keeps, in one write.
func writeClass(w io.Writer, url string, others []string, dir string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "\nThe class opens %s (the QR code below; the lesson's own QR code carries it too):\n\n", url)
	code, err := qr.Encode(url, qr.M)
	if err != nil {
		return fmt.Errorf("a QR code of %s: %w", url, err)
	}
	b.WriteString(qrText(code))
	if len(others) > 0 {
		fmt.Fprintf(&b, "\nThis machine's other addresses: %s\n", strings.Join(others, ", "))
	}
	b.WriteString(`
The phones and laptops must be on the same network as this machine (the
same Wi-Fi, the same subnet), and its firewall must let them in on this
port. The page is served as it is: no accounts, no names, every file
read-only; what the phones send (answers, drawings, lines) comes to this
machine alone. A plain-HTTP address on the local network is not a secure
context, so browsers give the page no offline copy and no clipboard
there: Copy link shows the link to copy by hand.
`)
	fmt.Fprintf(&b, `
The presenter's address is for this machine alone: whoever opens it
presents. The class's folder, %s, keeps the presenter's key
and the drawings, so that a restart loses neither; delete the folder to
forget them (-class-new-key makes a new key). Ctrl-C stops.
`, dir)
	_, err = io.WriteString(w, b.String())
	return err
}

// qrText draws code for a terminal, two rows of modules per line of half
// blocks, dark on light whatever the terminal's colours (ANSI black on
// white), with a quiet zone of two modules.
func qrText(code *qr.Code) string {
	const quiet = 2
	n := code.Size + 2*quiet
	dark := func(x, y int) bool {
		x, y = x-quiet, y-quiet
		return x >= 0 && y >= 0 && x < code.Size && y < code.Size && code.Black(x, y)
	}
	var b strings.Builder
	for y := 0; y < n; y += 2 {
		b.WriteString("  \x1b[30;47m")
		for x := range n {
			switch top, bottom := dark(x, y), dark(x, y+1); {
			case top && bottom:
				b.WriteString("█")
			case top:
				b.WriteString("▀")
			case bottom:
				b.WriteString("▄")
			default:
				b.WriteString(" ")
			}
		}
		b.WriteString("\x1b[0m\n")
	}
	return b.String()
}
