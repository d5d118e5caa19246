package wire

import (
	"errors"
	"strconv"
	"syscall"
)

// MaxBody bounds an answer read by Call unless the Client says otherwise.
const MaxBody = 64 << 20

// Client says how to talk to the daemon. The zero Client sends no
// version, never gives up and cannot be cancelled.
type Client struct {
	// Version is sent as X-Ccd-Version (a daemon older than its client
	// hands over to a new one); empty sends none.
	Version string
	// Deadline bounds every call, including waiting for a daemon to start.
	Deadline Deadline
	// Done, when closed, stops waiting for a daemon to start (it is
	// checked between attempts; a request in flight runs to its deadline).
	Done <-chan struct{}
	// MaxBody bounds the answer's body (0: MaxBody): a larger answer is
	// an error. The benchmark reads whole graph exports with a higher one.
	MaxBody int
	// Patient: with autostart, a daemon that failed to start less than a
	// minute ago is not started again: the call fails at once, saying why
	// (hooks, which would each spend their whole budget on it). People
	// at the command line are not patient that way: they try at once.
	Patient bool
}

// Call sends one HTTP/1.1 request (Connection: close) over the socket and
// reads the whole answer; body nil sends no body. A socket nobody listens
// on gives an error wrapping ErrNoDaemon, a passed deadline one wrapping
// ErrTimeout. A non-2xx answer is not an error here: see Response.Err.
func (c Client) Call(sock, method, target string, body []byte) (*Response, error) {
	conn, err := dial(sock, c.Deadline)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(conn.fd)
	if err := conn.write(request(method, target, c.Version, body)); err != nil {
		if goingAway(err) {
			return nil, gone(sock, err)
		}
		return nil, wrap(method+" "+target, err)
	}
	max := c.MaxBody
	if max <= 0 {
		max = MaxBody
	}
	r, err := conn.readResponse(max)
	if err != nil && conn.received == 0 && goingAway(err) {
		return nil, gone(sock, err)
	}
	return r, err
}

// goingAway reports whether an error on a connected socket means the
// daemon is exiting: a killed process keeps its listening socket open
// while the kernel tears down its memory, so a connect can succeed and the
// connection then be reset without an answer.
func goingAway(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// gone is the error for a daemon that went away before answering: it
// wraps ErrNoDaemon, so callers start a new one.
func gone(sock string, err error) error {
	return &wrapped{msg: ErrNoDaemon.Error() + " at " + sock + " (it went away before answering: " + err.Error() + ")", err: ErrNoDaemon}
}

// Ping reports whether a daemon answers on the socket.
func (c Client) Ping(sock string) error {
	r, err := c.Call(sock, "GET", "/v1/ping", nil)
	if err != nil {
		return err
	}
	return r.Err()
}

// request is the bytes of one request.
func request(method, target, version string, body []byte) []byte {
	b := make([]byte, 0, 160+len(target)+len(body))
	b = append(b, method...)
	b = append(b, ' ')
	b = append(b, target...)
	b = append(b, " HTTP/1.1\r\nHost: ccd\r\n"...)
	if version != "" {
		b = append(b, VersionHeader+": "...)
		b = append(b, version...)
		b = append(b, "\r\n"...)
	}
	b = append(b, "Connection: close\r\n"...)
	if body != nil {
		b = append(b, "Content-Type: application/json\r\nContent-Length: "...)
		b = append(b, strconv.Itoa(len(body))...)
		b = append(b, "\r\n"...)
	}
	b = append(b, "\r\n"...)
	return append(b, body...)
}

// conn is a blocking unix socket whose every read and write is bounded by
// the deadline (SO_RCVTIMEO / SO_SNDTIMEO re-armed with the time left).
type conn struct {
	fd       int
	dl       Deadline
	received int // bytes read so far
}

func dial(sock string, dl Deadline) (*conn, error) {
	if dl.Passed() {
		return nil, wrap("connect "+sock, ErrTimeout)
	}
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, wrap("socket", err)
	}
	c := &conn{fd: fd, dl: dl}
	addr := &syscall.SockaddrUnix{Name: sock}
	for {
		if err = c.arm(syscall.SO_SNDTIMEO); err != nil {
			break
		}
		if err = syscall.Connect(fd, addr); err == syscall.EINTR {
			continue
		}
		if err == syscall.EAGAIN { // the listener's backlog stayed full
			if !dl.Passed() {
				continue // woken up a clock tick early
			}
			err = ErrTimeout
		}
		break
	}
	switch err {
	case nil, syscall.EISCONN:
		if perr := CheckPeer(fd); perr != nil {
			syscall.Close(fd)
			return nil, wrap("connect "+sock, perr)
		}
		return c, nil
	case ErrTimeout:
		syscall.Close(fd)
		return nil, wrap("connect "+sock, ErrTimeout)
	}
	syscall.Close(fd)
	return nil, &wrapped{msg: ErrNoDaemon.Error() + " at " + sock + ": connect: " + err.Error(), err: ErrNoDaemon}
}

