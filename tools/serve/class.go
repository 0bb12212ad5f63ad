package main

import (
	"fmt"
	"io"
	"net"
	"slices"
	"strings"

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

// writeClass writes what a teacher needs to let a class open the page:
// the address, its QR code and what the network must allow, in one
// write.
func writeClass(w io.Writer, url string, others []string) error {
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
port. The page is served as it is: no accounts, nothing is uploaded, and
every file is read-only. A plain-HTTP address on the local network is not
a secure context, so browsers give the page no offline copy and no
clipboard there: Copy link shows the link to copy by hand. Ctrl-C stops.
`)
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
