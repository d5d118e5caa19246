package wire

import (
	"errors"
	"strconv"
	"syscall"
)

// Upgrade opens a connection to the daemon at sock and asks it to switch
// the connection to another protocol: GET target with Connection: Upgrade,
// Upgrade: protocol and the extra headers (name, value, name, value, ...).
// On 101 Switching Protocols it returns the connection, with no timeouts
// left on it, and the bytes the daemon sent after its answer's headers
// (the new protocol's first bytes). The deadline bounds the exchange; a
// refusal is an error carrying the daemon's envelope.
func (c Client) Upgrade(sock, target, protocol string, headers ...string) (FD, []byte, error) {
	if len(headers)%2 != 0 {
		return -1, nil, errors.New("upgrade: headers must come in name, value pairs")
	}
	conn, err := dial(sock, c.Deadline)
	if err != nil {
		return -1, nil, err
	}
	fail := func(err error) (FD, []byte, error) {
		syscall.Close(conn.fd)
		return -1, nil, err
	}
	b := make([]byte, 0, 256)
	b = append(b, "GET "...)
	b = append(b, target...)
	b = append(b, " HTTP/1.1\r\nHost: ccd\r\nConnection: Upgrade\r\nUpgrade: "...)
	b = append(b, protocol...)
	b = append(b, "\r\n"...)
	if c.Version != "" {
		headers = append([]string{VersionHeader, c.Version}, headers...)
	}
	for i := 0; i < len(headers); i += 2 {
		b = append(b, headers[i]...)
		b = append(b, ": "...)
		b = append(b, headers[i+1]...)
		b = append(b, "\r\n"...)
	}
	b = append(b, "\r\n"...)
	if err := conn.write(b); err != nil {
		if goingAway(err) {
			return fail(gone(sock, err))
		}
		return fail(wrap("upgrade request", err))
	}
	p := newParser(1 << 20)
	done := false
	for p.resp == nil || (p.resp.Status != 101 && !done) {
		n, err := conn.read(p.space())
		if err != nil {
			if conn.received == 0 && goingAway(err) {
				return fail(gone(sock, err))
			}
			return fail(wrap("upgrade answer", err))
		}
		if n == 0 {
			r, err := p.finish()
			if err != nil {
				return fail(wrap("upgrade answer", err))
			}
			p.resp, done = r, true
			continue
		}
		if done, err = p.feed(n); err != nil {
			return fail(wrap("upgrade answer", err))
		}
	}
	if p.resp.Status != 101 {
		err := p.resp.Err()
		if err == nil {
			err = errors.New("status " + strconv.Itoa(p.resp.Status))
		}
		return fail(wrap("the daemon refused the upgrade to "+protocol, err))
	}
	var zero syscall.Timeval
	for _, opt := range []int{syscall.SO_RCVTIMEO, syscall.SO_SNDTIMEO} {
		if err := syscall.SetsockoptTimeval(conn.fd, syscall.SOL_SOCKET, opt, &zero); err != nil {
			return fail(wrap("upgrade", err))
		}
	}
	rest := append([]byte(nil), p.buf[p.start:]...)
	return FD(conn.fd), rest, nil
}