// arm sets the socket timeout opt to the time left, or fails with
// ErrTimeout once the deadline has passed.
func (c *conn) arm(opt int) error {
	if c.dl == 0 {
		return nil // a fresh socket has no timeouts
	}
	left := c.dl.Left()
	if left < 1000 { // SO_*TIMEO counts microseconds; 0 would mean forever
		return ErrTimeout
	}
	tv := syscall.NsecToTimeval(left)
	return syscall.SetsockoptTimeval(c.fd, syscall.SOL_SOCKET, opt, &tv)
}

// io runs one read or write, retrying on signals, with the timeout armed.
func (c *conn) io(opt int, f func() (int, error)) (int, error) {
	for {
		if err := c.arm(opt); err != nil {
			return 0, err
		}
		n, err := f()
		switch err {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			// The kernel counts timeouts in clock ticks and may wake up
			// to a tick early: go on until the deadline really passed.
			if c.dl != 0 && !c.dl.Passed() {
				continue
			}
			return 0, ErrTimeout
		}
		return n, err
	}
}

func (c *conn) write(p []byte) error {
	for len(p) > 0 {
		n, err := c.io(syscall.SO_SNDTIMEO, func() (int, error) { return syscall.Write(c.fd, p) })
		if err != nil {
			return err
		}
		p = p[n:]
	}
	return nil
}

func (c *conn) read(p []byte) (int, error) {
	n, err := c.io(syscall.SO_RCVTIMEO, func() (int, error) { return syscall.Read(c.fd, p) })
	if n > 0 {
		c.received += n
	}
	return n, err
}

// readResponse reads until the answer is complete: its Content-Length or
// last chunk, else the end of the connection; a body over max bytes is an
// error.
func (c *conn) readResponse(max int) (*Response, error) {
	p := newParser(max)
	for {
		buf := p.space()
		n, err := c.read(buf)
		if err != nil {
			return nil, wrap("read answer", err)
		}
		if n == 0 {
			return p.finish()
		}
		done, err := p.feed(n)
		if err != nil {
			return nil, err
		}
		if done {
			return p.resp, nil
		}
	}
}

// ownUID is the user the daemon must run as; tests change it.
var ownUID = uint32(syscall.Getuid())

// CheckPeer checks that the process at the other end of the connected
// unix socket fd runs as this user: whatever else listens there (another
// user's process on a shared runtime directory) must not receive the
// events, which carry file contents, nor answer with cards.
func CheckPeer(fd int) error {
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil {
		return nil // not a unix socket with credentials: nothing to check
	}
	if cred.Uid != ownUID {
		return errors.New("the socket is served by user id " + strconv.Itoa(int(cred.Uid)) + ", not by you (" +
			strconv.Itoa(int(ownUID)) + "): refusing to talk to it; check CCD_SOCKET and the state directory")
	}
	return nil
}
