package class

import "encoding/hex"

// A PhoneID is a phone's anonymous id: 16 random bytes that the page
// makes once (crypto.getRandomValues, which plain-HTTP pages have too)
// and keeps in its localStorage, so that a phone is the same phone
// through a reload, a screen lock and a Wi-Fi drop, and is nobody's name.
// Its text form is 32 lowercase hex digits. The zero PhoneID is no
// phone's: the server gives it to digits the presenter uploads.
type PhoneID [16]byte

// ParsePhoneID parses a phone id's text form. It returns an error
// wrapping ErrInvalid for anything but 32 lowercase hex digits not all
// zero.
func ParsePhoneID(s string) (PhoneID, error) {
	var p PhoneID
	if err := parseHex(p[:], s, "phone id"); err != nil {
		return p, err
	}
	if p == (PhoneID{}) {
		return p, invalidf("the phone id is zero")
	}
	return p, nil
}

// String returns p's text form, 32 lowercase hex digits.
func (p PhoneID) String() string { return hex.EncodeToString(p[:]) }

// A Key is the presenter's key: 16 bytes (128 bits) from crypto/rand,
// written as 32 lowercase hex digits. Whoever holds it presents.
type Key [16]byte

// ParseKey parses a key's text form. It returns an error wrapping
// ErrInvalid for anything but 32 lowercase hex digits. It takes the same
// time for every string of 32 characters, whatever the key.
func ParseKey(s string) (Key, error) {
	var k Key
	err := parseHex(k[:], s, "key")
	return k, err
}

// String returns k's text form, 32 lowercase hex digits.
func (k Key) String() string { return hex.EncodeToString(k[:]) }

// parseHex fills dst from s, exactly 2·len(dst) lowercase hex digits.
func parseHex(dst []byte, s, what string) error {
	if len(s) != 2*len(dst) {
		return invalidf("a %s of %d characters, want %d hex digits", what, len(s), 2*len(dst))
	}
	bad := false
	for i := range dst {
		hi, ok1 := nibble(s[2*i])
		lo, ok2 := nibble(s[2*i+1])
		bad = bad || !ok1 || !ok2
		dst[i] = hi<<4 | lo
	}
	if bad {
		return invalidf("a %s that is not %d lowercase hex digits", what, 2*len(dst))
	}
	return nil
}

func nibble(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}
